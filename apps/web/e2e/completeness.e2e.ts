import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, watchCspViolations, deviceEntry, listEntry } from './browser';
import { e2e } from './environment';

/** Data completeness (issue 14 item 3, ADR 0035) in Chromium. */

const SHOTS = process.env.SHOTS_DIR ?? '/work/helpers/shots/h14-completeness';
const MIN = 60_000;
const FREEZER = { name: 'Freezer Expedição', mac: 'C3:00:00:00:01:04' };
const TRUCK = 'C3:00:00:00:01:01'; // Baú Caminhão 01

let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = await mkdtemp(path.join(tmpdir(), 'completeness-e2e-'));
  await mkdir(SHOTS, { recursive: true }).catch(() => {});
});
afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function shot(page: Page, name: string) {
  await screenshot(page, `completeness-${name}`);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true }).catch(() => {});
}

/** Sets (or clears, with null) a device's expected interval as an administrator would in its configuration. */
async function configureInterval(deviceId: string, seconds: number | null) {
  const base = e2e('baseURL');
  const headers = { 'content-type': 'application/json' };
  const auth = (await (await fetch(`${base}/api/authenticate`, { method: 'POST', headers, body: JSON.stringify({ username: 'aurora.adm', password: DEMO_PASSWORD }) })).json()) as { token: { token: string } };
  const res = await fetch(`${base}/api/devices/${deviceId}`, {
    method: 'PUT',
    headers: { ...headers, authorization: `Bearer ${auth.token.token}` },
    body: JSON.stringify({ config: { report_interval_seconds: seconds } }),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** The truck's id, read from the device list as its enterprise's administrator sees it. */
async function truckId(): Promise<string> {
  const base = e2e('baseURL');
  const headers = { 'content-type': 'application/json' };
  const auth = (await (await fetch(`${base}/api/authenticate`, { method: 'POST', headers, body: JSON.stringify({ username: 'aurora.adm', password: DEMO_PASSWORD }) })).json()) as { token: { token: string } };
  const devices = (await (await fetch(`${base}/api/beacon-device/all`, { headers: { authorization: `Bearer ${auth.token.token}` } })).json()) as Array<{ _id: string; mac: string }>;
  return devices.find((d) => d.mac === TRUCK)!._id;
}

async function ingest(readings: unknown[]) {
  const res = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
    method: 'POST',
    headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
    body: JSON.stringify({ readings }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { accepted: number };
}

describe('silent devices (ADR 0035)', () => {
  for (const viewport of [{ width: 1280, height: 800, name: 'desktop' }, { width: 390, height: 844, name: 'phone' }]) {
    it(`turn to "Sem dados há …" by themselves in Meus Dispositivos (${viewport.name})`, async () => {
      // A one-minute interval (silent after 3 min), set rather than learned: the interval the ingestion learns from
      // the truck's readings depends on which files ran before on this server (their readings' gaps stretch it), and
      // a learned 7 minutes would keep it fresh past 20. Restored at the end.
      const id = await truckId();
      await configureInterval(id, 60);
      const { context, page } = await newPage(browser, { width: viewport.width, height: viewport.height });
      const csp = await watchCspViolations(page);
      // The truck reports now, whenever this file runs (the other demo devices' last readings are as old as the
      // server, and some turn silent while the suite runs).
      await ingest([{ mac: TRUCK, ts: new Date().toISOString(), temperature: 4.5, humidity: 60, battery: 88 }]);
      // The page's own clock, moved forward below: the screen stays open and no event arrives meanwhile.
      await page.clock.install({ time: new Date() });
      await login(page, 'aurora.adm');
      await page.waitForURL('**/my-devices');

      // The truck reported a moment ago: no silence yet.
      const truck = deviceEntry(page, 'Baú Caminhão 01');
      await truck.waitFor();
      expect(await truck.getByTestId('device-silence').count()).toBe(0);

      // Four minutes later: past the 3-minute threshold, within the 5-minute session window (P2). `textContent` of
      // a badge not there yet would wait Playwright's 30 s per attempt: `count` lets the poll retry at its pace.
      await page.clock.fastForward(4 * MIN);
      await expect.poll(() => truck.getByTestId('device-silence').count()).toBe(1);
      expect(await truck.getByTestId('device-silence').textContent()).toMatch(/^Sem dados há [4-6] min$/);
      await shot(page, `my-devices-${viewport.name}`);
      expect(csp).toEqual([]);
      await context.close();
      await configureInterval(id, null);
    });
  }
});

describe('a travel card going quiet (ADR 35)', () => {
  const TRAVEL = 'AUR7K2M9QX';
  const card = (page: Page) => page.locator(`[data-testid="device-card"][data-mac="${TRUCK}"]`);

  for (const viewport of [{ width: 1280, height: 800, name: 'desktop' }, { width: 390, height: 844, name: 'phone' }]) {
    it(`turns to "Sem dados há …" by itself on the travel's Dispositivos tab (${viewport.name})`, async () => {
      // A one-minute interval (silent after 3 min), whatever other specs taught the truck; restored at the end.
      const id = await truckId();
      await configureInterval(id, 60);
      await ingest([{ mac: TRUCK, ts: new Date().toISOString(), temperature: 4.75, humidity: 61, battery: 88 }]);

      const { context, page } = await newPage(browser, { width: viewport.width, height: viewport.height });
      const csp = await watchCspViolations(page);
      // The page's own clock, moved forward below: the screen stays open and no event arrives meanwhile.
      await page.clock.install({ time: new Date() });
      await login(page, 'aurora.adm');
      await page.waitForURL('**/my-devices', { timeout: 20_000 });
      await page.goto('/directions');
      await page.waitForURL('**/directions#routes', { timeout: 20_000 });
      await page.getByLabel('Pesquisar viagens').fill(TRAVEL, { timeout: 20_000 });
      const row = listEntry(page, 'travel-card').filter({ has: page.getByRole('button', { name: 'Dispositivos' }) });
      await expect.poll(() => row.count()).toBe(1);
      await row.getByRole('button', { name: 'Dispositivos' }).click({ timeout: 20_000 });
      await page.waitForURL(/\/directions\?travel=[^#]+#devices$/, { timeout: 20_000 });

      // The reading of a moment ago: coloured, no silence.
      await card(page).getByText('4,75 °C').waitFor({ timeout: 20_000 });
      expect(await card(page).getAttribute('data-state')).not.toBe('silent');
      expect(await card(page).getByTestId('card-silence').count()).toBe(0);

      // Four minutes: past the truck's 3-minute threshold, within the 5-minute session window (P2) — the screen's
      // socket reconnects after the jump and reloads the travel over HTTP, which an expired session would refuse.
      await page.clock.fastForward(4 * MIN);
      await expect.poll(() => card(page).getAttribute('data-state', { timeout: 5000 })).toBe('silent');
      expect(await card(page).getByTestId('card-silence').innerText()).toMatch(/^Sem dados há [4-6] min$/);
      await card(page).scrollIntoViewIfNeeded();
      await shot(page, `travel-card-silent-${viewport.name}`);
      expect(csp).toEqual([]);
      await context.close();
      await configureInterval(id, null);
    });
  }
});

describe('coverage in the device history and its report', () => {
  it('shows the coverage and the gap of a period, and the PDF prints them', async () => {
    // A minute-aligned block of 10 readings a minute apart, a 21-minute silence, 10 more; the freezer learns its
    // one-minute interval from them and the sensor's counter says 20 readings were lost.
    const now = Date.now();
    const base = now - 10 * 86_400_000 - ((now - 10 * 86_400_000) % MIN);
    const reading = (k: number) => ({ mac: FREEZER.mac, ts: new Date(base + k * MIN).toISOString(), temperature: -18, humidity: 50, seq: k });
    await ingest([...Array.from({ length: 10 }, (_, k) => reading(k)), ...Array.from({ length: 10 }, (_, k) => reading(30 + k))]);

    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const csp = await watchCspViolations(page);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.getByRole('row').filter({ hasText: FREEZER.name }).getByRole('link', { name: 'Histórico' }).click();
    await page.waitForURL(`**/device-history/${encodeURIComponent(FREEZER.mac)}/**`);
    const url = new URL(page.url());
    // The freezer's interval, set in its configuration: other specs feed it readings at other intervals, from which
    // it would otherwise have learned one (ADR 35); restored to "learned" at the end.
    const deviceIdFromUrl = decodeURIComponent(url.pathname.split('/').at(-1)!);
    await configureInterval(deviceIdFromUrl, 60);
    url.searchParams.set('dateInitUtc', new Date(base).toISOString());
    url.searchParams.set('dateEndUtc', new Date(base + 40 * MIN).toISOString());
    url.searchParams.set('isUtc', 'true');
    await page.goto(url.toString());

    const panel = page.getByTestId('coverage');
    await expect.poll(() => panel.getByTestId('coverage-gaps').innerText()).toContain('1 (21 min sem dados)');
    const percent = await panel.getByTestId('coverage-percent').innerText();
    expect(percent).toContain('de 40 leituras esperadas');
    expect(percent).toContain('20 de 40');
    expect(await panel.getByTestId('coverage-lost').innerText()).toContain('20');
    const rows = await panel.getByTestId('coverage-gap-table').locator('tbody tr td').allInnerTexts();
    expect(rows[2]).toBe('21 min');
    await shot(page, 'history-coverage-desktop');

    // The chart breaks its line at the gap (drawn in Chromium, looked at in the screenshot).
    await page.getByRole('tab', { name: 'Gráfico' }).click();
    await page.getByTestId('history-chart').locator('canvas').waitFor();
    await shot(page, 'history-chart-gap-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('export-buttons').getByRole('button', { name: 'PDF' }).click(),
    ]);
    const file = path.join(dir, 'coverage.pdf');
    await download.saveAs(file);
    const { stdout } = await promisify(execFile)('pdftotext', ['-f', '1', '-l', '2', '-enc', 'UTF-8', '-layout', file, '-']);
    const text = stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Cobertura dos dados');
    expect(text).toMatch(/Cobertura 50 % \(20 de 40 leituras esperadas\)/);
    expect(text).toContain('Lacunas 1 (21 min sem dados)');
    expect(text).toMatch(/Lacunas Nº Início Fim Duração 1 \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} 21 min/);
    expect(text).toContain('Leituras perdidas 20 (entre sensor e gateway, pelo contador de sequência)');
    await writeFile(path.join(dir, 'coverage.txt'), text);

    // The same panel on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Dados' }).click();
    await panel.waitFor();
    await shot(page, 'history-coverage-phone');
    expect(csp).toEqual([]);
    await configureInterval(deviceIdFromUrl, null);
    await context.close();
  });
});
