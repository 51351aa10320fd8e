import type { FaqItem, Plan } from '@sentinela/contract';
import type { Db } from '../../db/database';

/** Every offered plan (retired ones are not, ADR 28) with its cycles, in the plans' order and each plan's cycles by value. */
export async function listPlans(db: Db, planId?: string): Promise<Plan[]> {
  let plans = db.selectFrom('plans').select(['id', 'name']).where('retired_at', 'is', null).orderBy('position').orderBy('name');
  if (planId) plans = plans.where('id', '=', planId);
  const planRows = await plans.execute();
  if (planRows.length === 0) return [];
  const cycles = await db
    .selectFrom('plan_cycles')
    .select(['id', 'plan_id', 'name', 'value', 'features'])
    .where('plan_id', 'in', planRows.map((p) => p.id))
    .orderBy('value')
    .execute();
  return planRows.map((plan) => ({
    _id: plan.id,
    name: plan.name,
    cicle: cycles
      .filter((c) => c.plan_id === plan.id)
      // numeric comes back as text from PostgreSQL
      .map((c) => ({ id: c.id, name: c.name, value: Number(c.value), features: (c.features as unknown as string[]).map((name) => ({ name })) })),
  }));
}

export async function listFaq(db: Db): Promise<FaqItem[]> {
  return db.selectFrom('faq').select(['question', 'answer']).orderBy('position').execute();
}
