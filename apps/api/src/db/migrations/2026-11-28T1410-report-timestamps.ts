import { sql, type Kysely } from 'kysely';

/**
 * RFC 3161 timestamps of report signatures (ADR 79). `timestamp_status`: null when no TSA was set at generation;
 * 'signature' (the signature carries the token, PAdES B-T), 'pending' (the TSA failed: a job adds a document
 * timestamp), 'document' (it did), 'failed' (every attempt failed). `timestamp_at` / `timestamp_authority`: the
 * token's time and the TSA certificate's subject. `unstamped_sha256`: the file's SHA-256 before a document timestamp
 * changed it — a copy downloaded before still validates. Nullable columns without default: catalogue changes.
 * The audit trigger is refreshed so that it knows them (a timestamp added later is in the trail).
 */
const statements = [
  `ALTER TABLE reports ADD COLUMN timestamp_status text CHECK (timestamp_status IN ('signature', 'pending', 'document', 'failed'))`,
  `ALTER TABLE reports ADD COLUMN timestamp_at timestamptz`,
  `ALTER TABLE reports ADD COLUMN timestamp_authority text CHECK (length(timestamp_authority) <= 1000)`,
  `ALTER TABLE reports ADD COLUMN unstamped_sha256 text`,
  `CREATE INDEX reports_unstamped_sha256 ON reports (unstamped_sha256) WHERE unstamped_sha256 IS NOT NULL`,
  `SELECT audit_refresh('reports')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
