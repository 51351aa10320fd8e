import { sql, type Kysely } from 'kysely';

/**
 * Report file links that work without a session (issue 26; ADR 0070): each report gets a random key of its own
 * (two v4 UUIDs' worth of randomness from the database's strong generator, 244 bits), under which its links are
 * signed with HMAC-SHA256. Existing reports get theirs now, so their files get links too.
 */
const statements = [
  `ALTER TABLE reports ADD COLUMN link_key text NOT NULL
     DEFAULT (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
