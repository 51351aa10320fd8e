import { sql } from 'kysely';
import type { Db } from '../../db/database';

/**
 * Readings are partitioned by calendar month (UTC). A partition is created before the first row that
 * needs it; which months exist is remembered per database so the hot path checks a Set, not the catalog.
 */
const knownMonths = new WeakMap<Db, Set<string>>();

function monthKey(date: Date): string {
  return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

export async function ensureReadingPartitions(db: Db, timestamps: Iterable<Date>): Promise<void> {
  let known = knownMonths.get(db);
  if (!known) {
    known = new Set();
    knownMonths.set(db, known);
  }
  const missing = new Map<string, Date>();
  for (const ts of timestamps) {
    const key = monthKey(ts);
    if (!known.has(key) && !missing.has(key)) missing.set(key, ts);
  }
  for (const [key, ts] of missing) {
    const from = new Date(Date.UTC(ts.getUTCFullYear(), ts.getUTCMonth(), 1));
    const to = new Date(Date.UTC(ts.getUTCFullYear(), ts.getUTCMonth() + 1, 1));
    try {
      await sql
        .raw(`CREATE TABLE IF NOT EXISTS readings_p${key} PARTITION OF readings FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`)
        .execute(db);
    } catch (err) {
      // Another process created it between our check and our CREATE: that is the state we wanted.
      if (!/already exists/.test(String(err))) throw err;
    }
    known.add(key);
  }
}

/** After the retention dropped a partition (ADR 0081): the next reading of that month creates it again. */
export function forgetReadingPartition(db: Db, partition: string): void {
  knownMonths.get(db)?.delete(partition.replace(/^readings_p/, ''));
}
