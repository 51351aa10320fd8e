import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { hourOf, recomputeRollupHours, rollUpHours, type RollupHour } from './rollups';

/** One job at a time across every server: each step's transaction takes this lock first. */
const LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('sentinela.reading_rollups'))`;
/** Marks taken per transaction: the recomputed hours stay a short statement. */
const MARKS_PER_ROUND = 2000;
/** Rounds per run: a run ends; a flood of late readings waits for the next run (readers read those hours raw). */
const MAX_ROUNDS = 20;
/**
 * How long a run waits for the transactions older than the stamp (snapshots span every database of the server, so a
 * short write elsewhere may still be open): 40 × 50 ms. Past that the line moves on the next run.
 */
const CLOSE_TRIES = 40;
const CLOSE_PAUSE_MS = 50;

export interface RollupRunResult {
  /** The hours before this are trusted (except marked ones) after the run. */
  trustedBefore: Date;
  /** Where the line will move next, once the batches that read the previous line have ended. */
  publishedBefore: Date;
  /** Marks recomputed and removed. */
  marks: number;
}

/**
 * The roll-up job (ADR 0045). Each run, in short transactions of its own, never in ingestion's:
 * 1. publishes the next line (the start of the hour `delayMinutes` ago): batches from then on mark the hours of their
 *    readings older than it;
 * 2. stamps the publication with the first transaction id not started yet;
 * 3. once every transaction older than that stamp has ended (no batch that read the previous line can still
 *    commit), rolls up every device's hours between the trusted line and the published one and moves the trusted
 *    line there, in one transaction: readers switch from readings to roll-ups for those hours at once;
 * 4. recomputes marked hours from readings, removing the marks it read (a mark committed meanwhile stays).
 * Runs every ROLLUP_INTERVAL_SECONDS (plugins/rollup-maintenance.ts); tests call `run()` under their clock.
 */
export class RollupJob {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly delayMinutes: number,
  ) {}

  async run(): Promise<RollupRunResult> {
    await this.publish();
    await this.stamp();
    for (let attempt = 1; attempt <= CLOSE_TRIES; attempt++) {
      if ((await this.close()) !== 'waiting') break;
      await new Promise((resolve) => setTimeout(resolve, CLOSE_PAUSE_MS));
    }
    let marks = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const taken = await this.recomputeMarked();
      marks += taken;
      if (taken < MARKS_PER_ROUND) break;
    }
    const state = await this.db.selectFrom('reading_rollup_state').select(['trusted_before', 'published_before']).executeTakeFirstOrThrow();
    return { trustedBefore: state.trusted_before, publishedBefore: state.published_before, marks };
  }

  private async publish(): Promise<void> {
    const target = new Date(hourOf(this.clock.now().getTime() - this.delayMinutes * 60_000));
    await this.locked(async (trx) => {
      // The line never moves back (a clock set back only makes readers read more readings).
      await sql`UPDATE reading_rollup_state SET published_before = ${target.toISOString()}::timestamptz, published_xmax = NULL
        WHERE published_before < ${target.toISOString()}::timestamptz`.execute(trx);
    });
  }

  /** After the publication committed: a transaction id taken now is later than any batch that read the old line. */
  private async stamp(): Promise<void> {
    await this.locked(async (trx) => {
      await sql`UPDATE reading_rollup_state SET published_xmax = pg_snapshot_xmax(pg_current_snapshot())::text::bigint
        WHERE published_xmax IS NULL AND published_before > trusted_before`.execute(trx);
    });
  }

  /** Moves the trusted line to the published one when it may; 'waiting' while older transactions still run. */
  private async close(): Promise<'closed' | 'waiting' | 'nothing'> {
    return this.locked(async (trx) => {
      const { rows } = await sql<{ trusted_before: Date; published_before: Date; ready: boolean }>`
        SELECT trusted_before, published_before,
          published_xmax IS NOT NULL AND pg_snapshot_xmin(pg_current_snapshot())::text::bigint >= published_xmax AS ready
        FROM reading_rollup_state`.execute(trx);
      const state = rows[0];
      if (!state || state.published_before <= state.trusted_before) return 'nothing';
      if (!state.ready) return 'waiting';
      // This statement's snapshot is later than the check's: every batch that read the old line has committed
      // (its readings are seen here) or will never; any later batch marks what it adds behind the new line.
      await rollUpHours(trx, state.trusted_before, state.published_before);
      await sql`UPDATE reading_rollup_state SET trusted_before = published_before, published_xmax = NULL`.execute(trx);
      return 'closed';
    });
  }

  /** One round: takes up to MARKS_PER_ROUND marks and recomputes their hours; returns how many it took. */
  private async recomputeMarked(): Promise<number> {
    return this.locked(async (trx) => {
      const { rows } = await sql<{ device_num: number; bucket: Date }>`
        DELETE FROM reading_rollup_marks
        WHERE id IN (SELECT id FROM reading_rollup_marks ORDER BY id LIMIT ${MARKS_PER_ROUND})
        RETURNING device_num, bucket`.execute(trx);
      const pairs = new Map<string, RollupHour>();
      for (const r of rows) pairs.set(`${r.device_num} ${r.bucket.getTime()}`, { deviceNum: r.device_num, hourMs: r.bucket.getTime() });
      // A later statement, a later snapshot: it sees the readings of every mark taken above.
      await recomputeRollupHours(trx, [...pairs.values()].sort((a, b) => a.deviceNum - b.deviceNum || a.hourMs - b.hourMs));
      return rows.length;
    });
  }

  private locked<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await LOCK.execute(trx);
      return work(trx);
    });
  }
}

/**
 * After a bulk load that rolled up its own readings (refreshRollups) with nothing else writing: roll-ups are trusted
 * up to `before`. The benchmark's loader; the server's line moves only through the job.
 */
export async function setRollupLine(db: Db, before: Date): Promise<void> {
  await sql`UPDATE reading_rollup_state SET trusted_before = ${before.toISOString()}::timestamptz,
    published_before = greatest(published_before, ${before.toISOString()}::timestamptz), published_xmax = NULL`.execute(db);
}
