import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, deviceEntry } from './browser';
import { e2e } from './environment';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const DEVICE = 'Câmara Fria Matriz';
const MAC = 'C3:00:00:00:01:03';

async function openHistory(page: Page, device = DEVICE, mac = MAC) {
  await login(page, 'aurora.adm');
  await page.waitForURL('**/my-devices');
  const row = deviceEntry(page, device);
  await row.getByRole('link', { name: 'Histórico' }).click();
  await page.waitForURL(`**/device-history/${encodeURIComponent(mac)}/**`);
}

const totalText = (page: Page) => page.getByTestId('readings-total').innerText();
const bodyRows = (page: Page) => page.locator('tbody tr');

describe('device history (D3)', () => {
  it('filters the readings, keeps the filter in the URL, and draws the charts', async () => {
    const { context, page } = await newPage(browser);
    await openHistory(page);

    const header = page.getByTestId('device-header');
    await expect.poll(() => header.innerText()).toContain(DEVICE);
    expect(await header.innerText()).toContain('SNT-H2');
    expect(await header.innerText()).toContain(MAC);

    // Dados: the last two days, 50 per page, local and UTC clocks.
    await page.getByTestId('readings-total').waitFor();
    const before = await totalText(page);
    expect(before).toMatch(/^57\d registros de/);
    expect(await bodyRows(page).count()).toBe(50);
    const firstCells = await bodyRows(page).first().locator('td').allInnerTexts();
    expect(firstCells[0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    // São Paulo is UTC-3: the UTC column is three hours ahead.
    const local = Date.parse(firstCells[0]!.replace(/(\d{2})\/(\d{2})\/(\d{4}) (.*)/, '$3-$2-$1T$4Z'));
    const utc = Date.parse(firstCells[1]!.replace(/(\d{2})\/(\d{2})\/(\d{4}) (.*)/, '$3-$2-$1T$4Z'));
    expect(utc - local).toBe(3 * 3600_000);
    expect(firstCells[2]).toMatch(/^-?\d+,\d{2} °C$/);
    expect(firstCells[3]).toMatch(/^\d+,\d{2} %$/);
    await screenshot(page, 'device-history-dados');

    // A temperature filter narrows the rows and lands in the URL.
    await page.getByLabel('Temperatura mínima (°C)').fill('-19');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => totalText(page)).not.toBe(before);
    const url = new URL(page.url());
    expect(url.searchParams.get('minTemp')).toBe('-19');
    expect(url.searchParams.get('isUtc')).toBe('false');
    expect(url.searchParams.get('dateInitUtc')).toMatch(/Z$/);
    const temperatures = await bodyRows(page).locator('td:nth-child(3)').allInnerTexts();
    expect(temperatures.every((t) => Number(t.replace(' °C', '').replace(',', '.')) >= -19)).toBe(true);

    // Reloading restores the filter (the URL holds it) and the header (from the device, without navigation state).
    await page.reload();
    await page.getByTestId('readings-total').waitFor();
    expect(await page.getByLabel('Temperatura mínima (°C)').inputValue()).toBe('-19');
    expect(await totalText(page)).not.toBe(before);
    await expect.poll(() => header.innerText()).toContain(DEVICE);

    // Gráfico: the chart canvas with max, min and mean.
    await page.getByRole('tab', { name: 'Gráfico' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('grafico');
    const chart = page.getByTestId('history-chart');
    await chart.locator('canvas').waitFor();
    const stats = await page.getByTestId('chart-stats').innerText();
    expect(stats).toMatch(/Máxima\s+-?\d+,\d{2} °C/);
    expect(stats).toMatch(/Mínima\s+-?\d+,\d{2} °C/);
    expect(stats).toMatch(/Média\s+-?\d+,\d{2} °C/);
    expect(stats).toContain('Limites: -22,00 a -16,00 °C');
    expect(await chart.innerText()).toContain('Horário');
    const box = await chart.locator('canvas').boundingBox();
    expect(box?.width).toBeGreaterThan(600);
    await screenshot(page, 'device-history-grafico');

    await page.getByRole('tab', { name: 'Umidade' }).click();
    await page.getByTestId('history-chart').locator('canvas').waitFor();
    expect(await page.getByTestId('chart-stats').innerText()).not.toContain('Média');

    // Eventos and Alarmes have no filters.
    await page.getByRole('tab', { name: 'Eventos' }).click();
    await page.getByRole('columnheader', { name: 'Versão da API' }).waitFor();
    expect(await page.getByRole('button', { name: 'Filtrar' }).count()).toBe(0);
    await screenshot(page, 'device-history-eventos');

    await page.getByRole('tab', { name: 'Alarmes' }).click();
    await page.getByRole('columnheader', { name: 'Reconhecido?' }).waitFor();
    await page.getByText('Nada encontrado.', { exact: true }).or(page.getByRole('button', { name: 'Detalhes do alarme' })).first().waitFor();
    await screenshot(page, 'device-history-alarmes');
    await context.close();
  });

  it('shows an alarm raised by an out-of-range reading and acknowledges it', async () => {
    // The reading comes in as a gateway sends it (D5); the freezer's limits are -25 to -15 °C.
    const ingest = await fetch(`${e2e('baseURL')}/api/ingest/readings`, {
      method: 'POST',
      headers: { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ mac: 'C3:00:00:00:01:04', ts: new Date().toISOString(), temperature: -5.5, humidity: 50 }] }),
    });
    expect(ingest.status).toBe(200);

    const { context, page } = await newPage(browser);
    await openHistory(page, 'Freezer Expedição', 'C3:00:00:00:01:04');
    // No serial number: "--".
    await expect.poll(() => page.getByTestId('device-header').innerText()).toContain('Número de série: --');
    await page.getByRole('tab', { name: 'Alarmes' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Temperatura alta' });
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[3]).toContain('-5,50 °C');
    expect(cells.slice(5, 7)).toEqual(['Não', 'Sim']);

    await row.getByRole('button', { name: 'Detalhes do alarme' }).click();
    const dialog = page.getByRole('dialog', { name: 'Detalhes do alarme' });
    await dialog.getByText('Mensagem de reconhecimento').waitFor();
    await dialog.getByLabel(/Reconhecer alarme/).fill('Porta do freezer fechada pelo operador.');
    // Let the modal's opening transition finish before the picture.
    await page.waitForTimeout(400);
    await screenshot(page, 'device-history-alarme-detalhes');
    await dialog.getByRole('button', { name: 'Reconhecer' }).click();
    await page.getByText('Alarme reconhecido com sucesso!').waitFor();
    await dialog.getByText('Porta do freezer fechada pelo operador.').waitFor();
    expect(await dialog.getByText(/Reconhecido por Aurora Administração em/).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await expect.poll(() => row.locator('td').nth(5).innerText()).toBe('Sim');
    await context.close();
  });

  it('saves the device configuration and lists the change in Eventos', async () => {
    const { context, page } = await newPage(browser);
    await openHistory(page);
    await page.getByRole('button', { name: 'Configurações' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configurações do dispositivo' });
    expect(await dialog.getByLabel('Temperatura mínima (°C)').inputValue()).toBe('-22');
    await dialog.getByLabel(/Fora da faixa por/).fill('15');
    await screenshot(page, 'device-history-configuracoes');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Dispositivo foi atualizado com sucesso').waitFor();
    await page.getByRole('tab', { name: 'Eventos' }).click();
    await page.getByRole('cell', { name: /alarme após 15 min fora da faixa/ }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'alarme após 15 min fora da faixa' });
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(3, 7)).toEqual(['Aurora Administração', 'WEB', '1.1.0', 'LINUX']);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await openHistory(page);
    await page.getByTestId('readings-total').waitFor();
    // All four Dados columns are in view without scrolling sideways.
    const humidity = await page.getByRole('columnheader', { name: 'Umidade' }).boundingBox();
    expect((humidity?.x ?? 0) + (humidity?.width ?? 0)).toBeLessThanOrEqual(390);
    await screenshot(page, 'device-history-dados-390');
    await page.getByRole('tab', { name: 'Gráfico' }).click();
    const canvas = page.getByTestId('history-chart').locator('canvas');
    await canvas.waitFor();
    const box = await canvas.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(390);
    expect(box?.width).toBeGreaterThan(250);
    // Nothing sticks out sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'device-history-grafico-390');
    await page.getByRole('tab', { name: 'Alarmes' }).click();
    // Cards on a phone, not the table scrolled sideways (its "Detalhes do alarme" was off screen).
    await page.getByText('Nada encontrado.', { exact: true }).or(page.getByTestId('alarm-card')).first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'Reconhecido?' }).count()).toBe(0);
    await screenshot(page, 'device-history-alarmes-390');
    await context.close();
  });
});
