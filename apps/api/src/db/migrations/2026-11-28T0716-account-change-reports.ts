import { sql, type Kysely } from 'kysely';

/**
 * "Não fui eu" links (issue 21.2, ADR 58): each change of an account's e-mail, username or password made in its
 * Perfil sends a notice with a single-use link. The row keeps the identity the account had before the change (to put
 * it back) and the address the notice went to; only the SHA-256 of the link's token is stored.
 */
const statements = [
  `CREATE TABLE account_change_reports (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     token_hash bytea NOT NULL UNIQUE,
     kind text NOT NULL CHECK (kind IN ('identity', 'password')),
     previous_email text NOT NULL,
     previous_username text NOT NULL,
     notified_email text NOT NULL,
     created_at timestamptz NOT NULL,
     expires_at timestamptz NOT NULL,
     used_at timestamptz
   )`,
  `CREATE INDEX account_change_reports_open_idx ON account_change_reports (user_id, created_at) WHERE used_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
