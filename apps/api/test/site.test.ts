import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';

describe('plans and FAQ of the landing page (A1, A11)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true });
  });
  afterAll(async () => ctx?.close());

  it('lists the demo plans with monthly and annual cycles and their features, to anyone', async () => {
    const res = await ctx.request('GET', '/api/plans');
    expect(res.statusCode).toBe(200);
    const plans = res.json() as Array<{ _id: string; name: string; cicle: Array<{ id: string; name: string; value: number; features: Array<{ name: string }> }> }>;
    expect(plans.map((p) => p.name)).toEqual(['Essencial', 'Profissional', 'Empresarial']);
    for (const plan of plans) {
      expect(plan.cicle.map((c) => c.name).sort()).toEqual(['Anual', 'Mensal']);
      expect(plan.cicle[0]!.features.length).toBeGreaterThan(2);
      expect(typeof plan.cicle[0]!.value).toBe('number');
    }
    expect(plans[0]!.cicle.find((c) => c.name === 'Mensal')!.value).toBe(149.9);
    const one = await ctx.request('GET', `/api/plans/${plans[1]!._id}`);
    expect(one.json()).toEqual(plans[1]);
    const missing = await ctx.request('GET', `/api/plans/${crypto.randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Plano não encontrado.');
    expect((await ctx.request('GET', '/api/plans/nao-e-id')).statusCode).toBe(400);
  });

  it('lists the FAQ in order', async () => {
    const faq = (await ctx.request('GET', '/api/faq')).json() as Array<{ question: string; answer: string }>;
    expect(faq.length).toBeGreaterThanOrEqual(5);
    expect(faq[0]!.question).toBe('O que o Sentinela monitora?');
  });
});
