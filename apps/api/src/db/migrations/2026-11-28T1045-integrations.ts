import { sql, type Kysely } from 'kysely';

/**
 * Integrations (X13): API tokens (ADR 64) and signed webhooks with their delivery log (ADR 66).
 * - api_tokens: the hash of each token (the token is shown once), its scopes, expiry, revocation and last use
 *   (written in batches, to the minute). The creator stays referenced: a token stops with its creator's admin rights.
 * - access_log.api_token_id: a request made with a token is logged as the token (under its creator's user).
 * - webhooks: a URL of one enterprise with its events and signing secret (needed in clear to sign); disabled after
 *   failing for days.
 * - webhook_deliveries: the outbox. One row per webhook and event, written in the transaction of the event; the
 *   body is kept as the exact text that is signed and sent on every attempt. queued_at: handed to the job queue.
 *   retry_on_failure: false for a test or a redelivery, which are one attempt each.
 * - webhook_attempts: every attempt with its answer, for the delivery log.
 * Tokens and webhooks are audited (ADR 0060): who made, changed, revoked them; never the token hash or the secret, nor
 * the bookkeeping that moves on every use (last use, failing streak).
 */
const statements = [
  `CREATE TABLE api_tokens (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id) ON DELETE CASCADE,
     created_by uuid NOT NULL REFERENCES users(id),
     name text NOT NULL,
     scopes text[] NOT NULL,
     token_hash bytea NOT NULL UNIQUE,
     token_prefix text NOT NULL,
     created_at timestamptz NOT NULL,
     expires_at timestamptz,
     last_used_at timestamptz,
     revoked_at timestamptz
   )`,
  `CREATE INDEX api_tokens_enterprise_idx ON api_tokens (enterprise_id, created_at)`,
  `ALTER TABLE access_log ADD COLUMN api_token_id uuid`,

  `CREATE TABLE webhooks (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id) ON DELETE CASCADE,
     created_by uuid REFERENCES users(id) ON DELETE SET NULL,
     url text NOT NULL,
     description text,
     events text[] NOT NULL,
     secret text NOT NULL,
     enabled boolean NOT NULL DEFAULT true,
     disabled_reason text,
     failing_since timestamptz,
     last_success_at timestamptz,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL
   )`,
  `CREATE INDEX webhooks_enterprise_idx ON webhooks (enterprise_id) WHERE enabled`,

  `CREATE TABLE webhook_deliveries (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
     message_id text NOT NULL,
     event text NOT NULL,
     payload text NOT NULL,
     status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
     attempts smallint NOT NULL DEFAULT 0,
     next_attempt_at timestamptz,
     last_attempt_at timestamptz,
     last_status_code integer,
     last_duration_ms integer,
     last_error text,
     queued_at timestamptz,
     retry_on_failure boolean NOT NULL DEFAULT true,
     created_at timestamptz NOT NULL
   )`,
  `CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC)`,
  `CREATE INDEX webhook_deliveries_unqueued_idx ON webhook_deliveries (created_at) WHERE queued_at IS NULL`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at)`,

  `CREATE TABLE webhook_attempts (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
     attempt smallint NOT NULL,
     started_at timestamptz NOT NULL,
     duration_ms integer NOT NULL,
     status_code integer,
     error text,
     manual boolean NOT NULL DEFAULT false
   )`,
  `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt)`,

  `SELECT audit_attach('api_tokens', 'api_token', 'enterprise_id', 'id', '{last_used_at}', '{token_hash}')`,
  `SELECT audit_attach('webhooks', 'webhook', 'enterprise_id', 'id', '{failing_since,last_success_at,updated_at}', '{secret}')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
