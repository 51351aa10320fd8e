import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { textArray } from '../../lib/pg-arrays';

/** The chain of an enterprise's records, or the platform's (records of no enterprise). */
export type ChainId = string;
export const PLATFORM_CHAIN = 'platform';
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Appends an event that is not a row change (a sign-in, a download, a signature) to the trail, through the same
 * database function the triggers use, in the caller's transaction and with its audit context.
 */
export async function recordAuditEvent(
  db: Db,
  event: {
    enterpriseId: string | null;
    action: string;
    entity: string;
    entityId: string | null;
    /** Other records the event concerns (searchable by their id). */
    subjectIds?: readonly string[];
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  },
): Promise<number> {
  const subjects = [...new Set([...(event.entityId ? [event.entityId] : []), ...(event.subjectIds ?? [])])].sort();
  const { rows } = await sql<{ seq: number }>`
    SELECT audit_record(${event.enterpriseId}::uuid, ${event.action}, ${event.entity}, ${event.entityId}, ${textArray(subjects)}::text[],
      ${event.before ? JSON.stringify(event.before) : null}::jsonb, ${event.after ? JSON.stringify(event.after) : null}::jsonb) AS seq`.execute(db);
  return rows[0]!.seq;
}

/**
 * The retention hook (ADR 0060): readings refuse DELETE but in a transaction that declares why, with an entry in the
 * trail. Call inside the transaction that deletes; old data is otherwise removed by dropping whole partitions.
 */
export async function declareReadingsRemoval(trx: Db, removal: ReadingsRemoval): Promise<void> {
  await permitReadingsRemoval(trx, removal.reason);
  await recordReadingsRemoval(trx, removal);
}

export interface ReadingsRemoval {
  enterpriseId: string | null;
  reason: string;
  details: Record<string, unknown>;
}

/**
 * The two halves of `declareReadingsRemoval`, for a removal that learns its count from the DELETE itself: permit
 * first, delete, then record what went, in the same transaction (a failure of either undoes both).
 */
export async function permitReadingsRemoval(trx: Db, reason: string): Promise<void> {
  await sql`SELECT set_config('sentinela.readings_removal', ${reason}, true)`.execute(trx);
}

export async function recordReadingsRemoval(trx: Db, removal: ReadingsRemoval): Promise<void> {
  await recordAuditEvent(trx, { enterpriseId: removal.enterpriseId, action: 'readings_removal', entity: 'readings', entityId: null, after: { reason: removal.reason, ...removal.details } });
}

export interface AuditFilter {
  /** The chains to read; undefined: all of them (super admin). */
  chains?: readonly ChainId[];
  entity?: string;
  entityId?: string;
  actor?: string;
  from?: Date;
  to?: Date;
}

