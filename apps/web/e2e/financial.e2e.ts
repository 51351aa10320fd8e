import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePixBrCode } from './br-code';
import { launchBrowser, login, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';

/**
 * Financeiro (A9, issue 13 items 3 and 5; ADR 30) on the real server in Chromium: an enterprise admin sees the issued
 * invoice in R$, opens "Pagar Fatura", and the code shown is read by an independent BR Code parser to the platform's
 * key, the invoice's amount and its txid; the PSP's webhook then pays it and the button goes away on its own.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const SHOTS = process.env.SHOTS_DIR;

/** Saves a screenshot for a person to look at (and into SHOTS_DIR when one asked for them). */
async function shot(page: Page, name: string) {
  await screenshot(page, `financial-${name}`);
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function openMenu(page: Page, label: string) {
  // Below 768 px the menu sits behind the top bar's burger (decided by the viewport: the shell may still be loading).
  if ((page.viewportSize()?.width ?? 1280) < 768) await page.getByRole('button', { name: 'Abrir menu' }).click();
  await page.getByTestId('side-menu').getByRole('link', { name: label, exact: true }).click();
}

/** R$ with dot thousands and decimal comma, from centavos (written here, not taken from the product). */
function reais(cents: number): string {
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${whole},${String(cents % 100).padStart(2, '0')}`;
}

interface PendingInvoice {
  id: string;
  number: number;
  txid: string;
  amount_cents: number;
}

/** What the database holds for the enterprise's pending invoice: what the screen and the code must agree with. */
async function pendingInvoiceOf(enterprise: string): Promise<PendingInvoice> {
  const db = new pg.Client({ connectionString: e2e('databaseUrl') });
  await db.connect();
  try {
    const { rows } = await db.query<PendingInvoice>(
      `SELECT i.id, i.number, i.txid, i.amount_cents FROM invoices i JOIN enterprises e ON e.id = i.enterprise_id
        WHERE e.name = $1 AND i.status = 'pending' ORDER BY i.period_start DESC LIMIT 1`,
      [enterprise],
    );
    expect(rows.length, `a pending invoice of ${enterprise} in the demo data`).toBe(1);
    return rows[0]!;
  } finally {
    await db.end();
  }
}

async function invoiceStatus(id: string): Promise<string> {
  const db = new pg.Client({ connectionString: e2e('databaseUrl') });
  await db.connect();
  try {
    return (await db.query<{ status: string }>('SELECT status FROM invoices WHERE id = $1', [id])).rows[0]!.status;
  } finally {
    await db.end();
  }
}

/** Rows whose status is "Paga" (not "Pagar Fatura", which contains it). */
const paidRows = (page: Page) => page.getByRole('row').filter({ has: page.getByText('Paga', { exact: true }) });
const rowOf = (page: Page, number: number) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(number), exact: true }) });

describe('Financeiro (enterprise admin)', () => {
  it('pays the pending invoice by PIX: the code reads back to the key, amount and txid; the webhook pays it and the button goes', async () => {
    const invoice = await pendingInvoiceOf('Vida Farma');
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const violations = await watchCspViolations(page);
    await login(page, 'vida.adm');
    await page.waitForURL('**/my-devices');
    await openMenu(page, 'Financeiro');
    await page.waitForURL('**/financial');
    await page.getByRole('heading', { name: 'Financeiro' }).waitFor();
    await page.getByRole('tab', { name: 'Faturas' }).waitFor();
    await expect.poll(() => page.title()).toContain('Financeiro');

    const row = rowOf(page, invoice.number);
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(reais(invoice.amount_cents));
    await row.getByText('Em aberto', { exact: true }).waitFor();
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4}/);
    expect(await paidRows(page).getByRole('button', { name: 'Pagar Fatura' }).count()).toBe(0);
    await page.getByTestId('bank-account').getByText('Banco do Brasil').waitFor();
    await shot(page, 'financial-desktop');

    await row.getByRole('button', { name: 'Pagar Fatura' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pagar Fatura' });
    await dialog.waitFor();
    const codeBox = dialog.getByLabel('PIX copia e cola');
    await codeBox.waitFor();
    expect(await dialog.getByTestId('pix-amount').innerText()).toBe(reais(invoice.amount_cents));
    const code = await codeBox.inputValue();
    const parsed = parsePixBrCode(code);
    expect(parsed).toMatchObject({
      payloadFormat: '01',
      gui: 'br.gov.bcb.pix',
      key: e2e('pixKey'),
      currency: '986',
      amount: (invoice.amount_cents / 100).toFixed(2),
      country: 'BR',
      // Name and city as the code carries them (upper case, accents dropped).
      name: 'SENTINELA TECNOLOGIA',
      city: 'SAO PAULO',
      txid: invoice.txid,
    });
    // The parser is not lenient: one character changed breaks the CRC.
    const changed = code.replace(/6304([0-9A-F]{4})$/, (_, crc: string) => `6304${crc === '0000' ? '0001' : '0000'}`);
    expect(() => parsePixBrCode(changed)).toThrow(/CRC/);
    // The QR image is drawn (a PNG data: URL the strict CSP allows).
    const qr = dialog.getByRole('img', { name: `QR Code PIX da fatura nº ${invoice.number}` });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
    await dialog.getByRole('button', { name: 'Copiar código' }).click();
    await dialog.getByRole('button', { name: 'Código copiado!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await shot(page, 'pay-invoice-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'pay-invoice-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The PSP tells of the payment, as the API Pix does, with the server's webhook token.
    const res = await fetch(`${e2e('baseURL')}/api/pix/webhook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e('pixWebhookToken')}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        pix: [{ endToEndId: `E${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32), txid: parsed.txid, valor: parsed.amount, horario: new Date().toISOString() }],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await invoiceStatus(invoice.id)).toBe('paid');

    // Without a reload: the open modal sees it paid, and the row loses its button.
    await dialog.getByTestId('pix-paid').waitFor();
    expect(await dialog.getByTestId('pix-paid').innerText()).toContain(`Fatura nº ${invoice.number}`);
    await shot(page, 'pay-invoice-paid');
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByRole('button', { name: 'Pagar Fatura' }).count()).toBe(0);
    await row.getByText('Paga', { exact: true }).waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });

  it("shows an invoice's detail and downloads its signed PDF, which the report validator recognises", async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const violations = await watchCspViolations(page);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await page.goto('/financial');
    const paidRow = paidRows(page).first();
    await paidRow.waitFor();
    await paidRow.getByRole('button', { name: /Detalhes/ }).click();
    const dialog = page.getByRole('dialog', { name: /Fatura nº \d+/ });
    await dialog.waitFor();
    const detail = dialog.getByTestId('invoice-detail');
    await detail.waitFor();
    const text = await detail.innerText();
    for (const label of ['Empresa', 'Aurora Alimentos', 'Período', 'Plano', 'Profissional (Mensal)', 'Vencimento', 'Pago em', 'Identificador do PIX']) expect(text).toContain(label);
    expect(await dialog.getByRole('button', { name: 'Pagar Fatura' }).count()).toBe(0);
    const number = Number(/Fatura nº (\d+)/.exec(await dialog.getByRole('heading').first().innerText())?.[1]);
    await shot(page, 'invoice-detail-desktop');

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Baixar PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`fatura-${number}.pdf`);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await dialog.getByRole('button', { name: 'Fechar' }).click();

    await page.goto('/report/validator');
    await page.locator('input[type=file]').setInputFiles({ name: `fatura-${number}.pdf`, mimeType: 'application/pdf', buffer: bytes });
    const result = page.getByTestId('validation-result');
    await result.waitFor();
    await expect.poll(() => result.innerText()).toContain('Válido!');
    expect(await page.getByTestId('validated-invoice').innerText()).toContain(`Fatura nº ${number}`);
    await shot(page, 'invoice-pdf-validated');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('works on a 390 px phone, says so when nothing matches, and when the list cannot be loaded', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    const violations = await watchCspViolations(page);
    await login(page, 'aurora.adm');
    await page.waitForURL('**/my-devices');
    await openMenu(page, 'Financeiro');
    await page.waitForURL('**/financial');
    await page.getByTestId('invoice-card').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'financial-phone');

    await page.getByRole('textbox', { name: 'Pesquisar Faturas' }).fill('nenhuma fatura assim');
    await page.getByText('Nenhum registro de faturas.').waitFor();
    await expect.poll(() => page.url()).toMatch(/search=/);
    await shot(page, 'financial-empty-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'financial-empty-desktop');

    await page.route('**/api/invoices?**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, code: 'UNAVAILABLE', error: 'Serviço indisponível no momento.' }) }),
    );
    await page.reload();
    await page.getByText('Serviço indisponível no momento.').waitFor();
    await page.getByRole('button', { name: 'Tentar novamente' }).waitFor();
    await shot(page, 'financial-error-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'financial-error-phone');
    expect(violations).toEqual([]);
    await context.close();
  });
});

describe('Financeiro (who sees it)', () => {
  it('an ordinary user has no Financeiro entry and gets "Acesso negado"', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    await login(page, 'joao.silva');
    await page.waitForURL('**/my-devices');
    expect(await page.getByTestId('side-menu').getByRole('link', { name: 'Financeiro' }).count()).toBe(0);
    await page.goto('/financial');
    await page.getByRole('heading', { name: 'Acesso negado' }).waitFor();
    await context.close();
  });

  it("the super admin sees every enterprise's invoices, and one enterprise's when chosen", async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 800 });
    const violations = await watchCspViolations(page);
    await login(page, 'admin');
    await page.waitForURL('**/my-devices');
    await openMenu(page, 'Financeiro');
    await page.waitForURL('**/financial');
    await page.getByRole('columnheader', { name: 'Empresa' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Vida Farma' }).first().waitFor();
    await page.getByRole('row').filter({ hasText: 'Aurora Alimentos' }).first().waitFor();
    await shot(page, 'financial-super-admin');

    await page.getByPlaceholder('Todas as empresas').click();
    await page.getByRole('option', { name: 'Aurora Alimentos' }).click();
    await expect.poll(() => page.url()).toMatch(/[?&]id=/);
    await expect.poll(() => page.getByRole('columnheader', { name: 'Empresa' }).count()).toBe(0);
    // Aurora's invoices alone, once loaded: rows there, and none of another enterprise's plan (an empty table while
    // the filtered page loads would pass "none" vacuously, hence both in one poll).
    await expect.poll(async () => {
      const rows = (await page.getByRole('row').allInnerTexts()).slice(1);
      return rows.length > 0 && rows.every((row) => !row.includes('Essencial'));
    }).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  });
});
