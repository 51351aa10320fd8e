import { sql } from 'kysely';
import type { Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { textArray } from '../../lib/pg-arrays';

/** The SQL of webhooks and their deliveries (ADR 66). Reads by id take the enterprise: another's does not exist. */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function webhookQuery(db: Db) {
  return db
    .selectFrom('webhooks as w')
    .leftJoin('users as u', 'u.id', 'w.created_by')
    .select([
      'w.id', 'w.enterprise_id', 'w.url', 'w.description', 'w.events', 'w.enabled', 'w.disabled_reason', 'w.created_at',
      'w.last_success_at', 'w.failing_since', 'u.id as user_id', 'u.name as user_name',
    ]);
}
type WebhookRow = Awaited<ReturnType<ReturnType<typeof webhookQuery>['executeTakeFirstOrThrow']>>;

function toWebhook(row: WebhookRow): Webhook {
  return {
    _id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEvent[],
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_by: row.user_id && row.user_name ? { _id: row.user_id, name: row.user_name } : null,
    created_at: row.created_at.toISOString(),
    last_success_at: iso(row.last_success_at),
    failing_since: iso(row.failing_since),
  };
}

export async function listWebhooks(db: Db, enterpriseId: string): Promise<Webhook[]> {
  const rows = await webhookQuery(db).where('w.enterprise_id', '=', enterpriseId).orderBy('w.created_at', 'desc').orderBy('w.id').execute();
  return rows.map(toWebhook);
}

export async function findWebhook(db: Db, enterpriseId: string, id: string): Promise<Webhook | undefined> {
  const row = await webhookQuery(db).where('w.enterprise_id', '=', enterpriseId).where('w.id', '=', id).executeTakeFirst();
  return row && toWebhook(row);
}

export async function countWebhooks(db: Db, enterpriseId: string): Promise<number> {
  const row = await db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('enterprise_id', '=', enterpriseId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertWebhook(
  db: Db,
  values: { enterpriseId: string; createdBy: string; url: string; description: string | null; events: readonly string[]; secret: string; at: Date },
): Promise<string> {
  const row = await db
    .insertInto('webhooks')
    .values({
      enterprise_id: values.enterpriseId,
      created_by: values.createdBy,
      url: values.url,
      description: values.description,
      events: sql<string[]>`${textArray([...values.events])}::text[]`,
      secret: values.secret,
      created_at: values.at,
      updated_at: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateWebhook(
  db: Db,
  enterpriseId: string,
  id: string,
  changes: { url?: string; description?: string | null; events?: readonly string[]; enabled?: boolean },
  at: Date,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({
      ...(changes.url !== undefined && { url: changes.url }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.events !== undefined && { events: sql<string[]>`${textArray([...changes.events])}::text[]` }),
      // Enabled again by hand: it starts afresh (no failing streak carried over).
      ...(changes.enabled === true && { enabled: true, disabled_reason: null, failing_since: null }),
      ...(changes.enabled === false && { enabled: false, disabled_reason: 'Desativado por um administrador.' }),
      updated_at: at,
    })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .execute();
}

export async function deleteWebhook(db: Db, enterpriseId: string, id: string): Promise<boolean> {
  const row = await db.deleteFrom('webhooks').where('enterprise_id', '=', enterpriseId).where('id', '=', id).returning('id').executeTakeFirst();
  return !!row;
}

// --- deliveries ---

/** A delivery of the caller's webhook (null when the webhook or the delivery is not the enterprise's). */
export async function findDelivery(db: Db, enterpriseId: string, webhookId: string, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.status', 'd.attempts', 'w.enabled'])
    .where('w.enterprise_id', '=', enterpriseId)
    .where('w.id', '=', webhookId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/** The newest deliveries of a webhook (or the one `deliveryId`) with every attempt of each, in two queries. */
export async function listDeliveries(db: Db, webhookId: string, options: { limit: number; deliveryId?: string }): Promise<WebhookDelivery[]> {
  // One snapshot for the deliveries and their attempts: read apart, an attempt recorded between the two reads showed
  // a delivery still "in progress" (its lease as the next attempt) beside the attempt that had already ended it.
  return db.transaction().setIsolationLevel('repeatable read').execute((trx) => readDeliveries(trx, webhookId, options));
}

async function readDeliveries(db: Db, webhookId: string, options: { limit: number; deliveryId?: string }): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
  if (options.deliveryId) query = query.where('id', '=', options.deliveryId);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'attempt', 'started_at', 'status_code', 'duration_ms', 'error', 'manual'])
    .where('delivery_id', 'in', rows.map((r) => r.id))
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  const byDelivery = new Map<string, WebhookAttempt[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push({ attempt: a.attempt, at: a.started_at.toISOString(), response_code: a.status_code, duration_ms: a.duration_ms, error: a.error, manual: a.manual });
    byDelivery.set(a.delivery_id, list);
  }
  return rows.map((r) => ({
    _id: r.id,
    message_id: r.message_id,
    event: r.event,
    status: r.status,
    attempt: r.attempts,
    response_code: r.last_status_code,
    duration_ms: r.last_duration_ms,
    error: r.last_error,
    created_at: r.created_at.toISOString(),
    last_attempt_at: iso(r.last_attempt_at),
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    attempts: byDelivery.get(r.id) ?? [],
    payload: r.payload,
  }));
}

/** One delivery for a single attempt (a test): recorded queued, as the job is sent at once. */
export async function insertSingleDelivery(db: Db, values: { webhookId: string; messageId: string; event: string; payload: string; at: Date }): Promise<string> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: values.webhookId,
      message_id: values.messageId,
      event: values.event,
      payload: values.payload,
      next_attempt_at: values.at,
      queued_at: values.at,
      retry_on_failure: false,
      created_at: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A finished delivery made pending again for one attempt now (Reenviar); false when it is still pending. */
export async function reopenForRedelivery(db: Db, deliveryId: string, at: Date): Promise<{ attempts: number } | undefined> {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, queued_at: at, retry_on_failure: false })
    .where('id', '=', deliveryId)
    .where('status', '<>', 'pending')
    .returning('attempts')
    .executeTakeFirst();
}

/**
 * Hands the deliveries no job was sent for to the caller (marks them queued): at most `limit`, oldest first, rows
 * another process is handing over skipped. Returns their next attempt's number.
 */
export async function takeUnqueued(db: Db, at: Date, limit: number): Promise<{ id: string; attempt: number }[]> {
  const { rows } = await sql<{ id: string; attempt: number }>`
    UPDATE webhook_deliveries SET queued_at = ${at.toISOString()}::timestamptz
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE queued_at IS NULL ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, attempts + 1 AS attempt`.execute(db);
  return rows;
}

/**
 * Pending deliveries whose attempt is overdue by `graceMs` (their job was lost: a process stopped between recording
 * and queueing, or died mid-attempt); their due time moves forward so that each is handed over once per grace.
 */
export async function takeOverdue(db: Db, now: Date, graceMs: number, limit: number): Promise<{ id: string; attempt: number }[]> {
  const { rows } = await sql<{ id: string; attempt: number }>`
    UPDATE webhook_deliveries SET next_attempt_at = ${now.toISOString()}::timestamptz, queued_at = ${now.toISOString()}::timestamptz
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND queued_at IS NOT NULL AND next_attempt_at < ${new Date(now.getTime() - graceMs).toISOString()}::timestamptz
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, attempts + 1 AS attempt`.execute(db);
  return rows;
}

export interface ClaimedDelivery {
  id: string;
  message_id: string;
  event: string;
  payload: string;
  attempts: number;
  retry_on_failure: boolean;
  webhook_id: string;
  enterprise_id: string;
  url: string;
  secret: string;
  enabled: boolean;
}

/**
 * Takes attempt number `attempt` of a pending delivery, once: a second job for the same attempt (the sweep's, a
 * duplicate) finds the count moved and gets nothing. The due time becomes a lease: an attempt whose process dies is
 * found overdue by the sweep after it.
 */
export async function claimAttempt(db: Db, deliveryId: string, attempt: number, now: Date, leaseMs: number): Promise<ClaimedDelivery | undefined> {
  const { rows } = await sql<ClaimedDelivery>`
    UPDATE webhook_deliveries d SET attempts = d.attempts + 1, last_attempt_at = ${now.toISOString()}::timestamptz,
      next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    FROM webhooks w
    WHERE d.id = ${deliveryId}::uuid AND d.status = 'pending' AND d.attempts = ${attempt - 1} AND w.id = d.webhook_id
    RETURNING d.id, d.message_id, d.event, d.payload, d.attempts, d.retry_on_failure, w.id AS webhook_id, w.enterprise_id, w.url, w.secret, w.enabled`.execute(db);
  return rows[0];
}

/** The enterprise of a delivery's webhook (for the fair share of attempts), or undefined when it is gone. */
export async function enterpriseOfDelivery(db: Db, deliveryId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select('w.enterprise_id')
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  return row?.enterprise_id;
}

/** Records an attempt and the delivery's state after it, in one transaction with the webhook's streak. */
export async function recordOutcome(
  trx: Db,
  outcome: {
    delivery: ClaimedDelivery;
    startedAt: Date;
    status: number | null;
    durationMs: number;
    error: string | null;
    manual: boolean;
    /** pending (another attempt at `nextAt`), succeeded or failed. */
    next: { status: 'pending'; at: Date } | { status: 'succeeded' | 'failed' };
  },
): Promise<void> {
  const { delivery } = outcome;
  await trx
    .insertInto('webhook_attempts')
    .values({
      delivery_id: delivery.id,
      attempt: delivery.attempts,
      started_at: outcome.startedAt,
      duration_ms: outcome.durationMs,
      status_code: outcome.status,
      error: outcome.error,
      manual: outcome.manual,
    })
    .execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.next.status,
      next_attempt_at: outcome.next.status === 'pending' ? outcome.next.at : null,
      last_status_code: outcome.status,
      last_duration_ms: outcome.durationMs,
      last_error: outcome.error,
    })
    .where('id', '=', delivery.id)
    .execute();
}

export async function markSucceeded(trx: Db, webhookId: string, at: Date): Promise<void> {
  await trx.updateTable('webhooks').set({ last_success_at: at, failing_since: null }).where('id', '=', webhookId).execute();
}

/** Starts (or continues) the webhook's failing streak; returns since when it has been failing. */
export async function markFailing(trx: Db, webhookId: string, at: Date): Promise<Date | null> {
  const row = await trx
    .updateTable('webhooks')
    .set({ failing_since: sql<Date>`coalesce(failing_since, ${at.toISOString()}::timestamptz)` })
    .where('id', '=', webhookId)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? null;
}

/** Disables a webhook that kept failing and fails its pending deliveries; false when it was already disabled. */
export async function disableFailing(trx: Db, webhookId: string, reason: string, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable('webhooks')
    .set({ enabled: false, disabled_reason: reason, updated_at: at })
    .where('id', '=', webhookId)
    .where('enabled', '=', true)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await failPending(trx, webhookId, 'Webhook desativado.');
  return true;
}

/** Fails the webhook's pending deliveries (it was disabled): nothing more is attempted for them. */
export async function failPending(db: Db, webhookId: string, reason: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: reason })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}

/** A delivery that will not be attempted (its webhook is disabled). */
export async function failDelivery(db: Db, deliveryId: string, reason: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'failed', next_attempt_at: null, last_error: reason }).where('id', '=', deliveryId).execute();
}

/** Deliveries (and their attempts) older than the log keeps. */
export async function deleteOldDeliveries(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).where('status', '<>', 'pending').execute();
}
