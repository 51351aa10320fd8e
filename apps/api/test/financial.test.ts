import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BILLING_MESSAGES, REPORT_MESSAGES, type Invoice, type InvoiceListResponse, type ReportValidation } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type BankAccount } from '../src/config/config';
import { pdfsig, pdftotext, signatureValidation } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { pdfPart, upload } from './report-helpers';

/**
 * The Financeiro screen's server side (A9, issue 13 item 5, ADR 30): an invoice's PDF, signed like the reports and
 * recognised by the report validator, within the caller's enterprise; and the platform's receiving bank account,
 * from settings only.
 */
const PIX_KEY = 'financeiro@sentinela.example';
const BANK: BankAccount = { name: 'Sentinela Tecnologia Ltda', bank_name: 'Banco do Brasil', agencia: '1234-5', conta: '98765-4', type: 'Corrente' };

let ctx: TestContext;
let dir: string;
const tokens = {} as Record<'admin' | 'aurora' | 'joao' | 'vida', string>;
const invoices = {} as Record<'auroraPending' | 'auroraPaid' | 'vidaPending', Invoice>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-financial-'));
  ctx = await createTestContext({ demo: true, config: { pixKey: PIX_KEY, pixReceiverName: 'Sentinela Tecnologia', pixReceiverCity: 'Sao Paulo', bankAccount: BANK } });
  tokens.admin = (await ctx.login('admin')).token;
  tokens.aurora = (await ctx.login('aurora.adm')).token;
  tokens.joao = (await ctx.login('joao.silva')).token;
  tokens.vida = (await ctx.login('vida.adm')).token;
  const aurora = (await ctx.request('GET', '/api/invoices', tokens.aurora)).json<InvoiceListResponse>().data;
  invoices.auroraPending = aurora.find((i) => i.status === 'pending')!;
  invoices.auroraPaid = aurora.find((i) => i.status === 'paid')!;
  invoices.vidaPending = (await ctx.request('GET', '/api/invoices', tokens.vida)).json<InvoiceListResponse>().data.find((i) => i.status === 'pending')!;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const documentCount = async () => Number((await ctx.db.selectFrom('invoice_documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function pdfOf(token: string, id: string) {
  const res = await ctx.request('GET', `/api/invoices/${id}/pdf`, token);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res;
}

async function onDisk(name: string, data: Buffer) {
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

async function validate(data: Buffer): Promise<ReportValidation> {
  const res = await upload(ctx, '/api/report/validate', [pdfPart(data, 'fatura.pdf')]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('invoice PDF (GET /api/invoices/{id}/pdf)', () => {
  let pending: Buffer;

  it("downloads a pending invoice as a signed PDF saying what is charged and how to pay it", async () => {
    const invoice = invoices.auroraPending;
    const res = await pdfOf(tokens.aurora, invoice.id);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename=fatura-${invoice.number}.pdf`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    pending = res.rawPayload;
    expect(pending.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(res.headers['content-length'])).toBe(pending.length);

    const file = await onDisk('pending.pdf', pending);
    expect(signatureValidation(await pdfsig(file))).toBe('Signature is Valid.');
    const text = (await pdftotext(file)).replace(/\s+/g, ' ');
    for (const expected of [
      `Fatura nº ${invoice.number}`,
      'Aurora Alimentos',
      'Em aberto',
      'Profissional',
      'Mensal',
      'R$ 399,90',
      invoice.transacao,
      `Chave PIX ${PIX_KEY}`,
      'Banco do Brasil',
      'Agência 1234-5',
      'Conta corrente 98765-4',
      'Sentinela Tecnologia Ltda',
      'Gerado em',
      'Aurora Administração (aurora.adm)',
    ]) {
      expect(text, expected).toContain(expected);
    }
    const row = await ctx.db.selectFrom('invoice_documents').selectAll().where('invoice_id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(text).toContain(`Documento ${row.id}`);
  });

  it('is recognised by the report validator, and not once a byte changed', async () => {
    const result = await validate(pending);
    expect(result).toEqual({
      valid: true,
      invoice: { _id: expect.any(String), number: invoices.auroraPending.number, generated_at: expect.any(String), enterprise: 'Aurora Alimentos' },
      // No REPORT_TSA_URL here: no RFC 3161 timestamp (ADR 79).
      timestamp: { status: 'none', kind: null, time: null, authority: null },
    });
    const changed = Buffer.from(pending);
    const at = changed.indexOf('Aurora');
    changed[at] = 'B'.charCodeAt(0);
    expect(await validate(changed)).toEqual({ valid: false, error: REPORT_MESSAGES.notGenerated });
  });

  it("a paid invoice's PDF says when and by which PIX it was paid, and no longer how to pay", async () => {
    const invoice = invoices.auroraPaid;
    const detail = (await ctx.request('GET', `/api/invoices/${invoice.id}`, tokens.aurora)).json<{ payment: { end_to_end_id: string } }>();
    const file = await onDisk('paid.pdf', (await pdfOf(tokens.aurora, invoice.id)).rawPayload);
    const text = (await pdftotext(file)).replace(/\s+/g, ' ');
    expect(text).toContain('Paga');
    expect(text).toContain('Pago em');
    expect(text).toContain(detail.payment.end_to_end_id);
    expect(text).not.toContain('Chave PIX');
    expect(text).not.toContain('Como pagar');
  });

  it('the super admin downloads any enterprise\'s invoice', async () => {
    const res = await pdfOf(tokens.admin, invoices.vidaPending.id);
    const text = (await pdftotext(await onDisk('vida.pdf', res.rawPayload))).replace(/\s+/g, ' ');
    expect(text).toContain('Vida Farma');
    expect(text).toContain('Administrador Sentinela (admin)');
  });
});

describe('scope: an enterprise never reaches another one\'s invoices', () => {
  it("answers 404 for another enterprise's invoice, on every invoice route, and records no document", async () => {
    const before = await documentCount();
    const other = invoices.auroraPending.id;
    for (const url of [`/api/invoices/${other}/pdf`, `/api/invoices/${other}`, `/api/invoices/${other}/pix`]) {
      const res = await ctx.request('GET', url, tokens.vida);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toBe(BILLING_MESSAGES.invoiceNotFound);
    }
    expect((await ctx.request('GET', `/api/invoices?enterprise_id=${invoices.auroraPending.enterprise._id}`, tokens.vida)).statusCode).toBe(404);
    const res = await ctx.request('GET', '/api/invoices?search=Aurora', tokens.vida);
    expect(res.json<InvoiceListResponse>().total).toBe(0);
    expect(await documentCount()).toBe(before);
  });

  it('refuses ordinary users and anonymous callers; bad and unknown ids are a 400 and a 404 in pt-BR', async () => {
    const before = await documentCount();
    const url = `/api/invoices/${invoices.auroraPending.id}/pdf`;
    expect((await ctx.request('GET', url, tokens.joao)).statusCode).toBe(403);
    expect((await ctx.request('GET', url)).statusCode).toBe(401);
    const bad = await ctx.request('GET', '/api/invoices/nao-e-um-id/pdf', tokens.aurora);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/[a-zà-ú]/i);
    const unknown = await ctx.request('GET', '/api/invoices/00000000-0000-4000-8000-000000000000/pdf', tokens.admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(BILLING_MESSAGES.invoiceNotFound);
    expect(await documentCount()).toBe(before);
  });
});

describe('receiving bank account (GET /api/financial/bank-account)', () => {
  it('is the configured one, for administrators only', async () => {
    for (const token of [tokens.aurora, tokens.admin]) {
      const res = await ctx.request('GET', '/api/financial/bank-account', token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ bank_account: BANK });
    }
    expect((await ctx.request('GET', '/api/financial/bank-account', tokens.joao)).statusCode).toBe(403);
  });

  it('is null when the server has none, and the PDF then shows none', async () => {
    const config = ctx.services.config as { bankAccount: BankAccount | null };
    config.bankAccount = null;
    try {
      expect((await ctx.request('GET', '/api/financial/bank-account', tokens.aurora)).json()).toEqual({ bank_account: null });
      const file = await onDisk('no-bank.pdf', (await pdfOf(tokens.aurora, invoices.auroraPending.id)).rawPayload);
      const text = (await pdftotext(file)).replace(/\s+/g, ' ');
      expect(text).toContain(`Chave PIX ${PIX_KEY}`);
      expect(text).not.toContain('Banco do Brasil');
    } finally {
      config.bankAccount = BANK;
    }
  });

  it('comes from settings: all four parts or none', () => {
    const env = { PLATFORM_BANK_NAME: 'Banco do Brasil', PLATFORM_BANK_AGENCY: '1234-5', PLATFORM_BANK_ACCOUNT: '98765-4', PLATFORM_BANK_HOLDER: 'Sentinela Tecnologia Ltda' };
    expect(loadConfig(env).bankAccount).toEqual(BANK);
    expect(loadConfig({ ...env, PLATFORM_BANK_ACCOUNT_TYPE: 'Poupança' }).bankAccount?.type).toBe('Poupança');
    expect(loadConfig({}).bankAccount).toBeNull();
    expect(() => loadConfig({ PLATFORM_BANK_NAME: 'Banco do Brasil' })).toThrow(/give all four/);
    expect(() => loadConfig({ ...env, PLATFORM_BANK_AGENCY: 'agência 12' })).toThrow(/PLATFORM_BANK_AGENCY/);
    expect(() => loadConfig({ ...env, PLATFORM_BANK_ACCOUNT_TYPE: 'Investimento' })).toThrow(/PLATFORM_BANK_ACCOUNT_TYPE/);
  });
});
