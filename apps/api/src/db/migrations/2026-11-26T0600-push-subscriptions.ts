import { sql, type Kysely } from 'kysely';

/**
 * Web push (D6, ADR 22): each browser a user turned push on in. An endpoint (the push service's address of that
 * browser) belongs to one user at most: subscribing it again moves it to whoever signed in there last.
 */
const statements = [
  `CREATE TABLE push_subscriptions (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     endpoint text NOT NULL UNIQUE,
     p256dh text NOT NULL,
     auth text NOT NULL,
     created_at timestamptz NOT NULL
   )`,
  `CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
