import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectActionsInView, launchBrowser, login, newPage, screenshot, watchCspViolations, listEntry } from './browser';
import { e2e } from './environment';

/**
 * Locais (A8): an enterprise admin creates a location with a group, places a device in it, sees it on the map, and
 * the marker changes colour when an out-of-range reading arrives through HTTP ingestion, without a reload.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The demo gateway (DEMO=1) posts one reading of a device, as a real gateway would. */
async function ingest(mac: string, temperature: number) {
  const res = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'ApiKey demo-gateway-key' },
    body: JSON.stringify({ readings: [{ mac, ts: new Date().toISOString(), temperature }] }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const marker = (page: Page, state: string) => page.locator(`[data-marker="location"][data-state="${state}"]`);

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('Locais', () => {
  it('an enterprise admin places a device at a new location and watches it live on the map', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 900 });
    const violations = await watchCspViolations(page);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.getByTestId('side-menu').getByRole('link', { name: 'Locais' }).click();
    await page.waitForURL('**/locations');
    await page.getByText('Nenhum registro de locais encontrado.').waitFor();
    await expect.poll(() => page.title()).toContain('Locais');
    await page.locator('[data-testid="live-status"][data-status="live"]').waitFor();
    await page.getByPlaceholder('Pesquisar Locais').waitFor();
    await screenshot(page, 'locations-empty-desktop');

    // A new location: without a geocoder the search is explained, and the position is picked on the map.
    await page.getByRole('button', { name: 'Cadastrar Local' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome').fill('Farmácia Central');
    await dialog.getByLabel('Endereço').fill('SCS Quadra 2 - Brasília - DF');
    await dialog.getByTestId('geocoder-off').waitFor();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Marque a posição no mapa.').first().waitFor();
    await dialog.getByRole('region', { name: 'Mapa para marcar a posição do local' }).click();
    await dialog.locator('[data-marker="location"]').waitFor();
    expect(await dialog.getByLabel('Latitude').inputValue()).toMatch(/^-1\d,\d+/);
    await screenshot(page, 'locations-form');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Local cadastrado com sucesso!').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Farmácia Central' });
    await row.waitFor();
    expect(await row.locator('td').allInnerTexts()).toEqual(['Farmácia Central', 'SCS Quadra 2 - Brasília - DF', '0', expect.any(String)]);
    await marker(page, 'none').waitFor();

    // A group, and a device placed in it.
    await row.getByRole('button', { name: 'Dispositivos' }).click();
    const devices = page.getByRole('dialog');
    await devices.getByLabel('Novo grupo').fill('Geladeira 1');
    await devices.getByRole('button', { name: 'Adicionar grupo' }).click();
    await devices.getByTestId('device-group').filter({ hasText: 'Geladeira 1' }).waitFor();
    await chooseOption(page, 'Adicionar dispositivo', 'Câmara Fria Matriz (C3:00:00:00:01:03)');
    await chooseOption(page, 'Grupo', 'Geladeira 1');
    await devices.getByRole('button', { name: 'Adicionar ao local' }).click();
    await devices.getByTestId('location-devices-table').getByText('Câmara Fria Matriz').waitFor();
    expect(await devices.getByLabel('Grupo de Câmara Fria Matriz').inputValue()).toBe('Geladeira 1');
    await devices.getByTestId('device-group').filter({ hasText: '1 dispositivo' }).waitFor();
    await screenshot(page, 'locations-devices-modal');
    await page.keyboard.press('Escape');
    await devices.waitFor({ state: 'detached' });
    await row.locator('td').nth(2).filter({ hasText: '1' }).waitFor();

    // Live: a reading within the limits (-22 to -16 °C) turns the pin teal, one above them red, without a reload.
    await ingest('C3:00:00:00:01:03', -19);
    await marker(page, 'normal').waitFor();
    await ingest('C3:00:00:00:01:03', -5);
    await marker(page, 'hot').waitFor();
    await page.locator('[data-marker="location"][data-state="hot"]').click();
    await page.getByTestId('location-device').filter({ hasText: 'Câmara Fria Matriz' }).waitFor();
    expect(await page.getByTestId('location-device').getAttribute('data-state')).toBe('hot');
    // The popup's close button is named in pt-BR (Leaflet writes "Close popup").
    expect(await page.locator('.leaflet-popup-close-button').getAttribute('aria-label')).toBe('Fechar');
    await screenshot(page, 'locations-live-hot');

    // Local centres the map on the row at zoom 18.
    await page.keyboard.press('Escape');
    const zoom18Tile = page.waitForRequest((request) => /\/18\/\d+\/\d+\.png$/.test(request.url()));
    await row.getByRole('button', { name: 'Local' }).click();
    await zoom18Tile;

    // Editar: the name changes; Remover asks first, and the device stays, unplaced.
    await row.getByRole('button', { name: 'Editar' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Nome').fill('Farmácia Central 2');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Local editado com sucesso!').waitFor();
    const renamed = page.getByRole('row').filter({ hasText: 'Farmácia Central 2' });
    await renamed.waitFor();
    await renamed.getByRole('button', { name: 'Remover' }).click();
    await page.getByRole('dialog').getByText('os dispositivos ficarão sem local').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Remover' }).click();
    await page.getByText('Local removido com sucesso!').waitFor();
    await page.getByText('Nenhum registro de locais encontrado.').waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });

  it('fits a phone, and says so when locations cannot be loaded', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    const violations = await watchCspViolations(page);
    await login(page, 'vida.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/locations');
    await page.getByText('Nenhum registro de locais encontrado.').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, 'locations-empty-phone');
    await page.getByRole('button', { name: 'Cadastrar Local' }).click();
    await page.getByRole('dialog').getByTestId('geocoder-off').waitFor();
    await page.getByRole('dialog').getByRole('region', { name: 'Mapa para marcar a posição do local' }).waitFor();
    await screenshot(page, 'locations-form-phone');
    // Saved from the phone, the location is a card (ADR 0090): no table, its actions in view and working.
    const form = page.getByRole('dialog');
    await form.getByLabel('Nome').fill('Posto Asa Norte');
    await form.getByRole('region', { name: 'Mapa para marcar a posição do local' }).click();
    await form.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Local cadastrado com sucesso!').waitFor();
    await form.waitFor({ state: 'detached' });
    const card = listEntry(page, 'location-card').filter({ hasText: 'Posto Asa Norte' });
    await card.waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await card.innerText()).toContain('Dispositivos: 0');
    await expectActionsInView(card, 390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'locations-cards-phone');
    await card.getByRole('button', { name: 'Dispositivos' }).click();
    await page.getByRole('dialog').getByLabel('Novo grupo').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.route('**/api/locations', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"INTERNAL","error":"x"}' }));
    await page.reload();
    await page.getByRole('alert').getByText('Não foi possível encontrar locais.').waitFor();
    expect(await page.getByText('Nenhum registro de locais encontrado.').count()).toBe(0);
    await screenshot(page, 'locations-error-phone');
    expect(violations).toEqual([]);
    await context.close();
  });
});
