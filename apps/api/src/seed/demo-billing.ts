import { sql } from 'kysely';
import type { Db } from '../db/database';
import { addMonths, cycleMonths } from '../modules/billing/cycle';
import { newTxid } from '../modules/billing/pix-code';

const DAY = 86_400_000;

/** Which plan each demo enterprise is on. */
const DEMO_SUBSCRIPTIONS = [
  { enterprise: 'Aurora Alimentos', plan: 'Profissional', cycle: 'Mensal' },
  { enterprise: 'Vida Farma', plan: 'Essencial', cycle: 'Mensal' },
];

/**
 * Each demo enterprise's subscription (started 33 days ago) with the previous period's invoice paid by PIX and the
 * current one pending, due in two days (issue 13 item 3): the Financeiro screen and "Pagar Fatura" have something to
 * show, and the cycle job has nothing to issue for almost four weeks.
 */
export async function seedDemoBilling(db: Db, now: Date, dueDays = 5): Promise<void> {
  for (const s of DEMO_SUBSCRIPTIONS) {
    const enterprise = await db.selectFrom('enterprises').select('id').where('name', '=', s.enterprise).executeTakeFirstOrThrow();
    const cycle = await db
      .selectFrom('plan_cycles as c')
      .innerJoin('plans as p', 'p.id', 'c.plan_id')
      .select(['c.id', 'c.name as cycle_name', 'p.name as plan_name', sql<number>`(c.value * 100)::integer`.as('cents')])
      .where('p.name', '=', s.plan)
      .where('c.name', '=', s.cycle)
      .executeTakeFirstOrThrow();
    const startedAt = new Date(now.getTime() - 33 * DAY);
    await db
      .insertInto('subscriptions')
      .values({ enterprise_id: enterprise.id, plan_cycle_id: cycle.id, started_at: startedAt, status: 'active' })
      .onConflict((oc) => oc.column('enterprise_id').doNothing())
      .execute();
    const months = cycleMonths(cycle.cycle_name);
    const secondStart = addMonths(startedAt, months, startedAt.getUTCDate());
    const periods = [
      { start: startedAt, end: secondStart, paid: true },
      { start: secondStart, end: addMonths(secondStart, months, startedAt.getUTCDate()), paid: false },
    ];
    for (const p of periods) {
      const dueAt = new Date(p.start.getTime() + dueDays * DAY);
      await db
        .insertInto('invoices')
        .values({
          enterprise_id: enterprise.id, issued_at: new Date(p.start.getTime() - 7 * DAY), plan_cycle_id: cycle.id, plan_name: cycle.plan_name,
          cycle_name: cycle.cycle_name, period_start: p.start, period_end: p.end, due_at: dueAt, amount_cents: Number(cycle.cents), txid: newTxid(),
          status: p.paid ? 'paid' : 'pending', method: 'pix', paid_at: p.paid ? new Date(dueAt.getTime() - 2 * DAY) : null,
          paid_end_to_end_id: p.paid ? `E00000000${p.start.toISOString().replace(/\D/g, '').slice(0, 12)}DEMO${enterprise.id.replace(/-/g, '').slice(0, 7)}` : null,
        })
        .execute();
    }
  }
}
