import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAQ_ADMIN_MESSAGES, PLAN_ADMIN_MESSAGES } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

/** Plans and FAQ administered by the super admin (issue 13, item 1; ADR 28). */
let ctx: TestContext;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['admin', 'aurora.adm', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
});
afterAll(() => ctx.close());

const admin = () => tokens.admin!;
const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Básico',
  max_devices: 10,
  features: ['Até 10 sensores', 'Alarmes por e-mail'],
  cycles: [
    { name: 'Mensal', value: 99.9 },
    { name: 'Anual', value: '999,00' },
  ],
  ...overrides,
});

async function snapshot() {
  const plans = await ctx.db.selectFrom('plans').selectAll().orderBy('id').execute();
  const cycles = await ctx.db.selectFrom('plan_cycles').selectAll().orderBy('id').execute();
  const faq = await ctx.db.selectFrom('faq').selectAll().orderBy('id').execute();
  return JSON.stringify({ plans, cycles, faq });
}

async function publicPlanNames(): Promise<string[]> {
  return (await ctx.request('GET', '/api/plans')).json().map((p: { name: string }) => p.name);
}

/** Gives an enterprise a subscription to a plan's cycle, as sign-up or /plans does (the demo ones have one already). */
async function subscribe(enterpriseName: string, cycleId: string) {
  const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', enterpriseName).executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('subscriptions')
    .values({ enterprise_id: enterprise.id, plan_cycle_id: cycleId, started_at: ctx.clock.now() })
    .onConflict((oc) => oc.column('enterprise_id').doUpdateSet({ plan_cycle_id: cycleId }))
    .execute();
}

