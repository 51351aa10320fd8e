import { BILLING_MESSAGES, MSG, formatBRL, type Invoice, type InvoiceListResponse } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { startBillingTest, type BillingTest } from './billing-context';
import type { TestContext } from './context';
import type { TestSmtpServer } from './smtp-server';

/**
 * Invoices and PIX (issue 13 items 2–5, ADR 27) on the demo data: each demo enterprise has a subscription with a
 * paid invoice and a pending one. The BR Code is decoded here by hand (EMV TLV and CRC16-CCITT), not by the library
 * that made it.
 */
const PIX_KEY = 'financeiro@sentinela.example';
const WEBHOOK_TOKEN = 'token-do-webhook-pix-0123456789';
const DAY = 86_400_000;

let billing: BillingTest;
let ctx: TestContext;
let smtp: TestSmtpServer;
let tokens: BillingTest['tokens'];
let enterprises: BillingTest['enterprises'];

beforeAll(async () => {
  billing = await startBillingTest({
    config: { pixKey: PIX_KEY, pixReceiverName: 'Sentinela Tecnologia', pixReceiverCity: 'São Paulo', pixWebhookToken: WEBHOOK_TOKEN },
    logins: ['admin', 'aurora', 'joao', 'vida'],
  });
  ({ ctx, smtp, tokens, enterprises } = billing);
}, 120_000);
afterAll(async () => {
  await billing?.close();
});

const loginAll = () => billing.loginAll();
const moveClock = (to: number) => billing.moveClock(to);

