import { sql, type Kysely } from 'kysely';

/**
 * Pending e-mail changes (issue 21 point 5, ADR 82): a change of a user's e-mail is a confirmation link sent to the new
 * address, applied only when it is opened. The confirmation tokens of the sign-up carry it: `new_email` is the address
 * the token would give the account (null: the token confirms the account's current address), `requested_by` who asked
 * (the user in the Perfil, or an administrator), `created_at` when.
 */
const statements = [
  `ALTER TABLE email_verifications
     ADD COLUMN new_email text,
     ADD COLUMN requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
     ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`,
  `CREATE INDEX email_verifications_open_idx ON email_verifications (user_id) WHERE used_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