export interface AuditRow {
  chain: string; seq: number; enterprise_id: string | null; enterprise_name: string | null; at: Date;
  actor_type: string; actor_id: string | null; actor_name: string | null; actor_username: string | null;
  action: string; entity: string; entity_id: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null;
  reason: string | null; client_address: string | null; client: string | null; client_version: string | null; client_os: string | null;
  user_agent: string | null; prev_hash: string; hash: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function filtered(db: Db, filter: AuditFilter) {
  let query = db.selectFrom('audit_trail as a');
  if (filter.chains) query = query.where('a.chain', 'in', filter.chains.length > 0 ? [...filter.chains] : ['-']);
  if (filter.entity) query = query.where('a.entity', '=', filter.entity);
  if (filter.entityId) query = query.where(sql<boolean>`a.subject_ids @> ARRAY[${filter.entityId}]::text[]`);
  if (filter.actor) {
    const actor = filter.actor;
    query = UUID.test(actor)
      ? query.where('a.actor_id', '=', actor.toLowerCase())
      : query.where(sql<boolean>`a.actor_name ILIKE ${'%' + actor.replace(/[\\%_]/g, (c) => '\\' + c) + '%'}`);
  }
  if (filter.from) query = query.where('a.at', '>=', filter.from);
  if (filter.to) query = query.where('a.at', '<=', filter.to);
  return query;
}

/** A page of entries, newest first. */
export async function listAuditEntries(db: Db, filter: AuditFilter, page: { offset: number; limit: number }): Promise<{ rows: AuditRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, filter)
      .leftJoin('enterprises as e', 'e.id', 'a.enterprise_id')
      .leftJoin('users as u', (join) => join.on(sql<boolean>`a.actor_type = 'user' AND u.id::text = a.actor_id`))
      .select([
        'a.chain', 'a.seq', 'a.enterprise_id', 'e.name as enterprise_name', 'a.at', 'a.actor_type', 'a.actor_id', 'a.actor_name',
        'u.username as actor_username', 'a.action', 'a.entity', 'a.entity_id', 'a.before', 'a.after', 'a.reason', 'a.client_address',
        'a.client', 'a.client_version', 'a.client_os', 'a.user_agent', 'a.prev_hash', 'a.hash',
      ])
      .orderBy('a.at', 'desc')
      .orderBy('a.chain')
      .orderBy('a.seq', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AuditRow[], total: Number(count.n) };
}

/** Every chain that exists (for the super admin's whole verification). */
export async function listChains(db: Db): Promise<ChainId[]> {
  const rows = await db.selectFrom('audit_chain_heads').select('chain').union(db.selectFrom('audit_trail').select('chain').distinct()).execute();
  return rows.map((r) => r.chain).sort();
}

export interface ChainCheck {
  entries: number;
  /** The first sequence that does not hold, or null. */
  firstBadSeq: number | null;
}

/**
 * Recomputes a chain in the database: each entry's hash from its canonical text and the previous entry's hash, each
 * link, each sequence number, and the chain head (so a removed last entry is found too).
 */
export async function verifyChain(db: Db, chain: ChainId): Promise<ChainCheck> {
  const { rows } = await sql<{ entries: number; first_bad: number | null; last_seq: number | null; last_hash: string | null; head_seq: number | null; head_hash: string | null }>`
    WITH t AS (
      SELECT a.seq, a.hash, a.prev_hash, audit_hash(a) AS recomputed,
        lag(a.hash) OVER (ORDER BY a.seq) AS previous_hash, lag(a.seq) OVER (ORDER BY a.seq) AS previous_seq
      FROM audit_trail a WHERE a.chain = ${chain}
    )
    SELECT (SELECT count(*) FROM t)::int AS entries,
      (SELECT min(seq) FROM t WHERE hash IS DISTINCT FROM recomputed OR prev_hash IS DISTINCT FROM coalesce(previous_hash, ${GENESIS_HASH})
        OR seq <> coalesce(previous_seq, 0) + 1) AS first_bad,
      (SELECT seq FROM t ORDER BY seq DESC LIMIT 1) AS last_seq,
      (SELECT hash FROM t ORDER BY seq DESC LIMIT 1) AS last_hash,
      h.seq AS head_seq, h.hash AS head_hash
    FROM (SELECT 1) one LEFT JOIN audit_chain_heads h ON h.chain = ${chain}`.execute(db);
  const r = rows[0]!;
  if (r.first_bad !== null) return { entries: r.entries, firstBadSeq: Number(r.first_bad) };
  const lastSeq = r.last_seq === null ? 0 : Number(r.last_seq);
  const headSeq = r.head_seq === null ? 0 : Number(r.head_seq);
  if (headSeq > lastSeq) return { entries: r.entries, firstBadSeq: lastSeq + 1 };
  if (headSeq < lastSeq) return { entries: r.entries, firstBadSeq: headSeq + 1 };
  if (lastSeq > 0 && r.head_hash !== r.last_hash) return { entries: r.entries, firstBadSeq: lastSeq };
  return { entries: r.entries, firstBadSeq: null };
}