async function list(token: string, query = ''): Promise<InvoiceListResponse> {
  const res = await ctx.request('GET', `/api/invoices${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function invoiceRows(enterpriseId: string) {
  return ctx.db.selectFrom('invoices').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('period_start').execute();
}

/** EMV TLV: two-digit tag, two-digit length, value. */
function parseTlv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const tag = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    expect(Number.isInteger(length), `length of tag ${tag}`).toBe(true);
    out.set(tag, text.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  expect(i).toBe(text.length);
  return out;
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as the BR Code manual defines field 63. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function pixNotice(items: Array<{ endToEndId: string; txid?: string; valor: string }>) {
  return { pix: items.map((i) => ({ ...i, horario: ctx.clock.now().toISOString(), infoPagador: 'pagamento' })) };
}

function webhook(body: unknown, token: string | null = WEBHOOK_TOKEN, url = '/api/pix/webhook') {
  return ctx.app.inject({ method: 'POST', url, headers: token === null ? {} : { authorization: `Bearer ${token}` }, payload: body as object });
}

const e2e = (n: number) => `E12345678202611260300${String(n).padStart(11, '0')}`;

describe('invoices (issue 13 item 2, X10)', () => {
  it("lists the caller's enterprise's invoices, newest first, amounts in centavos", async () => {
    const page = await list(tokens.aurora);
    expect(page.total).toBe(2);
    expect(page.subscription).toEqual({ status: 'active', restricted_at: null });
    const [pending, paid] = page.data as [Invoice, Invoice];
    expect(pending).toMatchObject({ status: 'pending', pending: true, modo: 'Mensal', metodo: 'PIX', valor: 39990, enterprise: { name: 'Aurora Alimentos' } });
    expect(pending.plan.name).toBe('Profissional');
    expect(pending.transacao).toMatch(/^[A-Za-z0-9]{25}$/);
    expect(paid).toMatchObject({ status: 'paid', pending: false });
    expect(pending.number).toBeGreaterThan(0);
    expect(new Date(pending.period_start).getTime()).toBe(new Date(paid.period_end).getTime());
    expect(formatBRL(pending.valor)).toBe('R$ 399,90');
    expect(formatBRL(123456789)).toBe('R$ 1.234.567,89');
  });

  it('searches and pages', async () => {
    const all = (await list(tokens.aurora)).data;
    const byNumber = await list(tokens.aurora, `?search=${all[1]!.number}`);
    expect(byNumber.data.map((i) => i.id)).toEqual([all[1]!.id]);
    expect((await list(tokens.aurora, `?search=${encodeURIComponent(`nº ${all[0]!.number}`)}`)).data.map((i) => i.id)).toEqual([all[0]!.id]);
    expect((await list(tokens.aurora, `?search=${all[0]!.transacao.slice(3, 12)}`)).data.map((i) => i.id)).toEqual([all[0]!.id]);
    expect((await list(tokens.aurora, '?search=profiss')).total).toBe(2);
    expect((await list(tokens.aurora, '?search=%25_nada')).total).toBe(0);
    const second = await list(tokens.aurora, '?limit=1&page=2');
    expect(second).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(second.data.map((i) => i.id)).toEqual([all[1]!.id]);
    expect((await list(tokens.aurora, '?status=paid')).data.map((i) => i.status)).toEqual(['paid']);
    const bad = await ctx.request('GET', '/api/invoices?limit=1000', tokens.aurora);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/Faturas por página/);
  });

  it('the super admin lists every enterprise or one; others only their own', async () => {
    expect((await list(tokens.admin)).total).toBe(4);
    const vida = await list(tokens.admin, `?enterprise_id=${enterprises.vida}`);
    expect(vida.data.every((i) => i.enterprise._id === enterprises.vida)).toBe(true);
    expect(vida.subscription?.status).toBe('active');
    const foreign = await ctx.request('GET', `/api/invoices?enterprise_id=${enterprises.vida}`, tokens.aurora);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(BILLING_MESSAGES.enterpriseNotFound);
    expect((await ctx.request('GET', '/api/invoices', tokens.joao)).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/invoices')).statusCode).toBe(401);
  });

  it("another enterprise's invoice is a 404 on every route, and nothing changes", async () => {
    const [vidaInvoice] = await invoiceRows(enterprises.vida);
    const before = await invoiceRows(enterprises.vida);
    for (const url of [`/api/invoices/${vidaInvoice!.id}`, `/api/invoices/${vidaInvoice!.id}/pix`]) {
      const res = await ctx.request('GET', url, tokens.aurora);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe(BILLING_MESSAGES.invoiceNotFound);
    }
    expect((await ctx.request('POST', `/api/invoices/${vidaInvoice!.id}/mark-paid`, tokens.aurora, { reason: 'pago em dinheiro' })).statusCode).toBe(403);
    expect((await ctx.request('POST', `/api/invoices/${vidaInvoice!.id}/mark-paid`, tokens.vida, { reason: 'pago em dinheiro' })).statusCode).toBe(403);
    expect(await invoiceRows(enterprises.vida)).toEqual(before);
    const own = await ctx.request('GET', `/api/invoices/${vidaInvoice!.id}`, tokens.vida);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: vidaInvoice!.id, number: vidaInvoice!.number });
  });
});

describe('PIX (issue 13 item 3, X10)', () => {
  it('answers a BR Code that decodes to the key, exact amount and txid, with a valid CRC, and its QR code', async () => {
    const pending = (await list(tokens.aurora, '?status=pending')).data[0]!;
    const res = await ctx.request('GET', `/api/invoices/${pending.id}/pix`, tokens.aurora);
    expect(res.statusCode, res.body).toBe(200);
    const { brcode, qrcode } = res.json() as { brcode: string; qrcode: string };

    expect(brcode.slice(-4)).toBe(crc16(brcode.slice(0, -4)));
    const fields = parseTlv(brcode);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('399.90');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('SENTINELA TECNOLOGIA');
    expect(fields.get('60')).toBe('SAO PAULO');
    const account = parseTlv(fields.get('26')!);
    expect(account.get('00')!.toLowerCase()).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe(PIX_KEY);
    expect(parseTlv(fields.get('62')!).get('05')).toBe(pending.transacao);

    expect(qrcode).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(qrcode.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');

    // A tampered code fails the CRC.
    const tampered = brcode.replace('399.90', '399.91');
    expect(tampered.slice(-4)).not.toBe(crc16(tampered.slice(0, -4)));
  });

  it('refuses a paid invoice, and says so when the server has no PIX key', async () => {
    const paid = (await list(tokens.aurora, '?status=paid')).data[0]!;
    const res = await ctx.request('GET', `/api/invoices/${paid.id}/pix`, tokens.aurora);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(BILLING_MESSAGES.alreadyPaid);
    const pending = (await list(tokens.aurora, '?status=pending')).data[0]!;
    ctx.services.config.pixKey = undefined;
    try {
      const off = await ctx.request('GET', `/api/invoices/${pending.id}/pix`, tokens.aurora);
      expect(off.statusCode).toBe(409);
      expect(off.json().error).toBe('Pagamento por PIX não configurado neste servidor.');
    } finally {
      ctx.services.config.pixKey = PIX_KEY;
    }
  });
});

describe('PIX webhook and manual settlement (issue 13 item 3, X10)', () => {
  it('refuses calls without the token, and malformed bodies, changing nothing', async () => {
    const pending = (await list(tokens.vida, '?status=pending')).data[0]!;
    const body = pixNotice([{ endToEndId: e2e(1), txid: pending.transacao, valor: '149.90' }]);
    expect((await webhook(body, null)).statusCode).toBe(401);
    const wrong = await webhook(body, `${WEBHOOK_TOKEN}x`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(BILLING_MESSAGES.webhookUnauthorized);
    for (const bad of [{}, { pix: [] }, { pix: [{ endToEndId: e2e(1), txid: pending.transacao, valor: 149.9, horario: ctx.clock.now().toISOString() }] }, { pix: [{ endToEndId: 'x'.repeat(40), valor: '1.00', horario: 'ontem' }] }]) {
      const res = await webhook(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    ctx.services.config.pixWebhookToken = undefined;
    try {
      const off = await webhook(body);
      expect(off.statusCode).toBe(404);
      expect(off.json().error).toBe(BILLING_MESSAGES.webhookNotConfigured);
    } finally {
      ctx.services.config.pixWebhookToken = WEBHOOK_TOKEN;
    }
    expect((await ctx.db.selectFrom('pix_received').selectAll().execute()).length).toBe(0);
    expect((await list(tokens.vida, '?status=pending')).total).toBe(1);
  });

  it('records unknown txids and wrong amounts without paying anything; pays on the exact amount once; replays change nothing', async () => {
    const pending = (await list(tokens.vida, '?status=pending')).data[0]!;
    expect(pending.valor).toBe(14990);
    const unknown = await webhook(pixNotice([{ endToEndId: e2e(2), txid: 'A'.repeat(25), valor: '149.90' }, { endToEndId: e2e(3), valor: '149.90' }]));
    expect(unknown.statusCode).toBe(200);
    const wrongAmount = await webhook(pixNotice([{ endToEndId: e2e(4), txid: pending.transacao, valor: '149.89' }]));
    expect(wrongAmount.statusCode).toBe(200);
    expect((await list(tokens.vida, '?status=pending')).total).toBe(1);

    // The API Pix posts to the registered address followed by /pix.
    const paid = await webhook(pixNotice([{ endToEndId: e2e(5), txid: pending.transacao, valor: '149.90' }]), WEBHOOK_TOKEN, '/api/pix/webhook/pix');
    expect(paid.statusCode).toBe(200);
    const after = await ctx.request('GET', `/api/invoices/${pending.id}`, tokens.admin);
    expect(after.json()).toMatchObject({ status: 'paid', pending: false, metodo: 'PIX', payment: { end_to_end_id: e2e(5) } });
    const paidAt = after.json().paid_at;

    // The same notice again, and a second payment of the same invoice: recorded, nothing else changes.
    expect((await webhook(pixNotice([{ endToEndId: e2e(5), txid: pending.transacao, valor: '149.90' }]))).statusCode).toBe(200);
    expect((await webhook(pixNotice([{ endToEndId: e2e(6), txid: pending.transacao, valor: '149.90' }]))).statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/invoices/${pending.id}`, tokens.admin)).json()).toMatchObject({ paid_at: paidAt, payment: { end_to_end_id: e2e(5) } });

    const received = await ctx.db.selectFrom('pix_received').select(['end_to_end_id', 'outcome', 'invoice_id']).orderBy('end_to_end_id').execute();
    expect(received).toEqual([
      { end_to_end_id: e2e(2), outcome: 'unknown_txid', invoice_id: null },
      { end_to_end_id: e2e(3), outcome: 'unknown_txid', invoice_id: null },
      { end_to_end_id: e2e(4), outcome: 'amount_mismatch', invoice_id: pending.id },
      { end_to_end_id: e2e(5), outcome: 'paid', invoice_id: pending.id },
      { end_to_end_id: e2e(6), outcome: 'not_payable', invoice_id: pending.id },
    ]);
    const receipt = await smtp.waitForMail('vida.adm@vidafarma.example', /Recibo da fatura/);
    expect(receipt.text).toContain('R$ 149,90');
    expect((await ctx.request('GET', `/api/invoices/${pending.id}/pix`, tokens.vida)).statusCode).toBe(409);
  });

  it('the super admin marks an invoice paid by hand with a reason, recorded with who', async () => {
    const pending = (await list(tokens.aurora, '?status=pending')).data[0]!;
    const noReason = await ctx.request('POST', `/api/invoices/${pending.id}/mark-paid`, tokens.admin, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toMatch(/^Informe o motivo da baixa manual\./);
    const res = await ctx.request('POST', `/api/invoices/${pending.id}/mark-paid`, tokens.admin, { reason: 'TED recebida em 26/11' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'paid', metodo: 'Manual', pending: false });
    const detail = (await ctx.request('GET', `/api/invoices/${pending.id}`, tokens.admin)).json();
    expect(detail.payment).toMatchObject({ marked_by: { name: 'Administrador Sentinela' }, reason: 'TED recebida em 26/11' });
    // The customer sees it paid, not the platform's note.
    expect((await ctx.request('GET', `/api/invoices/${pending.id}`, tokens.aurora)).json().payment).toMatchObject({ marked_by: null, reason: null });
    const again = await ctx.request('POST', `/api/invoices/${pending.id}/mark-paid`, tokens.admin, { reason: 'de novo' });
    expect(again.statusCode).toBe(409);
    const missing = await ctx.request('POST', '/api/invoices/00000000-0000-4000-8000-000000000000/mark-paid', tokens.admin, { reason: 'nada' });
    expect(missing.statusCode).toBe(404);
    await smtp.waitForMail('aurora.adm@aurora.example', /Recibo da fatura/);
    expect(MSG.notFound).toBeTruthy();
  });
});

