import { sql, type Kysely } from 'kysely';

/**
 * Safer tracking links (issue 14, item 4; ADR 36).
 * - travels: what the code shows (`code_scope`: position only, or position and readings), an expiry the managers
 *   chose (`code_expires_at`; without it the code expires some days after the travel ends, a setting), when the code
 *   was revoked, and how often and when it was last looked up.
 * - travel_revoked_codes: codes replaced or revoked, so an old link answers "revoked" rather than "not found", and a
 *   new code is never drawn equal to one of them (an old link must not come back to life on another travel).
 */
const statements = [
  `ALTER TABLE travels ADD COLUMN code_scope text NOT NULL DEFAULT 'readings' CHECK (code_scope IN ('position', 'readings'))`,
  `ALTER TABLE travels ADD COLUMN code_expires_at timestamptz`,
  `ALTER TABLE travels ADD COLUMN code_revoked_at timestamptz`,
  `ALTER TABLE travels ADD COLUMN code_lookups integer NOT NULL DEFAULT 0`,
  `ALTER TABLE travels ADD COLUMN code_last_lookup_at timestamptz`,
  `CREATE TABLE travel_revoked_codes (
     code text PRIMARY KEY,
     travel_id uuid NOT NULL REFERENCES travels(id) ON DELETE CASCADE,
     revoked_at timestamptz NOT NULL
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
