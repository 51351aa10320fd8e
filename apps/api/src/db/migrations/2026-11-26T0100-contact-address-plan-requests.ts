import { sql, type Kysely } from 'kysely';

/**
 * Issue 10, rest (ADR 0017):
 * - spent_challenges: contact-form challenges already answered (single use), kept until they would have expired.
 * - enterprise_addresses: the address an enterprise gives at /complete-register (step 2).
 * - plan_change_requests: a plan chosen on /plans, recorded for billing to charge; one pending per enterprise.
 */
const statements = [
  `CREATE TABLE spent_challenges (
     challenge_id text PRIMARY KEY,
     expires_at timestamptz NOT NULL
   )`,
  `CREATE INDEX spent_challenges_expires_idx ON spent_challenges (expires_at)`,
  `CREATE TABLE enterprise_addresses (
     enterprise_id uuid PRIMARY KEY REFERENCES enterprises(id) ON DELETE CASCADE,
     cep text NOT NULL, number text NOT NULL, address text NOT NULL, neighbourhood text NOT NULL,
     city text NOT NULL, uf text NOT NULL, ibge text,
     updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
     updated_at timestamptz NOT NULL
   )`,
  `CREATE TABLE plan_change_requests (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id) ON DELETE CASCADE,
     plan_cycle_id uuid NOT NULL REFERENCES plan_cycles(id),
     requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
     requested_at timestamptz NOT NULL,
     status text NOT NULL DEFAULT 'pending'
   )`,
  `CREATE UNIQUE INDEX plan_change_requests_pending_idx ON plan_change_requests (enterprise_id) WHERE status = 'pending'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
