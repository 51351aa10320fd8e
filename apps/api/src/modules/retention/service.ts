import { RETENTION_DEFAULT_DAYS, RETENTION_MESSAGES, RETENTION_MIN_DAYS, type RetentionBody, type RetentionSettings } from '@sentinela/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database';
import { asSystem, withReason } from '../../lib/audit-context';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/errors';
import { textArray } from '../../lib/pg-arrays';
import type { TenantScope } from '../../lib/tenant-scope';
import { declareReadingsRemoval, permitReadingsRemoval, recordReadingsRemoval } from '../audit-trail/repository';
import { forgetReadingPartition } from '../readings/partitions';
import type { RollupHour } from '../readings/rollups';
import type { ReportStorage } from '../reports/storage';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { SealService } from '../seals/service';
import { z } from 'zod';

const DAY_MS = 86_400_000;
export const RETENTION_JOB = 'retention';

/** What one run removed, per enterprise (null: devices and reports of no enterprise, under the platform's default). */
export interface RetentionRunResult {
  readings: number;
  partitions: string[];
  reportFiles: number;
  held: string[];
}

interface Policy {
  enterpriseId: string | null;
  readingsCutoff: Date;
  reportsCutoff: Date;
  /** Approved (signed) reports are records: their files are kept as long as the readings. */
  approvedReportsCutoff: Date;
}

/** The distinct (device, hour) pairs of some readings (`rows`: device_num and ts): what the seals' addenda recompute. */
async function removedHours(db: Db, rows: RawBuilder<unknown>): Promise<RollupHour[]> {
  const { rows: hours } = await sql<{ device_num: number; bucket: Date }>`
    SELECT DISTINCT x.device_num, date_bin('1 hour', x.ts, timestamptz 'epoch') AS bucket FROM (${rows}) x`.execute(db);
  return hours.map((h) => ({ deviceNum: h.device_num, hourMs: h.bucket.getTime() }));
}

/** Midnight UTC of the day `days` before `now`: whole days are removed, never part of one. */
function cutoff(now: Date, days: number): Date {
  return new Date(Math.floor((now.getTime() - days * DAY_MS) / DAY_MS) * DAY_MS);
}

/**
 * Retention (issue 25 point 5, ADR 0081). Each enterprise says how long its readings and report files are kept; a daily
 * job removes what is older: whole monthly partitions when every row in them is past its enterprise's limit and none
 * belongs to an enterprise under legal hold, otherwise rows, in a transaction that declares the removal (the readings'
 * immutability trigger refuses any other DELETE) and writes what it removed into that enterprise's audit trail.
 * A legal hold keeps everything of its enterprise. Daily seals (issue 24, ADR 0080) are never removed: they outlive the
 * readings they describe, and each sealed day that loses readings gets, in the same transaction, an addendum recording
 * the removal (`SealService.recordRemoval`), so verification tells a retention removal from a change.
 */
