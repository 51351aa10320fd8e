import { sql, type Kysely } from 'kysely';

/**
 * Travels (T1–T9).
 * - readings_travel_idx: a travel's path (GET /api/travels/{id}/locations) reads the readings of all its
 *   devices by travel and time. Partial, so the readings outside travels (most of them) cost the
 *   ingestion nothing; created on the partitioned parent, every monthly partition gets its own.
 * - travels_responsible_idx: an ordinary user's travel list ("where I am responsible").
 * - travels_active_idx: ingestion looks up the travels in progress for every batch, and creating or
 *   starting a travel checks the in-progress and paused ones; the others (finished) pile up over the years.
 */
const statements = [
  `CREATE INDEX readings_travel_idx ON readings (travel_id, ts) WHERE travel_id IS NOT NULL`,
  `CREATE INDEX travels_responsible_idx ON travels (responsible_user_id)`,
  `CREATE INDEX travels_active_idx ON travels (status) WHERE status IN (1, 3)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
