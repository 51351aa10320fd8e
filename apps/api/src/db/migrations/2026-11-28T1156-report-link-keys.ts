import { sql, type Kysely } from 'kysely';

/**
 * Report file links that work without a session (issue 26; ADR 0070): each report gets a random key of its own
 * (two v4 UUIDs' worth of randomness from the database's strong generator, 244 bits), under which its links are
 * signed with HMAC-SHA256. Existing reports get theirs now, so their files get links too. The audit trail (ADR 0060)
 * never copies the key (redacted, like every secret) and its update trigger is rebuilt to know the new column.
 */
const statements = [
  `ALTER TABLE reports ADD COLUMN link_key text NOT NULL
     DEFAULT (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))`,
  `UPDATE audit_tables SET redacted = array_append(redacted, 'link_key') WHERE table_name = 'reports' AND NOT ('link_key' = ANY (redacted))`,
  `SELECT audit_refresh('reports')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
