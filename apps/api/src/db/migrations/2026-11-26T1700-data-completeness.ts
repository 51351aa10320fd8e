import { sql, type Kysely } from 'kysely';

/**
 * Data completeness (issue 14 item 3, ADR 0035).
 * - readings.seq / readings.seq_modulo: the sensor's sequence counter and the value it wraps at, where the format has
 *   one (lost readings between sensor and gateway). Nullable without a default: on the partitioned table the column is
 *   added to every partition as a catalogue change only, no partition is rewritten.
 * - devices.report_interval_seconds: the expected interval between readings, set in the device's configuration.
 * - devices.learned_interval_seconds: the interval learned by the ingestion from the device's own readings, kept up to
 *   date in the statement that already writes the device's last state (no extra statement on the hot path).
 */
const statements = [
  `ALTER TABLE readings ADD COLUMN seq integer, ADD COLUMN seq_modulo integer`,
  `ALTER TABLE devices ADD COLUMN report_interval_seconds integer, ADD COLUMN learned_interval_seconds real`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
