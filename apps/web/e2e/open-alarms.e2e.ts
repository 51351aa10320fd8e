import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, 0 to 8 °C, linked to João
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0 to 8 °C, linked to João
const PHONE = { width: 390, height: 844 };

/** A reading as a gateway sends it (D5). */
async function ingest(mac: string, temperature: number) {
  const res = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
    method: 'POST',
    headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
    body: JSON.stringify({ readings: [{ mac, ts: new Date().toISOString(), temperature, humidity: 50 }] }),
  });
  expect(res.status).toBe(200);
}

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Alarmes ativos/ });

/** The badge's count (its accessible name says it), or null while the socket has not answered yet. */
async function badgeCount(page: Page): Promise<number | null> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  if (label === 'Alarmes ativos: nenhum') return 0;
  const match = /^Alarmes ativos: (\d+)$/.exec(label);
  return match ? Number(match[1]) : null;
}

async function knownBadgeCount(page: Page): Promise<number> {
  await expect.poll(() => badgeCount(page), { timeout: 15_000 }).not.toBeNull();
  return (await badgeCount(page))!;
}

describe('open alarms without looking for them (issue 11, item 5)', () => {
  it('an out-of-range reading raises the badge and shows in the list and in the open Alarmes tab; acknowledging from the list updates both', async () => {
    // Inside its range first: an alarm another file on this server left open would keep the reading below from
    // opening a new one (the tab would then rightly show no new row).
    await ingest(TRUCK_2, 4);
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const csp = await watchCspViolations(page);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.getByRole('row').filter({ hasText: 'Baú Caminhão 02' }).getByRole('link', { name: 'Histórico' }).click();
    await page.waitForURL(`**/device-history/${encodeURIComponent(TRUCK_2)}/**`);
    await page.getByRole('tab', { name: 'Alarmes' }).click();
    await page.getByRole('columnheader', { name: 'Reconhecido?' }).waitFor();
    await page.getByText('Nada encontrado.', { exact: true }).or(page.getByRole('button', { name: 'Detalhes do alarme' })).first().waitFor();
    // Everything below happens without reloading the page: this mark would be gone.
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    const before = await knownBadgeCount(page);
    const details = page.getByRole('button', { name: 'Detalhes do alarme' });
    const rowsBefore = await details.count();

    await ingest(TRUCK_2, 10.5);
    await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(before + 1);
    await expect.poll(() => details.count(), { timeout: 15_000 }).toBe(rowsBefore + 1);
    // The newest alarm is the first row: active, not acknowledged.
    const newest = page.locator('tbody tr').first();
    expect(await newest.locator('td').nth(1).innerText()).toBe('Temperatura alta');
    expect(await newest.locator('td').nth(3).innerText()).toContain('10,50 °C');
    expect((await newest.locator('td').allInnerTexts()).slice(5, 7)).toEqual(['Não', 'Sim']);
    await screenshot(page, 'open-alarms-badge-desktop');

    await bell(page).click();
    const item = page.getByRole('listitem', { name: 'Baú Caminhão 02: Temperatura alta' });
    await item.waitFor();
    await item.getByText(/^Desde \d\d\/\d\d\/\d{4} \d\d:\d\d$/).waitFor();
    expect(await item.getByRole('link', { name: 'Ver histórico' }).getAttribute('href')).toMatch(new RegExp(`^/device-history/${encodeURIComponent(TRUCK_2)}/`));
    await page.waitForTimeout(300); // the dropdown's opening transition, for the picture
    await screenshot(page, 'open-alarms-list-desktop');

    await item.getByRole('button', { name: 'Reconhecer' }).click();
    await item.getByLabel('Mensagem de reconhecimento').fill('Baú aberto na doca 3, fechado.');
    await item.getByRole('button', { name: 'Reconhecer' }).click();
    await page.getByText('Alarme reconhecido.').waitFor();
    await item.getByText(/^Reconhecido por Aurora Administração em/).waitFor();
    // The Alarmes tab behind the list says so too, without reload.
    await expect.poll(() => newest.locator('td').nth(5).innerText(), { timeout: 15_000 }).toBe('Sim');
    await screenshot(page, 'open-alarms-acknowledged-desktop');

    // Back inside the range: the alarm ends, the badge counts down and the tab says it is no longer active.
    await ingest(TRUCK_2, 4);
    await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(before);
    await expect.poll(() => newest.locator('td').nth(6).innerText(), { timeout: 15_000 }).toBe('Não');
    await item.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    expect(csp).toEqual([]);
    await context.close();
  });

  it('on a phone: the badge in the top bar, the empty list, then an alarm arriving while the list is open', async () => {
    // João's devices back inside their range: he has no open alarm.
    await ingest(TRUCK_1, 4);
    await ingest(TRUCK_2, 4);
    const desktop = await newPage(browser, { width: 1280, height: 800 });
    await login(desktop.page, 'joao.silva');
    await desktop.page.waitForURL('**/my-devices');
    await expect.poll(() => badgeCount(desktop.page), { timeout: 15_000 }).toBe(0);
    await bell(desktop.page).click();
    await desktop.page.getByText('Nenhum alarme ativo.').waitFor();
    await desktop.page.waitForTimeout(300);
    await screenshot(desktop.page, 'open-alarms-list-desktop-empty');
    await desktop.context.close();

    const { context, page } = await newPage(browser, PHONE);
    const csp = await watchCspViolations(page);
    await login(page, 'joao.silva');
    await page.waitForURL('**/my-devices');
    await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'open-alarms-badge-phone-empty');
    await bell(page).click();
    await page.getByText('Nenhum alarme ativo.').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'open-alarms-list-phone-empty');

    await ingest(TRUCK_2, 11);
    await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(1);
    const item = page.getByRole('listitem', { name: 'Baú Caminhão 02: Temperatura alta' });
    await item.waitFor();
    await screenshot(page, 'open-alarms-list-phone');

    await ingest(TRUCK_2, 4);
    await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(0);
    await page.getByText('Nenhum alarme ativo.').waitFor();

    // The list cannot be loaded (the server fails): it says so, in Portuguese.
    await page.route('**/api/alarms/open', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, code: 'UNAVAILABLE', error: 'Serviço indisponível. Tente novamente em instantes.' }) }),
    );
    await bell(page).click();
    await page.getByText('Nenhum alarme ativo.').waitFor({ state: 'detached' });
    await bell(page).click();
    await page.getByRole('alert').filter({ hasText: 'Serviço indisponível. Tente novamente em instantes.' }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'open-alarms-list-phone-error');
    expect(csp).toEqual([]);
    await context.close();
  });
});