describe('the billing cycle under a moved clock (issue 13 item 4, X10)', () => {
  it('issues each next period once, marks overdue, restricts after the grace period, and a payment lifts it', async () => {
    const cycle = ctx.services.billingCycle;
    // Every invoice is paid by now; nothing is due to be issued for weeks.
    expect(await cycle.run()).toEqual({ issued: 0, overdue: 0, restricted: 0 });
    const [, second] = await invoiceRows(enterprises.aurora);
    const nextStart = second!.period_end.getTime();

    // 8 days before the next period: still nothing; 7 days before: issued, once.
    await moveClock(nextStart - 8 * DAY);
    expect((await cycle.run()).issued).toBe(0);
    await moveClock(nextStart - 7 * DAY);
    expect((await cycle.run()).issued).toBe(2);
    expect((await cycle.run()).issued).toBe(0);
    const third = (await invoiceRows(enterprises.aurora))[2]!;
    expect(third).toMatchObject({ status: 'pending', amount_cents: 39990, plan_name: 'Profissional', cycle_name: 'Mensal' });
    expect(third.period_start.getTime()).toBe(nextStart);
    expect(third.due_at.getTime()).toBe(nextStart + 5 * DAY);
    await smtp.waitForMail('aurora.adm@aurora.example', new RegExp(`Fatura nº ${third.number} do Sentinela`));

    // Past the due date: overdue, and so is the subscription; the administrators are warned.
    await moveClock(third.due_at.getTime() + 1000);
    expect(await cycle.run()).toMatchObject({ overdue: 2, restricted: 0 });
    expect((await list(tokens.aurora)).subscription).toEqual({ status: 'overdue', restricted_at: null });
    await smtp.waitForMail('aurora.adm@aurora.example', /vencida/);

    // Within the grace period nothing more; beyond it, restricted (recorded, nothing deleted).
    await moveClock(third.due_at.getTime() + 10 * DAY);
    expect((await cycle.run()).restricted).toBe(0);
    await moveClock(third.due_at.getTime() + 10 * DAY + 1000);
    expect((await cycle.run()).restricted).toBe(2);
    expect((await cycle.run()).restricted).toBe(0);
    const restricted = (await list(tokens.aurora)).subscription!;
    expect(restricted.status).toBe('overdue');
    expect(restricted.restricted_at).not.toBeNull();
    expect((await invoiceRows(enterprises.aurora)).length).toBe(3);
    await smtp.waitForMail('aurora.adm@aurora.example', /restrito/);

    // The overdue invoice paid by PIX: the subscription is active again, the restriction lifted.
    const overdue = (await list(tokens.aurora, '?status=overdue')).data[0]!;
    expect(overdue.pending).toBe(true);
    expect((await ctx.request('GET', `/api/invoices/${overdue.id}/pix`, tokens.aurora)).statusCode).toBe(200);
    expect((await webhook(pixNotice([{ endToEndId: e2e(7), txid: overdue.transacao, valor: '399.90' }]))).statusCode).toBe(200);
    expect((await list(tokens.aurora)).subscription).toEqual({ status: 'active', restricted_at: null });
    // Vida Farma, which did not pay, stays restricted.
    expect((await list(tokens.vida)).subscription!.restricted_at).not.toBeNull();
  });

  it('a plan chosen on /plans takes effect with the next period', async () => {
    const plans = (await ctx.request('GET', '/api/plans')).json() as Array<{ _id: string; name: string; cicle: Array<{ id: string; name: string; value: number }> }>;
    const enterprise = plans.find((p) => p.name === 'Empresarial')!;
    const annual = enterprise.cicle.find((c) => c.name === 'Anual')!;
    const chosen = await ctx.request('POST', '/api/enterprise/plan', tokens.aurora, { plan_id: enterprise._id, cicle_id: annual.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const last = (await invoiceRows(enterprises.aurora)).at(-1)!;
    await moveClock(last.period_end.getTime() - 7 * DAY);
    expect((await ctx.services.billingCycle.run()).issued).toBeGreaterThanOrEqual(1);
    const next = (await invoiceRows(enterprises.aurora)).at(-1)!;
    expect(next).toMatchObject({ plan_name: 'Empresarial', cycle_name: 'Anual', amount_cents: 917900 });
    expect(next.period_end.getUTCFullYear() - next.period_start.getUTCFullYear()).toBe(1);
    const request = await ctx.db.selectFrom('plan_change_requests').select('status').where('enterprise_id', '=', enterprises.aurora).executeTakeFirstOrThrow();
    expect(request.status).toBe('applied');
  });

  it('runs as a pg-boss job', async () => {
    const cycle = ctx.services.billingCycle;
    ctx.clock.advance(3_600_000);
    await loginAll();
    await cycle.queue();
    const hour = new Date(Math.floor(ctx.clock.now().getTime() / 3_600_000) * 3_600_000).toISOString();
    const deadline = Date.now() + 30_000;
    let states: string[] = [];
    while (Date.now() < deadline) {
      states = (await ctx.services.jobs.jobsFor('billing-cycle', hour)).map((j) => j.state);
      if (states.includes('completed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(states).toContain('completed');
    // Queued again within the same hour: not run twice.
    await cycle.queue();
    expect((await ctx.services.jobs.jobsFor('billing-cycle', hour)).length).toBe(1);
  });
});

describe('PIX settings', () => {
  it('accept the kinds of PIX key and BR Code names, and refuse others at start', () => {
    for (const key of ['12345678901', '12345678000199', 'financeiro@sentinela.example', '+5511987654321', '123e4567-e89b-42d3-a456-426614174000']) {
      expect(loadConfig({ PIX_KEY: key }).pixKey).toBe(key);
    }
    expect(loadConfig({}).pixKey).toBeUndefined();
    for (const env of [{ PIX_KEY: 'Financeiro@Sentinela.example' }, { PIX_KEY: '123.456.789-01' }, { PIX_RECEIVER_NAME: 'x'.repeat(26) }, { PIX_RECEIVER_CITY: 'São José dos Campos' }, { PIX_RECEIVER_NAME: 'Ñandú 😀' }, { PIX_WEBHOOK_TOKEN: 'curto' }]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(/Invalid configuration/);
    }
  });
});
