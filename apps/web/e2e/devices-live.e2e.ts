import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';

/**
 * Meus Dispositivos live (D1, ADR 0049) in Chromium: a reading posted to the ingestion route shows on an open
 * /my-devices without a reload, on a desktop (table) and on a 390 px phone (cards). The enterprise, its device and
 * its gateway are this file's own, so no other file's demo devices are touched.
 */
const SHOTS = process.env.SHOTS_DIR ?? '/work/helpers/shots/h-devices-live';
const ENTERPRISE = { name: 'Farmácia Ao Vivo', email: 'contato@farmaciaaovivo.example', password: 'Geladeira#Segura26' };
const FRIDGE = { mac: 'D7:1E:00:00:00:01', name: 'Geladeira de Vacinas', model: 'LIVE-E2E' };

let browser: Browser;
let username: string;
let gatewayKey: string;

async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e('baseURL')}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as T;
}

const signIn = async (user: string, password: string) =>
  (await api<{ token: { token: string } }>('POST', '/api/authenticate', null, { username: user, password })).token.token;

/** One reading of the fridge through its enterprise's gateway, stamped now. */
async function postReading(temperature: number) {
  const res = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
    method: 'POST',
    headers: { authorization: `ApiKey ${gatewayKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ readings: [{ mac: FRIDGE.mac, ts: new Date().toISOString(), temperature, humidity: 61.5, battery: 87 }] }),
  });
  expect(res.status, await res.text()).toBe(200);
}

beforeAll(async () => {
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true }).catch(() => {});
  // The super admin creates the enterprise and registers the fridge into it; its admin adds a gateway.
  const admin = await signIn('admin', DEMO_PASSWORD);
  const created = await api<{ client: { _id: string }; user: { username: string } }>('POST', '/api/client/create', admin, {
    client: { name: ENTERPRISE.name },
    user: { email: ENTERPRISE.email, password: ENTERPRISE.password },
  });
  username = created.user.username;
  const device = await api<{ _id: string }>('POST', '/api/beacon-device', admin, FRIDGE);
  await api('POST', '/api/devices/link/client', admin, { devices: [device._id], to_update: 1, client_id: created.client._id });
  const owner = await signIn(username, ENTERPRISE.password);
  gatewayKey = (await api<{ key: string }>('POST', '/api/gateways', owner, { name: 'Gateway da farmácia' })).key;
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  await screenshot(page, `devices-live-${name}`);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true }).catch(() => {});
}

describe('Meus Dispositivos live (D1)', () => {
  it('shows a new reading in the table without a reload (desktop)', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const violations = await watchCspViolations(page);
    await login(page, username, ENTERPRISE.password);
    await page.waitForURL('**/my-devices');
    const row = page.getByRole('row').filter({ hasText: FRIDGE.mac });
    await row.waitFor();
    await page.getByTestId('live-status').and(page.locator('[data-status="live"]')).waitFor();
    // A mark in the page: a reload would wipe it.
    await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
    const before = await row.getByRole('cell').nth(3).innerText();

    await postReading(5.5);
    await expect.poll(() => row.getByRole('cell').nth(3).innerText()).not.toBe(before);
    expect(await row.getByRole('cell').nth(3).innerText()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
    expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
    // No table scrolls sideways on a desktop.
    await shot(page, 'my-devices-desktop');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('shows cards on a 390 px phone, and a new reading changes its card without a reload', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    const violations = await watchCspViolations(page);
    await login(page, username, ENTERPRISE.password);
    await page.waitForURL('**/my-devices');
    const card = page.locator(`[data-testid="device-row-card"][data-mac="${FRIDGE.mac}"]`);
    await card.waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    // The page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('live-status').and(page.locator('[data-status="live"]')).waitFor();
    await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));

    await postReading(9.25);
    await card.getByText('9,25 °C').waitFor();
    expect(await card.getByText('61,50 %').count()).toBe(1);
    expect(await card.getByText('87%').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
    await shot(page, 'my-devices-phone');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('says so when the list cannot be loaded, and shows "Nada encontrado..." for a search without matches (phone)', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await login(page, username, ENTERPRISE.password);
    await page.waitForURL('**/my-devices');
    await page.locator('[data-testid="device-row-card"]').first().waitFor();
    await page.getByPlaceholder('Pesquisar dispositivos').fill('nenhum dispositivo assim');
    await page.getByText('Nada encontrado...').waitFor();
    await shot(page, 'my-devices-phone-empty');

    // The list's call fails (the network refuses it): the error state, on the phone and on a desktop.
    await page.route('**/api/beacon-device/all', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Erro interno."}' }));
    await page.reload();
    await page.getByText('Não foi possível encontrar dispositivos').waitFor({ timeout: 30_000 });
    await shot(page, 'my-devices-phone-error');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'my-devices-desktop-error');
    await context.close();
  });
});
