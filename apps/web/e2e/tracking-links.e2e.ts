import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CLIENT_VERSION } from '@sentinela/contract';
import { DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, watchCspViolations, listEntry } from './browser';
import { e2e } from './environment';

/**
 * Safer tracking links (issue 14, item 4; ADR 36) in Chromium: a manager sets what the link shows, sees it looked up,
 * revokes it and makes a new code; the public Localizador shows a position-only link without readings and says
 * when a link expired or was revoked. The spec makes its own travels: the demo's are other specs' fixtures.
 */
let browser: Browser;
const PHONE = { width: 390, height: 844 };
// A loaded machine answers in seconds, not in expect.poll's default second.
const POLL = { timeout: 20_000 };
const DESKTOP = { width: 1280, height: 900 };
const FREEZER = 'C3:00:00:00:01:04';
const TRAVEL_ERROR = 'Não foi possível localizar pontos';
const headers = { 'content-type': 'application/json', client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };
let token = '';
let userId = '';

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${e2e('baseURL')}${path}`, {
    method,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as T;
}

/** A travel of Aurora not started, carrying the matrix freezer (which has readings of its own). */
async function newTravel(destiny: string): Promise<{ _id: string; code: string }> {
  const devices = await api<{ data: { _id: string; mac: string }[] } | { _id: string; mac: string }[]>('GET', '/api/beacon-device/all');
  const list = Array.isArray(devices) ? devices : devices.data;
  const freezer = list.find((d) => d.mac === FREEZER);
  expect(freezer).toBeDefined();
  return api('POST', '/api/travels', {
    origin: { address: 'Rod. Anhanguera, km 100 - Campinas - SP', location: [-22.9056, -47.0608] },
    destiny: { address: destiny, location: [-23.9608, -46.3336] },
    responsible_user_id: userId,
    devices: [{ device_id: freezer!._id }],
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  const answer = await api<{ token: { token: string }; user: { _id: string } }>('POST', '/api/authenticate', { username: 'aurora.adm', password: DEMO_PASSWORD });
  token = answer.token.token;
  userId = answer.user._id;
});
afterAll(() => browser?.close());

// Animations (modals, notifications) finish before a screenshot is taken.
const settle = (page: Page) => page.waitForTimeout(400);

async function openTravel(page: Page, code: string) {
  await login(page, 'aurora.adm');
  await page.waitForURL('**/my-devices');
  await page.goto('/directions');
  await page.waitForURL('**/directions#routes');
  await page.getByLabel('Pesquisar viagens').fill(code);
  const row = listEntry(page, 'travel-card').filter({ has: page.getByRole('button', { name: 'Dispositivos' }) });
  await expect.poll(() => row.count(), POLL).toBe(1);
  await row.getByRole('button', { name: 'Dispositivos' }).click();
  await page.waitForURL(/\/directions\?travel=[^#]+#devices$/);
  await page.getByTestId('tracking-link').waitFor();
}

const panel = (page: Page) => page.getByTestId('tracking-link');

describe('tracking links', () => {
  it('a manager scopes, watches, revokes and renews a link; the public page follows each change', async () => {
    const travel = await newTravel('Porto de Santos - Santos - SP');
    const manager = await newPage(browser, DESKTOP);
    const managerCsp = await watchCspViolations(manager.page);
    await openTravel(manager.page, travel.code);
    expect(await panel(manager.page).getByTestId('tracking-state').innerText()).toMatch(/ativo/i);
    expect(await panel(manager.page).innerText()).toContain('Posição e leituras');
    expect(await panel(manager.page).getByTestId('tracking-lookups').innerText()).toContain('nenhuma consulta ainda');
    expect(await panel(manager.page).getByTestId('tracking-url').innerText()).toBe(`${e2e('baseURL')}/localizator?cod=${travel.code}`);
    await screenshot(manager.page, 'tracking-link-panel-desktop');

    // A visitor (no session) with the link: position and readings.
    const visitor = await newPage(browser, DESKTOP);
    const visitorCsp = await watchCspViolations(visitor.page);
    await visitor.page.goto(`/localizator?cod=${travel.code}`);
    await visitor.page.getByTestId('travel-summary').waitFor();
    await visitor.page.getByRole('tab', { name: 'Dispositivos' }).click();
    await visitor.page.locator(`[data-testid="device-card"][data-mac="${FREEZER}"]`).waitFor();
    expect(await visitor.page.getByTestId('card-temperature').innerText()).toContain('°C');

    // The manager sees the lookup counted.
    await panel(manager.page).getByRole('button', { name: 'Atualizar consultas' }).click();
    await expect.poll(() => panel(manager.page).getByTestId('tracking-lookups').innerText(), POLL).toMatch(/^Consultas: 1 · última em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);

    // Position only: the public page shows the map and says so; no card, no temperature anywhere.
    await panel(manager.page).getByText('Somente a posição').click();
    await panel(manager.page).getByRole('button', { name: 'Salvar link' }).click();
    await manager.page.getByText('Link de rastreamento atualizado.').waitFor();
    expect(await panel(manager.page).innerText()).toContain('Mostra: Somente a posição');
    await visitor.page.reload();
    await visitor.page.getByTestId('localizator-link-note').waitFor();
    expect(await visitor.page.getByTestId('localizator-link-note').innerText()).toContain('Este link mostra somente a posição da carga.');
    expect(await visitor.page.getByRole('tab', { name: 'Dispositivos' }).count()).toBe(0);
    expect(await visitor.page.locator('body').innerText()).not.toContain('°C');
    await settle(visitor.page);
    await screenshot(visitor.page, 'tracking-localizator-position-only-desktop');
    const phone = await newPage(browser, PHONE);
    await phone.page.goto(`/localizator?cod=${travel.code}`);
    await phone.page.getByTestId('localizator-link-note').waitFor();
    expect(await phone.page.locator('body').innerText()).not.toContain('°C');
    await settle(phone.page);
    await screenshot(phone.page, 'tracking-localizator-position-only-phone');

    // Revoked: the old link stops at once, and the page says so.
    await panel(manager.page).getByRole('button', { name: 'Revogar link' }).click();
    await manager.page.getByRole('dialog', { name: 'Revogar link' }).getByRole('button', { name: 'Revogar' }).click();
    await expect.poll(() => panel(manager.page).getByTestId('tracking-state').innerText(), POLL).toMatch(/revogado/i);
    await visitor.page.reload();
    const gone = visitor.page.getByTestId('localizator-gone');
    await gone.waitFor();
    expect(await gone.innerText()).toContain('Link indisponível');
    expect(await gone.innerText()).toContain('Este link de rastreamento foi revogado.');
    await screenshot(visitor.page, 'tracking-localizator-revoked-desktop');

    // A new code: works; the old one still says revoked.
    await panel(manager.page).getByRole('button', { name: 'Gerar novo código' }).click();
    await manager.page.getByRole('dialog', { name: 'Gerar novo código' }).getByRole('button', { name: 'Gerar novo código' }).click();
    await expect.poll(() => panel(manager.page).getByTestId('tracking-state').innerText(), POLL).toMatch(/ativo/i);
    const url = await panel(manager.page).getByTestId('tracking-url').innerText();
    expect(url).not.toContain(travel.code);
    await settle(manager.page);
    await screenshot(manager.page, 'tracking-link-panel-renewed-desktop');
    await visitor.page.goto(url);
    await visitor.page.getByTestId('travel-summary').waitFor();
    expect(await visitor.page.getByTestId('localizator-gone').count()).toBe(0);

    expect(managerCsp).toEqual([]);
    expect(visitorCsp).toEqual([]);
    await Promise.all([manager.context.close(), visitor.context.close(), phone.context.close()]);
  }, 240_000);

  it('says in Portuguese that an expired link expired, on a phone too; a wrong code is "not found"', async () => {
    const travel = await newTravel('Porto de Santos - Armazém 2 - Santos - SP');
    // A link whose date passed (the API refuses setting one in the past; time is what makes links expire).
    const db = new pg.Client({ connectionString: e2e('databaseUrl') });
    await db.connect();
    try {
      await db.query(`UPDATE travels SET code_expires_at = now() - interval '1 hour' WHERE id = $1`, [travel._id]);
    } finally {
      await db.end();
    }
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { context, page } = await newPage(browser, viewport);
      const csp = await watchCspViolations(page);
      await page.goto(`/localizator?cod=${travel.code}`);
      const gone = page.getByTestId('localizator-gone');
      await gone.waitFor();
      expect(await gone.innerText()).toContain('Este link de rastreamento expirou. Peça um novo código a quem enviou a carga.');
      expect(await page.getByTestId('travel-summary').count()).toBe(0);
      await settle(page);
      await screenshot(page, `tracking-localizator-expired-${name}`);
      expect(csp).toEqual([]);
      await context.close();
    }

    const { context, page } = await newPage(browser, DESKTOP);
    await page.goto('/localizator?cod=ZZZZZZZZZZ');
    await page.getByTestId('localizator-error').waitFor();
    expect(await page.getByTestId('localizator-gone').count()).toBe(0);
    await context.close();

    // The manager's panel on a phone, with the expired state.
    const phone = await newPage(browser, PHONE);
    await login(phone.page, 'aurora.adm');
    await phone.page.waitForURL('**/my-devices');
    await phone.page.goto('/directions');
    await phone.page.getByLabel('Pesquisar viagens').fill(travel.code);
    const row = listEntry(phone.page, 'travel-card').filter({ has: phone.page.getByRole('button', { name: 'Dispositivos' }) });
    await expect.poll(() => row.count(), POLL).toBe(1);
    await row.getByRole('button', { name: 'Dispositivos' }).click();
    await panel(phone.page).waitFor();
    expect(await panel(phone.page).getByTestId('tracking-state').innerText()).toMatch(/expirado/i);
    await panel(phone.page).scrollIntoViewIfNeeded();
    await settle(phone.page);
    await screenshot(phone.page, 'tracking-link-panel-expired-phone');
    await phone.context.close();
  }, 180_000);

  it('a pharmacy following its carrier by code opens Gráficos, Histórico and the PDF of a card (ADR 72)', async () => {
    const travel = await newTravel('Farmácia Vida - Centro de Distribuição - Santos - SP');
    await api('POST', `/api/travels/${travel._id}/status`, { status: 1 });
    try {
      // The freezer reports during the travel (after its start: a gateway's clock may run a little ahead), through the
      // demo gateway.
      const now = Date.now();
      const readings = Array.from({ length: 6 }, (_, k) => ({ mac: FREEZER, ts: new Date(now + (k + 1) * 10_000).toISOString(), temperature: -18 + k / 4, humidity: 60 }));
      const ingest = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'ApiKey demo-gateway-key' },
        body: JSON.stringify({ readings }),
      });
      expect(ingest.status).toBe(200);

      for (const [viewport, name] of [
        [DESKTOP, 'desktop'],
        [PHONE, 'phone'],
      ] as const) {
        const { context, page } = await newPage(browser, viewport);
        const csp = await watchCspViolations(page);
        await login(page, 'vida.adm');
        await page.waitForURL('**/my-devices');
        await page.goto(`/localizator?cod=${travel.code}`);
        await page.getByTestId('travel-summary').first().waitFor();
        await page.getByRole('tab', { name: 'Dispositivos' }).click();
        const card = page.getByTestId('device-card').filter({ hasText: FREEZER });
        await card.waitFor();
        await card.getByRole('button', { name: /^Ações de / }).click();
        const items = await page.getByRole('menuitem').allInnerTexts();
        expect(items.map((t) => t.trim())).toEqual(['Gráficos', 'Histórico', 'PDF', 'EXCEL']);
        await settle(page);
        await screenshot(page, `tracking-pharmacy-menu-${name}`);

        await page.getByRole('menuitem', { name: 'Gráficos' }).click();
        const dialog = page.getByRole('dialog', { name: /^Gráficos — / });
        await dialog.waitFor();
        await expect.poll(() => dialog.locator('canvas').count(), POLL).toBeGreaterThan(0);
        expect(await dialog.getByText(TRAVEL_ERROR).count()).toBe(0);
        await settle(page);
        await screenshot(page, `tracking-pharmacy-charts-${name}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });

        await card.getByRole('button', { name: /^Ações de / }).click();
        await page.getByRole('menuitem', { name: 'Histórico' }).click();
        const history = page.getByTestId('history-panel');
        await history.waitFor();
        await expect.poll(() => history.getByRole('row').count(), POLL).toBeGreaterThan(1);
        await settle(page);
        await screenshot(page, `tracking-pharmacy-history-${name}`);

        if (name === 'desktop') {
          await page.getByRole('tab', { name: 'Dispositivos' }).click();
          await card.getByRole('button', { name: /^Ações de / }).click();
          const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('menuitem', { name: 'PDF' }).click()]);
          expect(download.suggestedFilename()).toMatch(/^Freezer-Expedicao_Viagem-[A-Z0-9]+_.*\.pdf$/);
        }
        expect(csp).toEqual([]);
        await context.close();
      }
    } finally {
      await api('POST', `/api/travels/${travel._id}/status`, { status: 2 });
    }
  }, 240_000);
});
