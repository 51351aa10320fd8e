import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot } from './browser';
import { e2e } from './environment';

/** Issue 3: beacons simulated through HTTP and through MQTT show up on /my-devices and in the device history. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const root = path.resolve(import.meta.dirname, '../../..');

/** Runs `npm run simulate` (the same script users run) for a few seconds against the e2e server. */
function simulate(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/simulate.ts'), '--url', e2e('baseURL'), '--mqtt-url', e2e('mqttUrl'), ...args], { cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`simulate exited ${code}: ${out}`))));
  });
}

/**
 * "DD/MM/YYYY HH:mm:ss" in São Paulo time (UTC-3, the browser's zone here) as an instant: the start of the cell, which
 * may go on with the "Sem dados há …" badge of a quiet device (ADR 35).
 */
function parseLocal(text: string): number {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}:\d{2}:\d{2})(\s|$)/.exec(text.trim());
  if (!m) throw new Error(`not a date: ${text}`);
  return Date.parse(`${m[3]}-${m[2]}-${m[1]}T${m[4]}-03:00`);
}

async function lastSyncOf(page: Page, name: string): Promise<number> {
  const row = page.getByRole('row').filter({ hasText: name });
  const cells = await row.locator('td').allInnerTexts();
  return parseLocal(cells[3]!);
}

describe('ingestion end to end', () => {
  it('a beacon over HTTP and one over MQTT appear on /my-devices and in the history', async () => {
    const started = Date.now();
    // Second precision on screen: compare against the start of the second.
    const startedSecond = Math.floor(started / 1000) * 1000;
    await simulate(['--transport', 'http', '--macs', 'C3:00:00:00:02:01', '--duration', '2']);
    await simulate(['--transport', 'mqtt', '--macs', 'C3:00:00:00:02:04', '--duration', '2']);

    const { context, page } = await newPage(browser);
    await login(page, 'vida.adm');
    await page.waitForURL('**/my-devices');
    await page.getByRole('row').filter({ hasText: 'Geladeira Vacinas' }).waitFor();
    // The list as loaded may predate the last acknowledged batch's effects by a moment: look again until it shows them.
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('row').filter({ hasText: 'Geladeira Vacinas' }).waitFor();
        return lastSyncOf(page, 'Geladeira Vacinas');
      }, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(startedSecond);
    expect(await lastSyncOf(page, 'Farmácia Centro - Ambiente')).toBeGreaterThanOrEqual(startedSecond);
    // A device nobody simulated keeps its seeded sync time.
    expect(await lastSyncOf(page, 'Caixa Térmica 01')).toBeLessThan(startedSecond);
    await screenshot(page, 'ingestion-my-devices');

    await page.getByRole('row').filter({ hasText: 'Farmácia Centro - Ambiente' }).getByRole('link', { name: 'Histórico' }).click();
    await page.getByTestId('readings-total').waitFor();
    const first = await page.locator('tbody tr').first().locator('td').allInnerTexts();
    expect(parseLocal(first[0]!)).toBeGreaterThanOrEqual(startedSecond);
    await context.close();
  });
});
