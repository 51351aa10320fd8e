import { sql } from 'kysely';

/**
 * A device's expected interval between readings (ADR 0035): the one set in its configuration, else the one the
 * ingestion learned (rounded to the second), else null (not known yet: the contract's default then applies).
 */
export function expectedIntervalOf(configured: number | null, learned: number | null): number | null {
  if (configured !== null) return configured;
  return learned !== null && learned > 0 ? Math.max(1, Math.round(learned)) : null;
}

/** The same in SQL, for statements that build device rows by hand (alias of the devices table as given). */
export function expectedIntervalSql(alias: string) {
  return sql<number | null>`coalesce(${sql.ref(`${alias}.report_interval_seconds`)}::float8, greatest(1, round(${sql.ref(`${alias}.learned_interval_seconds`)}))::float8)`;
}

/**
 * The learned interval after a device's newer readings (ADR 0035), in seconds. An exponential average that follows
 * shorter intervals quickly (half the difference per reading) and longer ones slowly (an eighth, each interval taken
 * as at most twice the estimate): a silence nudges the estimate up a little instead of teaching the device to be
 * silent, and a device whose real interval grew still gets there within a few dozen readings.
 *
 * `previousMs` is the device's last reading before these (null for its first); `times` are the newer readings'
 * instants, oldest first.
 */
export function learnInterval(learnedSeconds: number | null, previousMs: number | null, times: ArrayLike<number>): number | null {
  let estimate = learnedSeconds !== null && learnedSeconds > 0 ? learnedSeconds * 1000 : null;
  let prev = previousMs;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (prev !== null && t > prev) {
      const dt = t - prev;
      if (estimate === null) estimate = dt;
      else if (dt <= estimate) estimate += (dt - estimate) / 2;
      else estimate += (Math.min(dt, 2 * estimate) - estimate) / 8;
    }
    prev = t;
  }
  return estimate === null ? null : estimate / 1000;
}
