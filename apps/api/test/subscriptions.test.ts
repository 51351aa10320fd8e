import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLAN_MESSAGES, SUBSCRIPTION_MESSAGES, formatBRL, type Invoice, type Subscription, type SubscriptionChangeResponse, type SubscriptionStanding } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUpgrade, proratedCents } from '../src/modules/subscriptions/proration';
import { pdftotext } from '../src/reports/testing/poppler';
import { startBillingTest, type BillingTest } from './billing-context';
import type { TestContext } from './context';
import type { TestSmtpServer } from './smtp-server';

/**
 * Subscription changes on /plans, the pro-rated invoice of an upgrade, and what a restricted subscription may not do
 * (issue 13 items 1, 2 and 6; ADR 32), on the demo data: Aurora on Profissional Mensal (R$ 399,90), Vida Farma on
 * Essencial Mensal (R$ 149,90), each with a paid invoice and a pending one due in two days.
 */
const WEBHOOK_TOKEN = 'token-do-webhook-pix-0123456789';
const DAY = 86_400_000;

let billing: BillingTest;
let ctx: TestContext;
let smtp: TestSmtpServer;
let tokens: BillingTest['tokens'];
let enterprises: BillingTest['enterprises'];
let plans: Array<{ _id: string; name: string; cicle: Array<{ id: string; name: string; value: number }> }>;

const cycleOf = (plan: string, cycle: string) => {
  const p = plans.find((x) => x.name === plan)!;
  return { plan_id: p._id, cicle_id: p.cicle.find((c) => c.name === cycle)!.id };
};

beforeAll(async () => {
  billing = await startBillingTest({
    config: { pixKey: 'financeiro@sentinela.example', pixReceiverName: 'Sentinela', pixReceiverCity: 'Sao Paulo', pixWebhookToken: WEBHOOK_TOKEN },
    logins: ['admin', 'aurora', 'joao', 'vida', 'maria'],
  });
  ({ ctx, smtp, tokens, enterprises } = billing);
  plans = (await ctx.request('GET', '/api/plans')).json();
}, 120_000);
afterAll(async () => {
  await billing?.close();
});

const moveClock = (to: number) => billing.moveClock(to);