export class RetentionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly storage: ReportStorage,
    private readonly jobs: JobQueue,
    private readonly log: JobLog,
    private readonly seals: Pick<SealService, 'recordRemoval'>,
  ) {
    jobs.define<{ day: string }>({
      name: RETENTION_JOB,
      schema: z.object({ day: z.string() }),
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 600,
      deleteAfterSeconds: 7 * 24 * 3600,
      // Dropping a partition waits for the readers of that month; a day's first run may be long.
      expireInSeconds: 6 * 3600,
      handler: async () => {
        const results = await this.run();
        const removed = [...results.values()].reduce((n, r) => n + r.readings + r.reportFiles, 0);
        if (removed > 0) this.log.info({ removed }, 'retention removed old records');
      },
      onFinalFailure: async (_data, error) => this.log.error({ err: error }, 'retention failed'),
    });
  }

  /** Queues the day's run (the jobs plugin calls it every RETENTION_CHECK_MINUTES); one per UTC day, whatever the servers. */
  async queue(): Promise<void> {
    const day = this.clock.now().toISOString().slice(0, 10);
    if (await this.jobs.hasPending(RETENTION_JOB, day)) return;
    if ((await this.jobs.jobsFor(RETENTION_JOB, day)).some((j) => j.state === 'completed')) return;
    await this.jobs.send(RETENTION_JOB, { day }, day);
  }

  private async enterpriseOf(scope: TenantScope, enterpriseId: string | undefined): Promise<string> {
    if (scope.kind === 'all') {
      if (!enterpriseId) throw badRequest(RETENTION_MESSAGES.enterpriseRequired);
      const found = await this.db.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).executeTakeFirst();
      if (!found) throw notFound(RETENTION_MESSAGES.enterpriseNotFound);
      return found.id;
    }
    if (!scope.enterpriseId || (enterpriseId !== undefined && enterpriseId !== scope.enterpriseId)) throw notFound(RETENTION_MESSAGES.enterpriseNotFound);
    return scope.enterpriseId;
  }

  private async settings(id: string): Promise<RetentionSettings> {
    const row = await this.db
      .selectFrom('enterprises')
      .select(['id', 'gxp', 'readings_retention_days', 'report_files_retention_days', 'legal_hold', 'legal_hold_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return {
      enterprise_id: row.id,
      readings_days: row.readings_retention_days,
      report_files_days: row.report_files_retention_days,
      legal_hold: row.legal_hold,
      legal_hold_reason: row.legal_hold_reason,
      minimum_readings_days: row.gxp ? RETENTION_DEFAULT_DAYS : RETENTION_MIN_DAYS,
    };
  }

  async get(scope: TenantScope, enterpriseId: string | undefined): Promise<RetentionSettings> {
    return this.settings(await this.enterpriseOf(scope, enterpriseId));
  }

  /** The enterprise's administrators (the route's permission) and the super admin. */
  async set(scope: TenantScope, enterpriseId: string | undefined, body: RetentionBody): Promise<RetentionSettings> {
    const id = await this.enterpriseOf(scope, enterpriseId);
    const current = await this.settings(id);
    if (body.readings_days < current.minimum_readings_days) throw badRequest(RETENTION_MESSAGES.gxpMinimum);
    // In GxP mode every change of what the record keeps is one an inspector asks about.
    if (current.minimum_readings_days === RETENTION_DEFAULT_DAYS && !body.reason) throw badRequest(RETENTION_MESSAGES.reasonRequired);
    await withReason(body.reason, () =>
      this.db
        .updateTable('enterprises')
        .set({
          readings_retention_days: body.readings_days,
          report_files_retention_days: body.report_files_days,
          legal_hold: body.legal_hold,
          legal_hold_reason: body.legal_hold ? (body.legal_hold_reason ?? null) : null,
        })
        .where('id', '=', id)
        .execute(),
    );
    return this.settings(id);
  }

  /** One run of the job: what each enterprise's policy lets go, removed and written into its trail. */
  async run(): Promise<Map<string | null, RetentionRunResult>> {
    return asSystem('retenção', async () => {
      const now = this.clock.now();
      const enterprises = await this.db
        .selectFrom('enterprises')
        .select(['id', 'readings_retention_days', 'report_files_retention_days', 'legal_hold'])
        .execute();
      const held = enterprises.filter((e) => e.legal_hold).map((e) => e.id);
      const policies: Policy[] = enterprises
        .filter((e) => !e.legal_hold)
        .map((e) => ({
          enterpriseId: e.id,
          readingsCutoff: cutoff(now, e.readings_retention_days),
          reportsCutoff: cutoff(now, e.report_files_retention_days),
          approvedReportsCutoff: cutoff(now, Math.max(e.readings_retention_days, e.report_files_retention_days)),
        }));
      const platformCutoff = cutoff(now, RETENTION_DEFAULT_DAYS);
      policies.push({ enterpriseId: null, readingsCutoff: platformCutoff, reportsCutoff: platformCutoff, approvedReportsCutoff: platformCutoff });

      const results = new Map<string | null, RetentionRunResult>(policies.map((p) => [p.enterpriseId, { readings: 0, partitions: [], reportFiles: 0, held }]));
      await this.dropWholePartitions(policies, held, results);
      for (const policy of policies) {
        const result = results.get(policy.enterpriseId)!;
        result.readings += await this.removeReadings(policy);
        result.reportFiles += await this.removeReportFiles(policy, now);
      }
      return results;
    });
  }

  /**
   * Monthly partitions that end before every enterprise's cutoff (and the platform's) and hold no row of an enterprise
   * under legal hold are dropped whole: no row-by-row delete, no table bloat. Each enterprise with rows in one gets the
   * removal in its trail, with the count.
   */
  private async dropWholePartitions(policies: Policy[], held: string[], results: Map<string | null, RetentionRunResult>): Promise<void> {
    const earliestCutoff = new Date(Math.min(...policies.map((p) => p.readingsCutoff.getTime())));
    const { rows: partitions } = await sql<{ name: string; bound: string }>`
      SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'readings' ORDER BY c.relname`.execute(this.db);
    for (const partition of partitions) {
      const to = /TO \('([^']+)'\)/.exec(partition.bound)?.[1];
      if (!to || !/^readings_p\d{6}$/.test(partition.name) || new Date(to) > earliestCutoff) continue;
      const table = sql.table(partition.name);
      if (held.length > 0) {
        const { rows } = await sql<{ held: boolean }>`
          SELECT EXISTS (SELECT 1 FROM ${table} r WHERE r.device_num IN (SELECT num FROM devices WHERE enterprise_id = ANY(${textArray(held)}::uuid[]))) AS held`.execute(this.db);
        if (rows[0]?.held) continue;
      }
      await this.db.transaction().execute(async (trx) => {
        const { rows: counts } = await sql<{ enterprise_id: string | null; n: string }>`
          SELECT d.enterprise_id, count(*) AS n FROM ${table} r LEFT JOIN devices d ON d.num = r.device_num GROUP BY d.enterprise_id`.execute(trx);
        // The hours the drop removes, for the seals' addenda (read before the table goes).
        const removed = await removedHours(trx, sql`SELECT device_num, ts FROM ${table}`);
        for (const count of counts) {
          const key = results.has(count.enterprise_id) ? count.enterprise_id : null;
          results.get(key)!.partitions.push(partition.name);
          results.get(key)!.readings += Number(count.n);
          await declareReadingsRemoval(trx, {
            enterpriseId: count.enterprise_id,
            reason: 'retenção',
            details: { partition: partition.name, before: to, readings: Number(count.n) },
          });
        }
        await sql`DELETE FROM reading_rollups WHERE bucket < ${to}::timestamptz`.execute(trx);
        await sql`DROP TABLE ${table}`.execute(trx);
        await this.seals.recordRemoval(trx, removed);
      });
      forgetReadingPartition(this.db, partition.name);
    }
  }

  /** The rows of one enterprise's devices (or of devices of no enterprise) before its cutoff, with their roll-ups. */
  private async removeReadings(policy: Policy): Promise<number> {
    const devices =
      policy.enterpriseId === null
        ? sql`SELECT num FROM devices WHERE enterprise_id IS NULL`
        : sql`SELECT num FROM devices WHERE enterprise_id = ${policy.enterpriseId}::uuid`;
    return this.db.transaction().execute(async (trx) => {
      // One pass over the rows: the DELETE counts what it removed (a count first would read them twice). The trail
      // entry follows in the same transaction, so the removal and its record stand or fall together.
      await permitReadingsRemoval(trx, 'retenção');
      // Counted per device and hour: the hours are what the seals' addenda recompute (ADR 0080).
      const { rows } = await sql<{ device_num: number; bucket: Date; n: string }>`
        WITH gone AS (DELETE FROM readings WHERE device_num IN (${devices}) AND ts < ${policy.readingsCutoff} RETURNING device_num, ts)
        SELECT device_num, date_bin('1 hour', ts, timestamptz 'epoch') AS bucket, count(*) AS n FROM gone GROUP BY 1, 2`.execute(trx);
      const n = rows.reduce((sum, r) => sum + Number(r.n), 0);
      const removed: RollupHour[] = rows.map((r) => ({ deviceNum: r.device_num, hourMs: r.bucket.getTime() }));
      if (n === 0) return 0;
      await recordReadingsRemoval(trx, {
        enterpriseId: policy.enterpriseId,
        reason: 'retenção',
        details: { before: policy.readingsCutoff.toISOString(), readings: n },
      });
      await sql`DELETE FROM reading_rollups WHERE device_num IN (${devices}) AND bucket < ${policy.readingsCutoff}`.execute(trx);
      await this.seals.recordRemoval(trx, removed);
      return n;
    });
  }

  /** Report files past their enterprise's limit: the file is deleted, the row keeps when (the trail records the change). */
  private async removeReportFiles(policy: Policy, now: Date): Promise<number> {
    let query = this.db
      .selectFrom('reports')
      .select(['id', 'file_path'])
      .where('file_path', 'is not', null)
      .where('file_removed_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('approval_signature_id', 'is', null), eb('created_at', '<', policy.reportsCutoff)]),
          eb.and([eb('approval_signature_id', 'is not', null), eb('created_at', '<', policy.approvedReportsCutoff)]),
        ]),
      );
    query = policy.enterpriseId === null ? query.where('enterprise_id', 'is', null) : query.where('enterprise_id', '=', policy.enterpriseId);
    const due = await query.execute();
    for (const report of due) {
      // The row first: a crash between the two leaves a file nobody serves, never a row pointing at nothing.
      await this.db.updateTable('reports').set({ file_removed_at: now }).where('id', '=', report.id).execute();
      await this.storage.remove(report.file_path!);
    }
    return due.length;
  }
}
