import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import PDFDocument from 'pdfkit';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { CLIENT_VERSION } from '@sentinela/contract';
import { DEMO_PASSWORD, expectActionsInView, launchBrowser, login, newPage, screenshot, watchCspViolations, listEntry } from './browser';
import { e2e } from './environment';

/** Issue 5: exports, /reports, the Excel generator and the public report validator, on the real server in Chromium. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const DEVICE = 'Câmara Fria Matriz';
const MAC = 'C3:00:00:00:01:03';
const PHONE = { width: 390, height: 844 };

/** What the first test downloads, for the ones after it (the files run in order). */
const files: { pdf?: { name: string; bytes: Buffer }; xlsx?: { name: string; bytes: Buffer } } = {};

async function openHistory(page: Page) {
  await login(page, 'aurora.adm');
  await page.waitForURL('**/my-devices');
  await page.getByRole('row').filter({ hasText: DEVICE }).getByRole('link', { name: 'Histórico' }).click();
  await page.waitForURL(`**/device-history/${encodeURIComponent(MAC)}/**`);
  await page.getByTestId('readings-total').waitFor();
}

/** Clicks and waits for the file the click saves (the export waits for the job queue first). */
async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 45_000 }), click()]);
  const path = await download.path();
  return { download, bytes: await readFile(path) };
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A PDF made elsewhere: valid PDF, never signed by the product. */
function foreignPdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const document = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.fontSize(14).text('Relatório de temperatura e umidade — Câmara Fria Matriz');
    document.end();
  });
}

