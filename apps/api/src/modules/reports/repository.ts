import { ReportStatus } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { TenantScope } from '../../lib/tenant-scope';

/** The SQL of report records. Reads of them take a TenantScope; a report outside it is simply absent. */

function reportQuery(db: Db) {
  return db
    .selectFrom('reports as r')
    .leftJoin('devices as d', 'd.id', 'r.device_id')
    .leftJoin('travels as t', 't.id', 'r.travel_id')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('enterprises as e', 'e.id', 'r.enterprise_id')
    .leftJoin('electronic_signatures as s', 's.id', 'r.approval_signature_id')
    .select([
      'r.id', 'r.enterprise_id', 'r.user_id', 'r.device_id', 'r.travel_id', 'r.kind', 'r.type', 'r.status', 'r.error',
      'r.filters', 'r.file_path', 'r.file_size', 'r.sha256', 'r.created_at', 'r.updated_at', 'r.file_removed_at', 'r.link_key',
      'r.timestamp_status', 'r.timestamp_at', 'r.timestamp_authority', 'r.unstamped_sha256',
      'd.name as device_name', 'd.mac as device_mac', 't.code as travel_code', 'u.name as user_name',
      'u.username as user_username', 'e.name as enterprise_name', 'e.disabled as enterprise_disabled',
      // The approval's electronic signature (ADR 0062).
      's.id as approval_id', 's.printed_name as approval_printed_name', 's.username as approval_username', 's.meaning as approval_meaning',
      's.signed_at as approval_signed_at', 's.record_hash as approval_record_hash', 's.hash as approval_hash',
    ]);
}

export type ReportRow = Awaited<ReturnType<ReturnType<typeof reportQuery>['executeTakeFirstOrThrow']>>;

/**
 * Who sees which reports (ADR 9): the super admin all; an enterprise admin those about its enterprise's devices and
 * travels, whoever asked for them; anyone else the reports they asked for.
 */
function reportsInScope<Q extends ReturnType<typeof reportQuery>>(query: Q, scope: TenantScope): Q {
  switch (scope.kind) {
    case 'all':
      return query;
    case 'enterprise':
      return query.where('r.enterprise_id', '=', scope.enterpriseId) as Q;
    case 'user':
      return query.where('r.user_id', '=', scope.userId) as Q;
  }
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return reportQuery(db).where('r.id', '=', id).executeTakeFirst();
}

export async function findReportInScope(db: Db, scope: TenantScope, id: string): Promise<ReportRow | undefined> {
  return reportsInScope(reportQuery(db), scope).where('r.id', '=', id).executeTakeFirst();
}

export async function findReportsByIds(db: Db, ids: readonly string[]): Promise<ReportRow[]> {
  return ids.length === 0 ? [] : reportQuery(db).where('r.id', 'in', [...ids]).execute();
}

/** Newest first, by the time they were asked for. */
export async function listReportsInScope(db: Db, scope: TenantScope, period: { from?: Date; to?: Date }, limit: number): Promise<ReportRow[]> {
  let query = reportsInScope(reportQuery(db), scope);
  if (period.from) query = query.where('r.created_at', '>=', period.from);
  if (period.to) query = query.where('r.created_at', '<=', period.to);
  return query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
}

/** The generated report whose file has exactly these bytes (by their SHA-256), if any. */
/** A generated report whose file has these bytes — or had them before a document timestamp was added (ADR 79). */
export async function findGeneratedBySha256(db: Db, sha256: string): Promise<ReportRow | undefined> {
  return reportQuery(db)
    .where((eb) => eb.or([eb('r.sha256', '=', sha256), eb('r.unstamped_sha256', '=', sha256)]))
    .where('r.status', '=', ReportStatus.Generated)
    .orderBy('r.updated_at', 'desc')
    .executeTakeFirst();
}

/** What a report's signature timestamp is at generation (ADR 79): columns of `reports`. */
export interface TimestampColumns {
  timestamp_status: 'signature' | 'pending' | null;
  timestamp_at: Date | null;
  timestamp_authority: string | null;
}

/** Records the file of a queued report; false when the report was no longer queued (another attempt won). */
export async function markGenerated(
  db: Db,
  id: string,
  file: { path: string; size: number; sha256: string; timestamp: TimestampColumns },
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ status: ReportStatus.Generated, error: null, file_path: file.path, file_size: file.size, sha256: file.sha256, updated_at: at, ...file.timestamp })
    .where('id', '=', id)
    .where('status', '=', ReportStatus.Queued)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function markFailed(db: Db, id: string, error: string, at: Date): Promise<void> {
  await db
    .updateTable('reports')
    .set({ status: ReportStatus.Failed, error, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', ReportStatus.Queued)
    .execute();
}

/** Instants a stored report filter holds, for the period columns of the list. */
export function filterInstant(filters: Record<string, unknown>, key: 'dateInit' | 'dateEnd'): string | null {
  const value = filters[key];
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : null;
}

/** jsonb for a filters column (Kysely takes the JSON text). */
export function filtersJson(filters: Record<string, unknown>): string {
  return JSON.stringify(filters);
}

/**
 * Records a document timestamp added to a report's file (ADR 79): the new file, its SHA-256, and the one before it
 * (copies downloaded before still validate). Only from the file it was made from, and only while pending: false
 * otherwise (the caller removes the file it wrote).
 */
export async function recordDocumentTimestamp(
  db: Db,
  id: string,
  stamped: { fromSha256: string; path: string; size: number; sha256: string; time: Date; authority: string },
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({
      file_path: stamped.path,
      file_size: stamped.size,
      sha256: stamped.sha256,
      unstamped_sha256: stamped.fromSha256,
      timestamp_status: 'document',
      timestamp_at: stamped.time,
      timestamp_authority: stamped.authority,
    })
    .where('id', '=', id)
    .where('sha256', '=', stamped.fromSha256)
    .where('timestamp_status', '=', 'pending')
    .where('file_removed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every attempt at a missing timestamp failed: the report stays valid, shown without a timestamp. */
export async function markTimestampFailed(db: Db, id: string): Promise<void> {
  await db.updateTable('reports').set({ timestamp_status: 'failed' }).where('id', '=', id).where('timestamp_status', '=', 'pending').execute();
}
