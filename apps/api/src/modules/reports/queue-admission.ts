import { createHash } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import { ReportStatus } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { ReportsTable } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { REPORT_SERVER_MESSAGES as M } from './messages';

export interface QueueCaps {
  perUser: number;
  perEnterprise: number;
}

/** A report admitted to the queue: its id and its turn (the job's priority is minus the turn). */
export interface AdmittedReport {
  id: string;
  turn: number;
}

/** Namespace of this module's advisory locks (the first of the two-integer form), so no other lock collides. */
const LOCK_SPACE = 0x5e13;

/** A stable 32-bit key for an advisory lock. */
function lockKey(name: string): number {
  return createHash('sha256').update(name).digest().readInt32BE(0);
}

/**
 * Records reports in the fair queue (ADR 13), all or none, in one transaction:
 * - refuses them (429, pt-BR) when the user's, or one enterprise's, reports not yet generated would pass the cap;
 * - gives each a turn: an enterprise's reports take consecutive turns after its last queued one, and never earlier
 *   than the turn being served (the lowest queued), so a newcomer's first report waits about one report per worker
 *   behind an enterprise that queued hundreds.
 * Advisory locks on the user and each enterprise, taken in a fixed order, make the count and the insert one step:
 * two uploads at once cannot both pass the cap, nor take the same turns.
 * `alongside` writes what the reports belong to (a mapping study) in the same transaction: both or neither.
 */
export async function admitReports(
  db: Db,
  userId: string,
  reports: Insertable<ReportsTable>[],
  caps: QueueCaps,
  alongside?: (trx: Db, admitted: AdmittedReport[]) => Promise<void>,
): Promise<AdmittedReport[]> {
  if (reports.length === 0) return [];
  const groups = new Map<string | null, Insertable<ReportsTable>[]>();
  for (const report of reports) {
    const key = report.enterprise_id ?? null;
    groups.set(key, [...(groups.get(key) ?? []), report]);
  }
  const keys = [...new Set([`user:${userId}`, ...[...groups.keys()].map((e) => `enterprise:${e ?? 'none'}`)].map(lockKey))].sort((a, b) => a - b);

  return db.transaction().execute(async (trx) => {
    for (const key of keys) await sql`SELECT pg_advisory_xact_lock(${LOCK_SPACE}::int, ${key}::int)`.execute(trx);

    const queued = trx.selectFrom('reports').where('status', '=', ReportStatus.Queued);
    const mine = await queued.select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    if (Number(mine.n) + reports.length > caps.perUser) throw new AppError('TOO_MANY_REQUESTS', M.userQueueFull(Number(mine.n), caps.perUser));
    const serving = await queued.select((eb) => eb.fn.min<number>('queue_turn').as('turn')).executeTakeFirstOrThrow();
    const floor = serving.turn === null ? 1 : Number(serving.turn);

    const rows: Insertable<ReportsTable>[] = [];
    for (const [enterpriseId, group] of groups) {
      const ofEnterprise = await queued
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max<number>('queue_turn').as('last')])
        .where((eb) => (enterpriseId === null ? eb('enterprise_id', 'is', null) : eb('enterprise_id', '=', enterpriseId)))
        .executeTakeFirstOrThrow();
      const count = Number(ofEnterprise.n);
      if (count + group.length > caps.perEnterprise) throw new AppError('TOO_MANY_REQUESTS', M.enterpriseQueueFull(count, caps.perEnterprise));
      const first = Math.max(floor, ofEnterprise.last === null ? floor : Number(ofEnterprise.last) + 1);
      group.forEach((report, i) => rows.push({ ...report, queue_turn: first + i }));
    }
    const inserted = await trx.insertInto('reports').values(rows).returning(['id', 'queue_turn']).execute();
    const admitted = inserted.map((r) => ({ id: r.id, turn: r.queue_turn }));
    if (alongside) await alongside(trx, admitted);
    return admitted;
  });
}

/** Reports still waiting for their file, with their turns, oldest first (requeued on start). */
export async function queuedReports(db: Db): Promise<AdmittedReport[]> {
  const rows = await db.selectFrom('reports').select(['id', 'queue_turn']).where('status', '=', ReportStatus.Queued).orderBy('queue_turn').orderBy('created_at').execute();
  return rows.map((r) => ({ id: r.id, turn: r.queue_turn }));
}
