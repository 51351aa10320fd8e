import { FAQ_ADMIN_MESSAGES as F, FAQ_ITEMS_MAX, PLAN_ADMIN_MESSAGES as P, type AdminFaqItem, type AdminPlan, type FaqBody, type PlanBodyParsed, numberToCents } from '@sentinela/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, notFound } from '../../lib/errors';

/** numeric(12, 2) as exact text: centavos are integers, and so is their division into reais and centavos. */
const centsToNumeric = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
/** PostgreSQL answers numeric(12, 2) as text ("149.90"); PGlite may answer a number. Either way, whole centavos. */
function numericToCents(value: unknown): number {
  const cents = numberToCents(Number(value));
  if (cents === null) throw new Error(`numeric(12, 2) expected, got ${String(value)}`);
  return cents;
}

/** Foreign-key violation: a row elsewhere (a subscription, a change request, an invoice) still points at this one. */
const isReferenced = (error: unknown) => !!error && typeof error === 'object' && (error as { code?: unknown }).code === '23503';

/**
 * Plans with their cycles, and the landing page's FAQ, administered by the super admin (issue 13, item 1; ADR 28).
 * A plan with subscribers is never deleted: it is retired, which only stops offering it.
 */
export class PlansAdminService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(planId?: string): Promise<AdminPlan[]> {
    let query = this.db
      .selectFrom('plans')
      .select(['id', 'name', 'position', 'max_devices', 'retired_at'])
      .orderBy(sql`retired_at IS NOT NULL`)
      .orderBy('position')
      .orderBy('name');
    if (planId) query = query.where('id', '=', planId);
    const plans = await query.execute();
    if (plans.length === 0) return [];
    const ids = plans.map((p) => p.id);
    const cycles = await this.db.selectFrom('plan_cycles').select(['id', 'plan_id', 'name', 'value', 'features']).where('plan_id', 'in', ids).orderBy('value').execute();
    const subscribers = await this.db
      .selectFrom('subscriptions as s')
      .innerJoin('plan_cycles as c', 'c.id', 's.plan_cycle_id')
      .select(['c.plan_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('c.plan_id', 'in', ids)
      .groupBy('c.plan_id')
      .execute();
    return plans.map((plan) => {
      const own = cycles.filter((c) => c.plan_id === plan.id);
      return {
        _id: plan.id,
        name: plan.name,
        position: plan.position,
        max_devices: plan.max_devices,
        retired_at: plan.retired_at ? plan.retired_at.toISOString() : null,
        features: (own[0]?.features as unknown as string[] | undefined) ?? [],
        cicle: own.map((c) => {
          const cents = numericToCents(c.value);
          return { id: c.id, name: c.name, value: cents / 100, value_cents: cents };
        }),
        subscribers: Number(subscribers.find((s) => s.plan_id === plan.id)?.n ?? 0),
      };
    });
  }

  private async one(planId: string): Promise<AdminPlan> {
    const [plan] = await this.list(planId);
    if (!plan) throw notFound(P.notFound);
    return plan;
  }

  async create(body: PlanBodyParsed): Promise<AdminPlan> {
    const id = await this.named(async () =>
      this.db.transaction().execute(async (trx) => {
        const last = await trx.selectFrom('plans').select((eb) => eb.fn.max('position').as('p')).executeTakeFirst();
        const row = await trx
          .insertInto('plans')
          .values({ name: body.name, max_devices: body.max_devices, position: Number(last?.p ?? -1) + 1, retired_at: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.writeCycles(trx, row.id, body);
        return row.id;
      }),
    );
    return this.one(id);
  }

  async update(planId: string, body: PlanBodyParsed): Promise<AdminPlan> {
    await this.named(async () =>
      this.db.transaction().execute(async (trx) => {
        const plan = await trx.selectFrom('plans').select('id').where('id', '=', planId).forUpdate().executeTakeFirst();
        if (!plan) throw notFound(P.notFound);
        await trx.updateTable('plans').set({ name: body.name, max_devices: body.max_devices }).where('id', '=', planId).execute();
        await this.writeCycles(trx, planId, body);
      }),
    );
    return this.one(planId);
  }

  /**
   * Cycles matched by name: a kept cycle keeps its id (subscriptions point at it) and takes the new value and
   * features; a new one is added; a dropped one is deleted only if nothing refers to it.
   */
  private async writeCycles(trx: Db, planId: string, body: PlanBodyParsed): Promise<void> {
    const features = JSON.stringify(body.features);
    const existing = await trx.selectFrom('plan_cycles').select(['id', 'name']).where('plan_id', '=', planId).execute();
    for (const cycle of body.cycles) {
      const value = centsToNumeric(cycle.value);
      const found = existing.find((c) => c.name === cycle.name);
      // The column is numeric: exact decimal text, never a float.
      if (found) await trx.updateTable('plan_cycles').set({ value: value as unknown as number, features }).where('id', '=', found.id).execute();
      else await trx.insertInto('plan_cycles').values({ plan_id: planId, name: cycle.name, value: value as unknown as number, features }).execute();
    }
    for (const dropped of existing.filter((c) => !body.cycles.some((k) => k.name === c.name))) {
      try {
        // A savepoint, so that a refused delete leaves the transaction usable for the pt-BR answer.
        await sql`SAVEPOINT drop_cycle`.execute(trx);
        await trx.deleteFrom('plan_cycles').where('id', '=', dropped.id).execute();
        await sql`RELEASE SAVEPOINT drop_cycle`.execute(trx);
      } catch (error) {
        if (isReferenced(error)) throw conflict(P.cycleInUse(dropped.name));
        throw error;
      }
    }
  }

  private async named<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error, 'plans_name_idx')) throw conflict(P.nameTaken);
      throw error;
    }
  }

  async setRetired(planId: string, retired: boolean): Promise<AdminPlan> {
    const row = await this.db
      .updateTable('plans')
      // Retiring twice keeps the first date.
      .set({ retired_at: retired ? sql<Date>`coalesce(retired_at, ${this.clock.now()})` : null })
      .where('id', '=', planId)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound(P.notFound);
    return this.one(planId);
  }

  /** Only a plan nobody ever chose: one with subscribers (or change requests, or invoices) is retired instead. */
  async remove(planId: string): Promise<void> {
    const plan = await this.one(planId);
    if (plan.subscribers > 0) throw conflict(P.hasSubscribers);
    try {
      await this.db.deleteFrom('plans').where('id', '=', planId).execute();
    } catch (error) {
      if (isReferenced(error)) throw conflict(P.hasSubscribers);
      throw error;
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // FAQ

  async listFaq(): Promise<AdminFaqItem[]> {
    const rows = await this.db.selectFrom('faq').select(['id', 'question', 'answer', 'position']).orderBy('position').orderBy('question').execute();
    return rows.map((r) => ({ _id: r.id, question: r.question, answer: r.answer, position: r.position }));
  }

  async createFaq(body: Required<FaqBody>): Promise<AdminFaqItem> {
    const row = await this.db.transaction().execute(async (trx) => {
      // Serialises creations, so that the count below holds and positions stay distinct.
      await sql`LOCK TABLE faq IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      const stats = await trx.selectFrom('faq').select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.max('position').as('p')]).executeTakeFirst();
      if (Number(stats?.n ?? 0) >= FAQ_ITEMS_MAX) throw conflict(F.tooMany(FAQ_ITEMS_MAX));
      return trx
        .insertInto('faq')
        .values({ question: body.question, answer: body.answer, position: Number(stats?.p ?? -1) + 1 })
        .returning(['id', 'question', 'answer', 'position'])
        .executeTakeFirstOrThrow();
    });
    return { _id: row.id, question: row.question, answer: row.answer, position: row.position };
  }

  async updateFaq(id: string, body: Required<FaqBody>): Promise<AdminFaqItem> {
    const row = await this.db.updateTable('faq').set({ question: body.question, answer: body.answer }).where('id', '=', id).returning(['id', 'question', 'answer', 'position']).executeTakeFirst();
    if (!row) throw notFound(F.notFound);
    return { _id: row.id, question: row.question, answer: row.answer, position: row.position };
  }

  async removeFaq(id: string): Promise<void> {
    const row = await this.db.deleteFrom('faq').where('id', '=', id).returning('id').executeTakeFirst();
    if (!row) throw notFound(F.notFound);
  }

  async reorderFaq(ids: string[]): Promise<AdminFaqItem[]> {
    await this.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE faq IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      const current = await trx.selectFrom('faq').select('id').execute();
      const wanted = new Set(ids);
      if (wanted.size !== ids.length || wanted.size !== current.length || current.some((r) => !wanted.has(r.id))) throw badRequest(F.orderMismatch);
      for (const [position, id] of ids.entries()) await trx.updateTable('faq').set({ position }).where('id', '=', id).execute();
    });
    return this.listFaq();
  }
}
