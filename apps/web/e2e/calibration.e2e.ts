import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEntry, launchBrowser, login, newPage, screenshot } from './browser';

/** X12 (issue 24 point 1): an administrator adds a calibration certificate in Chromium and reads it on a report. */
let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = await mkdtemp(path.join(tmpdir(), 'calibration-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const DEVICE = 'Freezer Expedição';
const MAC = 'C3:00:00:00:01:04';
const PHONE = { width: 390, height: 844 };
const run = promisify(execFile);

/** A day `offset` days from today, as the date input takes it and as reports print it. */
function day(offset: number) {
  const date = new Date(Date.now() + offset * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { iso: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`, br: `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}` };
}

/** The laboratory's certificate: a real PDF. */
function certificatePdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const document = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.fontSize(14).text('Certificado de calibração RBC-7781/2026 — Freezer Expedição');
    document.end();
  });
}

async function openCalibration(page: Page) {
  await page.getByRole('row').filter({ hasText: DEVICE }).getByRole('link', { name: 'Histórico' }).click();
  await page.waitForURL(`**/device-history/${encodeURIComponent(MAC)}/**`);
  await page.getByRole('tab', { name: 'Calibração' }).click();
}

async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), click()]);
  return { download, bytes: await readFile(await download.path()) };
}

describe('calibration certificates (X12)', () => {
  const calibrated = day(-340);
  const due = day(20);

  it('X12 an admin adds a certificate on the device page, sees the due badge, and the device report prints it', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await openCalibration(page);
    await page.getByText('Nenhum certificado de calibração registrado.').waitFor();
    await screenshot(page, 'calibration-empty-desktop');

    // Nothing filled in: each field says what it needs, and nothing is sent.
    await page.getByRole('button', { name: 'Adicionar certificado' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar certificado de calibração' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe o laboratório.').waitFor();
    await dialog.getByText('Envie o certificado de calibração em PDF.').waitFor();

    // A text file named .pdf is refused by the server, by its content, in Portuguese.
    await dialog.getByLabel('Data da calibração').fill(calibrated.iso);
    await dialog.getByLabel('Válido até').fill(due.iso);
    await dialog.getByLabel('Laboratório').fill('Termolab Calibrações (RBC)');
    await dialog.getByLabel('Número do certificado').fill('RBC-7781/2026');
    await dialog.getByRole('button', { name: 'Adicionar ponto' }).click();
    await dialog.getByRole('textbox', { name: 'Referência' }).fill('-20');
    await dialog.getByRole('textbox', { name: 'Medido' }).fill('-19,8');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'certificado.pdf', mimeType: 'application/pdf', buffer: Buffer.from('não sou um PDF') });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('O certificado deve ser um arquivo PDF válido.').waitFor();
    await screenshot(page, 'calibration-add-refused-desktop');

    const pdf = await certificatePdf();
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'certificado-rbc-7781.pdf', mimeType: 'application/pdf', buffer: pdf });
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: 'RBC-7781/2026' });
    await row.getByText('Termolab Calibrações (RBC)').waitFor();
    await row.getByText('Em vigor').waitFor();
    await row.getByText(due.br).waitFor();
    await row.getByText('-20,00 → -19,80').waitFor();
    // Due within 30 days: the header says so.
    await page.getByTestId('device-header').getByText(`Calibração vence em ${due.br}`).waitFor();
    await screenshot(page, 'calibration-added-desktop');

    // The certificate downloads byte for byte.
    const certificate = await downloadOf(page, () => row.getByRole('button', { name: 'Baixar PDF' }).click());
    expect(certificate.download.suggestedFilename()).toBe('certificado-rbc-7781.pdf');
    expect(certificate.bytes.equals(pdf)).toBe(true);

    // The device report made now prints the certificate.
    await page.getByRole('tab', { name: 'Dados' }).click();
    const report = await downloadOf(page, () => page.getByTestId('export-buttons').getByRole('button', { name: 'PDF' }).click());
    const file = path.join(dir, 'report.pdf');
    await writeFile(file, report.bytes);
    const { stdout } = await run('pdftotext', ['-f', '1', '-l', '1', '-enc', 'UTF-8', '-layout', file, '-']);
    expect(stdout.replace(/\s+/g, ' ')).toContain(`Certificado RBC-7781/2026, Termolab Calibrações (RBC), válido até ${due.br}`);

    // Meus Dispositivos flags the device.
    await page.goto('/my-devices');
    await deviceEntry(page, DEVICE).getByText(`Calibração vence em ${due.br}`).waitFor();
    await screenshot(page, 'calibration-my-devices-desktop');
    await context.close();
  }, 180_000);

  it('X12 on a phone: the device card carries the badge and the certificates read in cards', async () => {
    const { context, page } = await newPage(browser, PHONE);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    const card = deviceEntry(page, DEVICE);
    await card.getByText(`Calibração vence em ${due.br}`).waitFor();
    await screenshot(page, 'calibration-my-devices-phone');
    await card.getByRole('link', { name: 'Histórico' }).click();
    await page.waitForURL(`**/device-history/${encodeURIComponent(MAC)}/**`);
    await page.getByRole('tab', { name: 'Calibração' }).click();
    await page.getByText('RBC-7781/2026').first().waitFor();
    await screenshot(page, 'calibration-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
    // A user who is not an administrator has no Calibração tab.
    const user = await newPage(browser, PHONE);
    await login(user.page, 'joao.silva');
    await user.page.waitForURL('**/my-devices');
    await deviceEntry(user.page, 'Baú Caminhão 01').getByRole('link', { name: 'Histórico' }).click();
    await user.page.getByRole('tab', { name: 'Dados' }).waitFor();
    expect(await user.page.getByRole('tab', { name: 'Calibração' }).count()).toBe(0);
    await user.context.close();
  }, 120_000);
});