describe('plans', () => {
  it('creates a plan with its cycles in whole centavos and shows it on the landing page', async () => {
    const res = await ctx.request('POST', '/api/admin/plans', admin(), planBody());
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json();
    expect(plan).toMatchObject({ name: 'Básico', max_devices: 10, retired_at: null, subscribers: 0, features: ['Até 10 sensores', 'Alarmes por e-mail'] });
    expect(plan.cicle.map((c: { name: string; value: number; value_cents: number }) => [c.name, c.value, c.value_cents])).toEqual([
      ['Mensal', 99.9, 9990],
      ['Anual', 999, 99900],
    ]);
    const stored = await ctx.db.selectFrom('plan_cycles').select(['name', 'value']).where('plan_id', '=', plan._id).orderBy('name').execute();
    expect(stored.map((c) => [c.name, String(c.value)])).toEqual([
      ['Anual', expect.stringMatching(/^999(\.00?)?$/)],
      ['Mensal', expect.stringMatching(/^99\.90?$/)],
    ]);
    const shown = (await ctx.request('GET', '/api/plans')).json().find((p: { _id: string }) => p._id === plan._id);
    expect(shown).toEqual({
      _id: plan._id,
      name: 'Básico',
      cicle: [
        { id: expect.any(String), name: 'Mensal', value: 99.9, features: [{ name: 'Até 10 sensores' }, { name: 'Alarmes por e-mail' }] },
        { id: expect.any(String), name: 'Anual', value: 999, features: [{ name: 'Até 10 sensores' }, { name: 'Alarmes por e-mail' }] },
      ],
    });
  });

  it('edits name, limit, features and prices, keeping the ids of the cycles it keeps', async () => {
    const plan = (await ctx.request('POST', '/api/admin/plans', admin(), planBody({ name: 'Editável' }))).json();
    const monthly = plan.cicle.find((c: { name: string }) => c.name === 'Mensal');
    const res = await ctx.request('PUT', `/api/admin/plans/${plan._id}`, admin(), {
      name: '  Editado  ',
      max_devices: null,
      features: ['Sensores ilimitados'],
      cycles: [{ name: 'Mensal', value: '0,29' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Editado', max_devices: null, features: ['Sensores ilimitados'] });
    expect(res.json().cicle).toEqual([{ id: monthly.id, name: 'Mensal', value: 0.29, value_cents: 29 }]);
  });

  it('reads prices as typed in Brazil: "1.234,56", "R$ 1.529,00", "149.90" (issue 26)', async () => {
    for (const [value, cents] of [
      ['1.234,56', 123456],
      ['R$ 1.529,00', 152900],
      ['1234,5', 123450],
      ['149.90', 14990],
      ['1.000.000,00', 100000000],
      [149.9, 14990],
    ] as const) {
      const res = await ctx.request('POST', '/api/admin/plans', admin(), planBody({ name: `Preço ${String(value)}`, cycles: [{ name: 'Mensal', value }] }));
      expect(res.statusCode, `${String(value)}: ${res.body}`).toBe(201);
      expect(res.json().cicle[0].value_cents, String(value)).toBe(cents);
    }
  });

  it('refuses bad input with pt-BR messages and changes nothing', async () => {
    const before = await snapshot();
    const cases: [Record<string, unknown>, string][] = [
      [planBody({ name: '   ' }), 'Informe o nome do plano.'],
      [planBody({ name: 'a\u0000b' }), 'Nome do plano contém caracteres inválidos.'],
      [planBody({ name: 'x'.repeat(61) }), 'Nome do plano deve ter no máximo 60 caracteres.'],
      [planBody({ max_devices: 0 }), 'O limite de dispositivos deve ser um número inteiro entre 1 e 1000000.'],
      [planBody({ max_devices: 1.5 }), 'O limite de dispositivos deve ser um número inteiro entre 1 e 1000000.'],
      [planBody({ cycles: [] }), PLAN_ADMIN_MESSAGES.cyclesRequired],
      [planBody({ cycles: [{ name: 'Mensal', value: 1 }, { name: 'Mensal', value: 2 }] }), PLAN_ADMIN_MESSAGES.cycleRepeated],
      [planBody({ cycles: [{ name: 'Semanal', value: 1 }] }), PLAN_ADMIN_MESSAGES.cycleName],
      [planBody({ cycles: [{ name: 'Mensal', value: 1.999 }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: -1 }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: 1_000_000.01 }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: '1e9' }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: 'NaN' }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: '12.34.56' }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: '1.234,567' }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: '1,234,56' }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: '-1,00' }] }), 'O valor deve ser um valor em reais'],
      [planBody({ cycles: [{ name: 'Mensal', value: '1.000.000,01' }] }), 'O valor deve ser um valor em reais'],
      // A JSON number is never read with thousands: 1.234 has three decimals.
      [planBody({ cycles: [{ name: 'Mensal', value: 1.234 }] }), 'O valor deve ser um valor em reais'],
      [planBody({ features: ['ok', ' '] }), 'Um recurso está em branco'],
      [planBody({ features: Array.from({ length: 21 }, (_, i) => `R${i}`) }), 'Informe no máximo 20 recursos.'],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.request('POST', '/api/admin/plans', admin(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(message);
    }
    const taken = await ctx.request('POST', '/api/admin/plans', admin(), planBody({ name: 'ESSENCIAL' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(PLAN_ADMIN_MESSAGES.nameTaken);
    const unknown = await ctx.request('PUT', '/api/admin/plans/00000000-0000-4000-8000-000000000000', admin(), planBody({ name: 'Outro' }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(PLAN_ADMIN_MESSAGES.notFound);
    const malformed = await ctx.request('PUT', '/api/admin/plans/not-an-id', admin(), planBody({ name: 'Outro' }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(PLAN_ADMIN_MESSAGES.notFound);
    expect(await snapshot()).toBe(before);
  });

  it('retires a plan with subscribers: hidden from the landing page and from choice, its subscribers keep it, it cannot be deleted', async () => {
    const plan = (await ctx.request('POST', '/api/admin/plans', admin(), planBody({ name: 'Legado' }))).json();
    const monthly = plan.cicle[0].id as string;
    await subscribe('Aurora Alimentos', monthly);
    expect((await ctx.request('GET', '/api/admin/plans', admin())).json().find((p: { _id: string }) => p._id === plan._id).subscribers).toBe(1);

    const deleting = await ctx.request('DELETE', `/api/admin/plans/${plan._id}`, admin());
    expect(deleting.statusCode).toBe(409);
    expect(deleting.json().error).toBe(PLAN_ADMIN_MESSAGES.hasSubscribers);
    const dropping = await ctx.request('PUT', `/api/admin/plans/${plan._id}`, admin(), planBody({ name: 'Legado', cycles: [{ name: 'Anual', value: 10 }] }));
    expect(dropping.statusCode).toBe(409);
    expect(dropping.json().error).toBe(PLAN_ADMIN_MESSAGES.cycleInUse('Mensal'));
    expect((await ctx.db.selectFrom('plan_cycles').select('id').where('plan_id', '=', plan._id).execute()).length).toBe(2);

    const retired = await ctx.request('POST', `/api/admin/plans/${plan._id}/retire`, admin());
    expect(retired.statusCode).toBe(200);
    expect(retired.json().retired_at).toBe(ctx.clock.now().toISOString());
    expect(await publicPlanNames()).not.toContain('Legado');
    expect((await ctx.request('GET', `/api/plans/${plan._id}`)).statusCode).toBe(404);
    // Aurora still has it: its /plans shows it as current.
    const mine = await ctx.request('GET', '/api/enterprise/plan', tokens['aurora.adm']);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().current).toMatchObject({ plan_id: plan._id });
    // Nobody chooses it any more: not at sign-up, not on /plans.
    const annual = plan.cicle[1].id as string;
    const choose = await ctx.request('POST', '/api/enterprise/plan', tokens['aurora.adm'], { plan_id: plan._id, cicle_id: annual });
    expect(choose.statusCode).toBe(404);
    expect(await ctx.db.selectFrom('plan_change_requests').select('id').where('plan_cycle_id', '=', annual).execute()).toEqual([]);

    const restored = await ctx.request('POST', `/api/admin/plans/${plan._id}/restore`, admin());
    expect(restored.json().retired_at).toBeNull();
    expect(await publicPlanNames()).toContain('Legado');
  });

  it('deletes a plan nobody subscribes to', async () => {
    const plan = (await ctx.request('POST', '/api/admin/plans', admin(), planBody({ name: 'Efêmero' }))).json();
    const res = await ctx.request('DELETE', `/api/admin/plans/${plan._id}`, admin());
    expect(res.statusCode).toBe(200);
    expect(await ctx.db.selectFrom('plans').select('id').where('id', '=', plan._id).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('plan_cycles').select('id').where('plan_id', '=', plan._id).execute()).toEqual([]);
  });
});

describe('FAQ', () => {
  it('creates, edits, reorders and deletes the questions the landing page shows', async () => {
    const created = await ctx.request('POST', '/api/admin/faq', admin(), { question: ' Aceitam PIX? ', answer: 'Sim.\nPor QR code ou copia e cola.' });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json();
    expect(item).toMatchObject({ question: 'Aceitam PIX?', answer: 'Sim.\nPor QR code ou copia e cola.' });
    let faq = (await ctx.request('GET', '/api/faq')).json();
    expect(faq.at(-1)).toEqual({ question: 'Aceitam PIX?', answer: 'Sim.\nPor QR code ou copia e cola.' });

    const edited = await ctx.request('PUT', `/api/admin/faq/${item._id}`, admin(), { question: 'Aceitam PIX?', answer: 'Sim, com QR code.' });
    expect(edited.json().answer).toBe('Sim, com QR code.');

    const ids = (await ctx.request('GET', '/api/admin/faq', admin())).json().map((f: { _id: string }) => f._id) as string[];
    const reordered = await ctx.request('PUT', '/api/admin/faq/order', admin(), { ids: [item._id, ...ids.filter((id) => id !== item._id)] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    faq = (await ctx.request('GET', '/api/faq')).json();
    expect(faq[0]).toEqual({ question: 'Aceitam PIX?', answer: 'Sim, com QR code.' });

    expect((await ctx.request('DELETE', `/api/admin/faq/${item._id}`, admin())).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/faq')).json().map((f: { question: string }) => f.question)).not.toContain('Aceitam PIX?');
    const again = await ctx.request('DELETE', `/api/admin/faq/${item._id}`, admin());
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe(FAQ_ADMIN_MESSAGES.notFound);
  });

  it('refuses blank, hostile or stale input and changes nothing', async () => {
    const before = await snapshot();
    const ids = (await ctx.request('GET', '/api/admin/faq', admin())).json().map((f: { _id: string }) => f._id) as string[];
    const bad: [string, string, Record<string, unknown>, number, string][] = [
      ['POST', '/api/admin/faq', { question: '', answer: 'x' }, 400, 'Informe a pergunta.'],
      ['POST', '/api/admin/faq', { question: 'x', answer: '   ' }, 400, 'Informe a resposta.'],
      ['POST', '/api/admin/faq', { question: 'x\u202Ey', answer: 'ok' }, 400, 'A pergunta contém caracteres inválidos.'],
      ['POST', '/api/admin/faq', { question: 'x', answer: 'y'.repeat(2001) }, 400, 'A resposta deve ter no máximo 2000 caracteres.'],
      ['PUT', `/api/admin/faq/${ids[0]}`, { question: 'x'.repeat(201), answer: 'ok' }, 400, 'A pergunta deve ter no máximo 200 caracteres.'],
      ['PUT', '/api/admin/faq/00000000-0000-4000-8000-000000000000', { question: 'x', answer: 'y' }, 404, FAQ_ADMIN_MESSAGES.notFound],
      ['PUT', '/api/admin/faq/order', { ids: ids.slice(1) }, 400, FAQ_ADMIN_MESSAGES.orderMismatch],
      ['PUT', '/api/admin/faq/order', { ids: [...ids, ids[0]] }, 400, FAQ_ADMIN_MESSAGES.orderMismatch],
      ['PUT', '/api/admin/faq/order', { ids: ['nope'] }, 400, FAQ_ADMIN_MESSAGES.notFound],
    ];
    for (const [method, url, body, status, message] of bad) {
      const res = await ctx.request(method as 'POST' | 'PUT', url, admin(), body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body).toContain(message);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('only the super admin', () => {
  it('an enterprise admin, an ordinary user and a visitor get 401/403 on every admin route, and nothing changes', async () => {
    const plan = (await ctx.request('GET', '/api/admin/plans', admin())).json()[0];
    const question = (await ctx.request('GET', '/api/admin/faq', admin())).json()[0];
    const before = await snapshot();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/plans'],
      ['POST', '/api/admin/plans', planBody({ name: 'Intruso' })],
      ['PUT', `/api/admin/plans/${plan._id}`, planBody({ name: 'Intruso' })],
      ['POST', `/api/admin/plans/${plan._id}/retire`],
      ['POST', `/api/admin/plans/${plan._id}/restore`],
      ['DELETE', `/api/admin/plans/${plan._id}`],
      ['GET', '/api/admin/faq'],
      ['POST', '/api/admin/faq', { question: 'Intrusa?', answer: 'Sim.' }],
      ['PUT', `/api/admin/faq/${question._id}`, { question: 'Intrusa?', answer: 'Sim.' }],
      ['PUT', '/api/admin/faq/order', { ids: [question._id] }],
      ['DELETE', `/api/admin/faq/${question._id}`],
    ];
    for (const [method, url, body] of calls) {
      for (const token of [tokens['aurora.adm'], tokens['joao.silva']]) {
        const res = await ctx.request(method as 'GET', url, token, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
      expect((await ctx.request(method as 'GET', url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await snapshot()).toBe(before);
  });
});