async function subscription(token: string, query = ''): Promise<Subscription> {
  const res = await ctx.request('GET', `/api/subscription${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function standing(token: string): Promise<SubscriptionStanding> {
  const res = await ctx.request('GET', '/api/subscription/standing', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const invoiceRows = (enterpriseId: string) => ctx.db.selectFrom('invoices').selectAll().where('enterprise_id', '=', enterpriseId).orderBy('issued_at').orderBy('number').execute();

const newUser = (n: string) => ({ name: `Pessoa ${n}`, username: `pessoa.${n}`, email: `pessoa.${n}@example.com`, phone: '(11) 97777-1111', profile: { _id: 3 } });

describe('proration rules', () => {
  it('an upgrade is a higher price in the same cycle length; another cycle always waits', () => {
    expect(isUpgrade({ months: 1, cents: 14990 }, { months: 1, cents: 39990 })).toBe(true);
    expect(isUpgrade({ months: 1, cents: 39990 }, { months: 1, cents: 14990 })).toBe(false);
    expect(isUpgrade({ months: 1, cents: 14990 }, { months: 12, cents: 917900 })).toBe(false);
    expect(isUpgrade({ months: 1, cents: 14990 }, { months: 1, cents: 14990 })).toBe(false);
  });

  it('charges the difference for the days left, rounded half up to the centavo, whole periods not yet started', () => {
    const start = new Date('2026-11-01T12:00:00Z');
    const end = new Date('2026-12-01T12:00:00Z'); // 30 days
    // 10 days and a bit left: 11 days charged (the day of the change counts). 25000 × 11 / 30 = 9166.67 → 9167.
    expect(proratedCents(25000, [{ start, end }], new Date('2026-11-20T13:00:00Z'))).toBe(9167);
    // 100 × 15 / 30 = 50 exactly; 1 × 15 / 30 = 0.5 → 1 (half up).
    expect(proratedCents(100, [{ start, end }], new Date('2026-11-16T12:00:00Z'))).toBe(50);
    expect(proratedCents(1, [{ start, end }], new Date('2026-11-16T12:00:00Z'))).toBe(1);
    // A next period already invoiced is charged whole; a period over is not charged; a downgrade charges nothing.
    const next = { start: end, end: new Date('2027-01-01T12:00:00Z') };
    expect(proratedCents(25000, [{ start, end }, next], new Date('2026-11-20T13:00:00Z'))).toBe(9167 + 25000);
    expect(proratedCents(25000, [{ start, end }], new Date('2026-12-02T00:00:00Z'))).toBe(0);
    expect(proratedCents(-25000, [{ start, end }], new Date('2026-11-20T13:00:00Z'))).toBe(0);
  });
});

describe('GET /api/subscription (issue 13 item 1)', () => {
  it("shows the enterprise's plan, cycle, status, period and open invoice to its administrators", async () => {
    const sub = await subscription(tokens.aurora);
    expect(sub).toMatchObject({
      enterprise: { _id: enterprises.aurora, name: 'Aurora Alimentos' },
      current: { plan_name: 'Profissional', cicle_name: 'Mensal', value_cents: 39990 },
      status: 'active',
      restricted_at: null,
      pending_change: null,
      overdue_invoice: null,
    });
    const rows = await invoiceRows(enterprises.aurora);
    expect(sub.period).toEqual({ start: rows[1]!.period_start.toISOString(), end: rows[1]!.period_end.toISOString() });
    expect(sub.open_invoice).toMatchObject({ id: rows[1]!.id, valor: 39990, pending: true });
  });

  it('is for administrators; the super admin names the enterprise; another enterprise is a 404', async () => {
    expect((await ctx.request('GET', '/api/subscription', tokens.joao)).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/subscription')).statusCode).toBe(401);
    expect((await ctx.request('GET', '/api/subscription', tokens.admin)).statusCode).toBe(400);
    expect((await subscription(tokens.admin, `?enterprise_id=${enterprises.vida}`)).current.plan_name).toBe('Essencial');
    const other = await ctx.request('GET', `/api/subscription?enterprise_id=${enterprises.vida}`, tokens.aurora);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Empresa não encontrada.');
    expect((await ctx.request('GET', '/api/subscription?enterprise_id=nada', tokens.admin)).statusCode).toBe(400);
  });

  it('every user of the enterprise reads its standing for the banner', async () => {
    expect(await standing(tokens.joao)).toEqual({ status: 'active', restricted_at: null, restricts_at: null, overdue_invoice: null });
    expect(await standing(tokens.admin)).toEqual({ status: null, restricted_at: null, restricts_at: null, overdue_invoice: null });
  });
});

describe('a restricted subscription (issue 13 item 2, ADR 32)', () => {
  it('overdue → warned → restricted → refused → paid → allowed again; other enterprises unaffected', async () => {
    // Aurora pays what it owes (the super admin settles by hand), so only Vida Farma falls behind.
    for (const row of await invoiceRows(enterprises.aurora)) {
      if (row.status === 'pending') expect((await ctx.request('POST', `/api/invoices/${row.id}/mark-paid`, tokens.admin, { reason: 'Transferência conferida' })).statusCode).toBe(200);
    }
    const vidaOpen = (await invoiceRows(enterprises.vida)).find((r) => r.status === 'pending')!;
    await moveClock(vidaOpen.due_at.getTime() + 1000);
    await ctx.services.billingCycle.run();

    // Warned: the banner's standing names the invoice and when the restriction starts; nothing is refused yet.
    const warned = await standing(tokens.maria);
    expect(warned).toMatchObject({ status: 'overdue', restricted_at: null, overdue_invoice: { id: vidaOpen.id, number: vidaOpen.number, valor: 14990 } });
    expect(warned.restricts_at).toBe(new Date(vidaOpen.due_at.getTime() + 10 * DAY).toISOString());
    expect((await ctx.request('POST', '/api/user/create', tokens.vida, newUser('antes'))).statusCode).toBe(200);

    // Beyond the grace period: restricted.
    await moveClock(vidaOpen.due_at.getTime() + 10 * DAY + 1000);
    await ctx.services.billingCycle.run();
    const restricted = await standing(tokens.maria);
    expect(restricted.restricted_at).not.toBeNull();
    expect(restricted.restricts_at).toBeNull();

    // New commitments are refused, naming the invoice.
    const usersBefore = await ctx.db.selectFrom('users').select('id').where('enterprise_id', '=', enterprises.vida).execute();
    const refused = await ctx.request('POST', '/api/user/create', tokens.vida, newUser('durante'));
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toContain(`fatura nº ${vidaOpen.number} (R$ 149,90`);
    const upgrade = await ctx.request('PUT', '/api/subscription', tokens.vida, cycleOf('Profissional', 'Mensal'));
    expect(upgrade.statusCode).toBe(402);
    const beacon = await ctx.request('POST', '/api/beacon-device', tokens.admin, { mac: 'AA:00:00:00:32:01', name: 'Novo sensor' });
    expect(beacon.statusCode, beacon.body).toBeLessThan(300);
    const link = await ctx.request('POST', '/api/devices/link/client', tokens.admin, { devices: [beacon.json()._id], to_update: 1, client_id: enterprises.vida });
    expect(link.statusCode).toBe(402);
    expect(link.json().error).toContain(`fatura nº ${vidaOpen.number}`);
    // Linking users to the enterprise (the second step of /register-user, and where the super admin names owners).
    const maria = await ctx.db.selectFrom('users').select(['id', 'is_owner']).where('username', '=', 'maria.souza').executeTakeFirstOrThrow();
    for (const [token, isOwner] of [[tokens.vida, false], [tokens.admin, !maria.is_owner]] as const) {
      const linked = await ctx.request('POST', `/api/client/link/${enterprises.vida}`, token, { users: [{ id: maria.id, isOwner }] });
      expect(linked.statusCode, linked.body).toBe(402);
      expect(linked.json().error).toContain(`fatura nº ${vidaOpen.number} (R$ 149,90`);
    }
    expect((await ctx.db.selectFrom('users').select('is_owner').where('id', '=', maria.id).executeTakeFirstOrThrow()).is_owner).toBe(maria.is_owner);
    // Another enterprise's id is still a 404 that tells nothing about Vida Farma's bill.
    expect((await ctx.request('POST', `/api/client/link/${enterprises.vida}`, tokens.aurora, { users: [{ id: maria.id, isOwner: false }] })).statusCode).toBe(404);
    expect(await ctx.db.selectFrom('users').select('id').where('enterprise_id', '=', enterprises.vida).execute()).toHaveLength(usersBefore.length);
    expect((await ctx.db.selectFrom('devices').select('enterprise_id').where('id', '=', beacon.json()._id).executeTakeFirstOrThrow()).enterprise_id).toBeNull();
    expect((await subscription(tokens.vida)).current.plan_name).toBe('Essencial');

    // Cold-chain data keeps flowing and showing: devices, invoices, a downgrade or cycle change for later.
    expect((await ctx.request('GET', '/api/beacon-device/all', tokens.maria)).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/invoices', tokens.vida)).statusCode).toBe(200);
    expect((await ctx.request('PUT', '/api/subscription', tokens.vida, cycleOf('Essencial', 'Anual'))).json().effect).toBe('next_cycle');

    // Another enterprise is not affected.
    expect((await standing(tokens.joao)).restricted_at).toBeNull();
    expect((await ctx.request('POST', '/api/user/create', tokens.aurora, newUser('aurora'))).statusCode).toBe(200);

    // Paid: the restriction is lifted at once.
    const overdue = (await invoiceRows(enterprises.vida)).filter((r) => r.status === 'overdue');
    for (const row of overdue) expect((await ctx.request('POST', `/api/invoices/${row.id}/mark-paid`, tokens.admin, { reason: 'PIX conferido no extrato' })).statusCode).toBe(200);
    expect(await standing(tokens.maria)).toEqual({ status: 'active', restricted_at: null, restricts_at: null, overdue_invoice: null });
    expect((await ctx.request('POST', '/api/user/create', tokens.vida, newUser('depois'))).statusCode).toBe(200);
    const relinked = await ctx.request('POST', `/api/client/link/${enterprises.vida}`, tokens.vida, { users: [{ id: maria.id, isOwner: false }] });
    expect(relinked.statusCode, relinked.body).toBe(200);
    expect((await ctx.request('POST', `/api/client/link/${enterprises.vida}`, tokens.admin, { users: [{ id: maria.id, isOwner: maria.is_owner }] })).statusCode).toBe(200);
    expect((await ctx.request('POST', '/api/devices/link/client', tokens.admin, { devices: [beacon.json()._id], to_update: 1, client_id: enterprises.vida })).statusCode).toBe(200);
  });
});

describe('PUT /api/subscription: changes', () => {
  it('a downgrade or another cycle waits for the next cycle, is shown as pending and can be cancelled', async () => {
    const down = await ctx.request('PUT', '/api/subscription', tokens.aurora, cycleOf('Essencial', 'Mensal'));
    expect(down.statusCode, down.body).toBe(200);
    const body = down.json() as SubscriptionChangeResponse;
    expect(body).toMatchObject({ effect: 'next_cycle', invoice: null, message: PLAN_MESSAGES.requested });
    expect(body.subscription.current.plan_name).toBe('Profissional');
    expect(body.subscription.pending_change).toMatchObject({ plan_name: 'Essencial', cicle_name: 'Mensal', starts_at: body.subscription.period!.end });

    const annual = (await ctx.request('PUT', '/api/subscription', tokens.aurora, cycleOf('Empresarial', 'Anual'))).json() as SubscriptionChangeResponse;
    expect(annual.effect).toBe('next_cycle');
    expect(annual.subscription.pending_change).toMatchObject({ plan_name: 'Empresarial', cicle_name: 'Anual' });

    // Another enterprise's administrator and a user cannot touch it.
    expect((await ctx.request('DELETE', `/api/subscription/pending-change?enterprise_id=${enterprises.aurora}`, tokens.vida)).statusCode).toBe(404);
    expect((await ctx.request('PUT', '/api/subscription', tokens.joao, cycleOf('Essencial', 'Mensal'))).statusCode).toBe(403);
    expect((await ctx.request('PUT', '/api/subscription', tokens.vida, { ...cycleOf('Essencial', 'Anual'), enterprise_id: enterprises.aurora })).statusCode).toBe(404);
    expect((await subscription(tokens.aurora)).pending_change).toMatchObject({ plan_name: 'Empresarial' });

    const cancel = await ctx.request('DELETE', '/api/subscription/pending-change', tokens.aurora);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().message).toBe(SUBSCRIPTION_MESSAGES.pendingCancelled);
    expect((await subscription(tokens.aurora)).pending_change).toBeNull();
    expect((await ctx.request('DELETE', '/api/subscription/pending-change', tokens.aurora)).statusCode).toBe(409);
    expect((await invoiceRows(enterprises.aurora)).length).toBe(2);
  });

  it('refuses unknown plans and bad input with pt-BR messages', async () => {
    const unknown = await ctx.request('PUT', '/api/subscription', tokens.aurora, { plan_id: plans[0]!._id, cicle_id: plans[1]!.cicle[0]!.id });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(PLAN_MESSAGES.notFound);
    const bad = await ctx.request('PUT', '/api/subscription', tokens.aurora, { plan_id: 'x', cicle_id: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(PLAN_MESSAGES.notFound);
  });

  it('an upgrade takes effect at once with one pro-rated invoice, even on a double click, payable by PIX', async () => {
    const period = (await invoiceRows(enterprises.aurora))[1]!;
    // Sixteen days and an hour into the current period (the clock only moves forward in this file).
    await moveClock(period.period_start.getTime() + 16 * DAY + 3_600_000);
    await ctx.request('PUT', '/api/subscription', tokens.aurora, cycleOf('Essencial', 'Mensal')); // a pending downgrade, dropped by the upgrade
    const want = cycleOf('Empresarial', 'Mensal');
    const [a, b] = await Promise.all([
      ctx.request('PUT', '/api/subscription', tokens.aurora, want),
      ctx.request('PUT', '/api/subscription', tokens.aurora, want),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const results = [a.json(), b.json()] as SubscriptionChangeResponse[];
    const applied = results.find((r) => r.effect === 'now')!;
    expect(results.map((r) => r.effect).sort()).toEqual(['none', 'now']);
    expect(applied.message).toBe(SUBSCRIPTION_MESSAGES.upgraded);
    const days = Math.round((period.period_end.getTime() - period.period_start.getTime()) / DAY);
    const left = Math.ceil((period.period_end.getTime() - ctx.clock.now().getTime()) / DAY);
    const expected = Math.floor((2 * (89990 - 39990) * left + days) / (2 * days));
    expect(left).toBe(days - 16);
    expect(applied.invoice).toMatchObject({ valor: expected, status: 'pending', plan: { name: 'Empresarial', cicle_name: 'Mensal' }, period_end: period.period_end.toISOString() });
    expect(applied.subscription).toMatchObject({ current: { plan_name: 'Empresarial', value_cents: 89990 }, pending_change: null });

    const rows = await invoiceRows(enterprises.aurora);
    const prorations = rows.filter((r) => r.kind === 'proration');
    expect(prorations.length).toBe(1);
    expect(prorations[0]!.due_at.getTime()).toBe(ctx.clock.now().getTime() + 5 * DAY);
    const mail = await smtp.waitForMail('aurora.adm@aurora.example', new RegExp(`Fatura nº ${applied.invoice!.number} .*upgrade para Empresarial`));
    expect(mail.text).toContain('Valor proporcional, não o preço cheio: o plano Empresarial custa R$ 899,90/mês');

    // The invoice says it is pro-rated, from which plan, for which days, and the full price for reference (ADR 75).
    expect(applied.invoice).toMatchObject({
      kind: 'proration',
      plan_value_cents: 89990,
      upgraded_from: { plan_name: 'Profissional', cicle_name: 'Mensal', value_cents: 39990 },
    });
    const listed = (await ctx.request('GET', '/api/invoices', tokens.aurora)).json().data as Invoice[];
    expect(listed.find((i) => i.id === applied.invoice!.id)).toMatchObject({ kind: 'proration', plan_value_cents: 89990 });
    expect(listed.find((i) => i.id !== applied.invoice!.id)).toMatchObject({ kind: 'cycle', upgraded_from: null });
    const pdf = await ctx.request('GET', `/api/invoices/${applied.invoice!.id}/pdf`, tokens.aurora);
    expect(pdf.statusCode).toBe(200);
    const folder = await mkdtemp(path.join(tmpdir(), 'proration-'));
    try {
      const file = path.join(folder, 'fatura.pdf');
      await writeFile(file, pdf.rawPayload);
      const text = (await pdftotext(file)).replace(/\s+/g, ' ');
      expect(text).toContain('Upgrade pró-rata');
      expect(text).toContain('Upgrade de Profissional (Mensal) para Empresarial (Mensal): diferença pró-rata pelos dias de');
      expect(text).toContain('o plano Empresarial custa R$ 899,90/mês; o plano anterior custava R$ 399,90/mês');
      expect(text).toContain(formatBRL(expected));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // Another enterprise's administrator cannot read it.
    expect((await ctx.request('GET', `/api/invoices/${applied.invoice!.id}`, tokens.vida)).statusCode).toBe(404);

    // Listed among the invoices and paid by PIX like any other.
    const pix = await ctx.request('GET', `/api/invoices/${applied.invoice!.id}/pix`, tokens.aurora);
    expect(pix.statusCode).toBe(200);
    expect(pix.json().brcode).toContain(applied.invoice!.transacao);
    const valor = `${Math.floor(expected / 100)}.${String(expected % 100).padStart(2, '0')}`;
    const paid = await ctx.app.inject({
      method: 'POST', url: '/api/pix/webhook', headers: { authorization: `Bearer ${WEBHOOK_TOKEN}` },
      payload: { pix: [{ endToEndId: 'E12345678202611261500000000001', txid: applied.invoice!.transacao, valor, horario: ctx.clock.now().toISOString() }] },
    });
    expect(paid.statusCode).toBe(200);
    expect((await ctx.db.selectFrom('invoices').select('status').where('id', '=', applied.invoice!.id).executeTakeFirstOrThrow()).status).toBe('paid');

    // Asking again for the plan one has changes nothing; the old POST answers 409 as it always did.
    const again = (await ctx.request('PUT', '/api/subscription', tokens.aurora, want)).json() as SubscriptionChangeResponse;
    expect(again).toMatchObject({ effect: 'none', invoice: null, message: PLAN_MESSAGES.alreadyCurrent });
    expect((await ctx.request('POST', '/api/enterprise/plan', tokens.aurora, want)).statusCode).toBe(409);
    expect((await invoiceRows(enterprises.aurora)).filter((r) => r.kind === 'proration').length).toBe(1);

    // The next period is charged at the new plan, whole.
    await moveClock(period.period_end.getTime() - 7 * DAY);
    await ctx.services.billingCycle.run();
    const next = (await invoiceRows(enterprises.aurora)).at(-1)!;
    expect(next).toMatchObject({ kind: 'cycle', plan_name: 'Empresarial', amount_cents: 89990 });
    expect(next.period_start.getTime()).toBe(period.period_end.getTime());
  });
});

describe('the first invoice (issue 13 item 6)', () => {
  it('is issued at sign-up with a plan, so /complete-register step 3 shows it with its PIX code', async () => {
    const { plan_id, cicle_id } = cycleOf('Essencial', 'Mensal');
    const res = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({
      name: 'Carla Nova', username: 'carla.nova', email: 'carla@nova.example', phone: '(11) 98888-7777', password: 'Cofre#Azul7134',
      client: { name: 'Nova Câmara Fria' }, plan_id, cicle_id,
    }));
    expect(res.statusCode, res.body).toBe(200);
    const token = (await ctx.login('carla.nova', 'Cofre#Azul7134')).token;
    const sub = await subscription(token);
    expect(sub).toMatchObject({ current: { plan_name: 'Essencial', cicle_name: 'Mensal' }, status: 'active' });
    expect(sub.open_invoice).toMatchObject({ valor: 14990, status: 'pending', data: ctx.clock.now().toISOString() });
    expect(sub.period).toEqual({ start: ctx.clock.now().toISOString(), end: expect.any(String) });
    expect((await ctx.request('GET', `/api/invoices/${sub.open_invoice!.id}/pix`, token)).statusCode).toBe(200);
    // The cycle job does not issue it again.
    expect((await ctx.services.billingCycle.run()).issued).toBe(0);
    await smtp.waitForMail('carla@nova.example', /Fatura nº \d+ do Sentinela: R\$ 149,90/);
  });

  it('is issued when an enterprise without a plan chooses one', async () => {
    const res = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({
      name: 'Davi Sem Plano', username: 'davi.semplano', email: 'davi@semplano.example', phone: '(11) 98888-6666', password: 'Cofre#Azul7134',
      client: { name: 'Sem Plano Ltda' },
    }));
    expect(res.statusCode, res.body).toBe(200);
    const token = (await ctx.login('davi.semplano', 'Cofre#Azul7134')).token;
    expect((await ctx.request('GET', '/api/subscription', token)).statusCode).toBe(404);
    const chosen = (await ctx.request('PUT', '/api/subscription', token, cycleOf('Profissional', 'Anual'))).json() as SubscriptionChangeResponse;
    expect(chosen).toMatchObject({ effect: 'now', message: PLAN_MESSAGES.chosen, invoice: { valor: 407900, status: 'pending' } });
    expect(chosen.subscription.open_invoice?.id).toBe(chosen.invoice!.id);
  });
});