/** The template's columns, one good row and one whose device does not exist. */
async function excelWithOneBadRow(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Relatórios');
  sheet.addRow(['MAC', 'Data/Hora Início', 'Data/Hora Fim', 'Tipo (PDF ou EXCEL)']);
  const day = (offset: number) => {
    const date = new Date(Date.now() - offset * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} 08:00`;
  };
  sheet.addRow([MAC, day(2), day(1), 'PDF']);
  sheet.addRow(['C3:00:00:00:09:99', day(2), day(1), 'EXCEL']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('reports (R1, R3–R6)', () => {
  it('exports the filtered readings as PDF and Excel from the device history', async () => {
    const { context, page } = await newPage(browser);
    await openHistory(page);
    const buttons = page.getByTestId('export-buttons');
    await buttons.getByText('Exportar leituras filtradas:').waitFor();
    await screenshot(page, 'reports-device-history-export');

    const pdf = await downloadOf(page, () => buttons.getByRole('button', { name: 'PDF' }).click());
    expect(pdf.download.suggestedFilename()).toMatch(/^Camara-Fria-Matriz_\d{4}-\d{2}-\d{2}_.+\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.getByText('Relatório foi baixado com sucesso').first().waitFor();
    files.pdf = { name: pdf.download.suggestedFilename(), bytes: pdf.bytes };

    // The Gráfico tab has the same buttons.
    await page.getByRole('tab', { name: 'Gráfico' }).click();
    const xlsx = await downloadOf(page, () => page.getByTestId('export-buttons').getByRole('button', { name: 'Excel' }).click());
    expect(xlsx.download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(xlsx.bytes.readUInt32LE(0)).toBe(0x04034b50);
    files.xlsx = { name: xlsx.download.suggestedFilename(), bytes: xlsx.bytes };
    await context.close();
  });

  it('lists the generated reports on /reports and zips the selected ones in one download', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.getByTestId('side-menu').getByRole('link', { name: 'Relatórios' }).click();
    await page.waitForURL('**/reports');
    await page.getByRole('heading', { name: 'Relatórios' }).waitFor();

    const rows = page.getByRole('row').filter({ hasText: DEVICE });
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    // Newest first: the Excel, then the PDF of the first test, both generated.
    // textContent: the badge shows its name in capitals (CSS), the text is the server's.
    const cells = async (index: number) => rows.nth(index).locator('td').allTextContents();
    const [excelRow, pdfRow] = [await cells(0), await cells(1)];
    expect(excelRow[2]).toBe(MAC);
    expect(excelRow[3]).toBe('Gerado');
    expect(excelRow[4]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} – \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(excelRow[5]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(excelRow[6]).toBe('XLSX');
    expect(pdfRow[3]).toBe('Gerado');
    expect(pdfRow[6]).toBe('PDF');
    await screenshot(page, 'reports-list');

    // Baixar selecionados appears with a selection.
    expect(await page.getByRole('button', { name: /Baixar selecionados/ }).count()).toBe(0);
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    const bulk = page.getByRole('button', { name: /Baixar selecionados/ });
    await bulk.waitFor();
    await screenshot(page, 'reports-list-selected');

    const zip = await downloadOf(page, () => bulk.click());
    expect(zip.download.suggestedFilename()).toBe('relatorios-temperatura-umidade.zip');
    const entries = unzipSync(new Uint8Array(zip.bytes));
    const names = Object.keys(entries).sort();
    expect(names).toHaveLength(2);
    // Named by device, period and type (issue 26), not by bare ids.
    expect(names.every((name) => /^Camara-Fria-Matriz_\d{4}-\d{2}-\d{2}_.+\.(pdf|xlsx)$/.test(name))).toBe(true);
    // Each entry is the very file that was downloaded on its own.
    const pdfEntry = names.find((name) => name.endsWith('.pdf'))!;
    const xlsxEntry = names.find((name) => name.endsWith('.xlsx'))!;
    expect(Buffer.from(entries[pdfEntry]!).equals(files.pdf!.bytes)).toBe(true);
    expect(Buffer.from(entries[xlsxEntry]!).equals(files.xlsx!.bytes)).toBe(true);
    await page.getByText('100%').waitFor();

    // One report downloads on its own from its row.
    const single = await downloadOf(page, () => rows.nth(1).getByRole('button', { name: 'Baixar relatório' }).click());
    expect(single.bytes.equals(files.pdf!.bytes)).toBe(true);
    await context.close();
  });

  it('generates reports from an Excel sheet, listing what was read and the bad rows', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/reports');
    const rows = page.getByRole('row').filter({ hasText: DEVICE });
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    const before = await rows.count();

    await page.getByRole('button', { name: 'Gerar relatórios' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar arquivo excel' });
    await dialog.getByText('Enviar modelo excel').waitFor();
    // The template downloads from the modal.
    const template = await downloadOf(page, () => dialog.getByRole('button', { name: 'Baixar modelo excel' }).click());
    expect(template.bytes.readUInt32LE(0)).toBe(0x04034b50);

    await dialog.locator('input[type=file]').setInputFiles({
      name: 'relatorios.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await excelWithOneBadRow(),
    });
    await dialog.getByText('1 registro(s) foram lido(s) e encaminhado(s) para processamento com sucesso!').waitFor();
    await dialog.getByText('1 erro(s) foram gerado(s) na leitura do arquivo!').waitFor();
    await dialog.getByText('Linha 3: MAC C3:00:00:00:09:99 não encontrado.').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'reports-excel-result');

    // Closing refreshes the list: the new report is there.
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await expect.poll(() => rows.count()).toBe(before + 1);
    await context.close();
  });

  it('validates a generated PDF; a changed, foreign or non-PDF file is invalid', async () => {
    expect(files.pdf).toBeDefined();
    const { context, page } = await newPage(browser);
    // Visitors reach it from the login page.
    await page.goto('/login');
    await page.getByRole('link', { name: 'Validar relatório' }).click();
    await page.waitForURL('**/report/validator');
    await page.getByText('Validar relatório').first().waitFor();
    await screenshot(page, 'report-validator');

    const result = page.getByTestId('validation-result');
    const input = page.locator('input[type=file]');
    const check = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      await input.setInputFiles(file);
      await result.waitFor();
      await expect.poll(() => page.getByTestId('upload-progress').count()).toBe(0);
      return result.innerText();
    };

    const valid = await check({ name: files.pdf!.name, mimeType: 'application/pdf', buffer: files.pdf!.bytes });
    expect(valid).toContain('Válido!');
    expect(valid).toContain('O arquivo é válido, não foi modificado e foi gerado pela plataforma.');
    expect(valid).toContain(MAC);
    await screenshot(page, 'report-validator-valid');

    const changed = Buffer.from(files.pdf!.bytes);
    const at = Math.floor(changed.length / 3);
    changed[at] = changed[at]! ^ 0x01;
    const modified = await check({ name: 'alterado.pdf', mimeType: 'application/pdf', buffer: changed });
    expect(modified).toContain('Inválido!');
    expect(modified).not.toContain('Válido!');
    await screenshot(page, 'report-validator-invalid');

    const foreign = await check({ name: 'outro.pdf', mimeType: 'application/pdf', buffer: await foreignPdf() });
    expect(foreign).toContain('Inválido!');

    await input.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('não é um PDF') });
    await expect.poll(() => result.innerText()).toContain('Envie um arquivo PDF.');
    expect(await result.innerText()).toContain('Inválido!');
    await context.close();
  });

  it('exports the whole travel and a travel device from /directions', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/directions');
    await page.getByLabel('Pesquisar viagens').fill('AUR7K2M9QX');
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Dispositivos' }) }).first();
    const travel = await downloadOf(page, () => row.getByRole('button', { name: 'Relatórios' }).click());
    expect(travel.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await row.getByRole('button', { name: 'Dispositivos' }).click();
    // The travel's summary comes in its own chunk above the cards and moves them down when it lands: a click on the
    // card's menu before then could hit where the button was (the menu never opened, seen once on a loaded machine).
    await page.getByTestId('travel-summary').waitFor();
    const card = page.locator('[data-testid="device-card"][data-mac="C3:00:00:00:01:01"]');
    await card.getByRole('button', { name: /Ações de/ }).click();
    await page.getByRole('menuitem', { name: 'EXCEL' }).waitFor();
    await screenshot(page, 'reports-travel-card-menu');
    const excel = await downloadOf(page, () => page.getByRole('menuitem', { name: 'EXCEL' }).click());
    expect(excel.bytes.readUInt32LE(0)).toBe(0x04034b50);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/reports');
    // Each report is a card (ADR 0090): no table scrolled sideways, its box and actions in view.
    const cards = listEntry(page, 'report-card').filter({ hasText: DEVICE });
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByRole('table').count()).toBe(0);
    await noSidewaysScroll(page);
    for (const card of await cards.all()) await expectActionsInView(card, PHONE.width);
    await screenshot(page, 'reports-list-390');

    // A card's Baixar relatório saves the file, as its row does on a desktop.
    const ready = cards.filter({ hasText: 'Tipo: PDF' }).getByRole('button', { name: 'Baixar relatório', disabled: false });
    const single = await downloadOf(page, () => ready.first().click());
    expect(single.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await page.getByRole('button', { name: 'Gerar relatórios' }).click();
    await page.getByRole('dialog', { name: 'Enviar arquivo excel' }).getByText('Enviar modelo excel').waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'reports-excel-390');
    await context.close();

    const visitor = await newPage(browser, PHONE);
    await visitor.page.goto('/report/validator');
    await visitor.page.getByText('Validar relatório').first().waitFor();
    await visitor.page.locator('input[type=file]').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await visitor.page.getByTestId('validation-result').waitFor();
    await noSidewaysScroll(visitor.page);
    await screenshot(visitor.page, 'report-validator-390');
    await visitor.context.close();
  });

  it('the documents\' flow: a window with no session opens /api/report/files/{_id} right after the export, waits, downloads (ADR 70)', async () => {
    const headers = { 'content-type': 'application/json', client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };
    const signIn = await fetch(`${e2e('baseURL')}/api/authenticate`, { method: 'POST', headers, body: JSON.stringify({ username: 'aurora.adm', password: DEMO_PASSWORD }) });
    const token = ((await signIn.json()) as { token: { token: string } }).token.token;
    const exported = await fetch(`${e2e('baseURL')}/api/beacon-device/history/mac/${encodeURIComponent(MAC)}/pdf`, { headers: { ...headers, authorization: `Bearer ${token}` } });
    const { _id: id } = (await exported.json()) as { _id: string };

    // A fresh browser: no session at all, as the documents' client opens the address in a new window.
    const { context, page } = await newPage(browser);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      // The navigation either shows the waiting page (still generating) or turns into the download at once.
      page.goto(`/api/report/files/${id}`).catch(() => null),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Camara-Fria-Matriz_.+\.pdf$/);
    expect((await readFile(await download.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();

    // The waiting page itself, on a report that stays queued (recorded without a job), on a desktop and a phone.
    const db = new pg.Client({ connectionString: e2e('databaseUrl') });
    await db.connect();
    try {
      const device = await db.query<{ id: string; enterprise_id: string }>('SELECT id, enterprise_id FROM devices WHERE mac = $1', [MAC]);
      const row = await db.query<{ id: string }>(
        `INSERT INTO reports (enterprise_id, user_id, device_id, travel_id, kind, type, filters, created_at, updated_at)
         VALUES ($1, NULL, $2, NULL, 'device-history', 'pdf', $3, now(), now()) RETURNING id`,
        [device.rows[0]!.enterprise_id, device.rows[0]!.id, JSON.stringify({ dateInit: new Date(Date.now() - 3_600_000).toISOString(), dateEnd: new Date().toISOString() })],
      );
      const queued = row.rows[0]!.id;
      for (const [viewport, name] of [
        [{ width: 1280, height: 800 }, 'desktop'],
        [PHONE, 'phone'],
      ] as const) {
        const visitor = await newPage(browser, viewport);
        const csp = await watchCspViolations(visitor.page);
        const response = await visitor.page.goto(`/api/report/files/${queued}`);
        expect(response?.status()).toBe(202);
        await visitor.page.getByText('O relatório está sendo gerado... O download começará automaticamente.').waitFor();
        await noSidewaysScroll(visitor.page);
        await screenshot(visitor.page, `report-file-waiting-${name}`);
        if (name === 'phone') {
          // It fails: the page polls its status and says why, in Portuguese.
          await db.query(`UPDATE reports SET status = 3, error = 'Não foi possível gerar o relatório: teste.' WHERE id = $1`, [queued]);
          await visitor.page.getByText('Não foi possível gerar o relatório: teste.').waitFor({ timeout: 30_000 });
          await visitor.page.getByText('Peça o relatório de novo no Sentinela, na tela em que o pediu.').waitFor();
          await screenshot(visitor.page, 'report-file-failed-phone');
        }
        expect(csp).toEqual([]);
        await visitor.context.close();
      }
    } finally {
      await db.end();
    }
  }, 180_000);
});
