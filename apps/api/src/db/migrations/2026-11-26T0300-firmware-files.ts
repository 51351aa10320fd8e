import { sql, type Kysely } from 'kysely';

/**
 * Firmware files (M1, ADR 19): each version's file is kept with its SHA-256, which the screen shows so a technician
 * can check a download. No firmware was stored before this migration (the screen did not exist), so the column is
 * required from the start. The version_number index serves "the current version" (the highest).
 */
const statements = [
  `ALTER TABLE firmwares ADD COLUMN sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$')`,
  `CREATE UNIQUE INDEX firmwares_version_number_idx ON firmwares (version_number DESC)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
