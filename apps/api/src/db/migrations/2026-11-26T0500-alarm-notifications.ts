import { sql, type Kysely } from 'kysely';

/**
 * Alarms reach people (A10, A12, D6; ADR 21).
 * - users_telegram_chat_key: a Telegram chat is linked to one user at most.
 * - telegram_link_tokens: the one-time, expiring token the bot's /start answer carries, bound to its chat (only
 *   its hash is kept): a chat id alone is guessable and must not be enough to link a chat to an account.
 * - alarm_deliveries: every message of an alarm to one user through one channel, with its outcome (the delivery
 *   log of "Detalhes do alarme"). A Telegram message keeps its chat and message ids (to edit it once acknowledged)
 *   and the hash of the token its "Reconhecer" button carries.
 * - alarms.notified_opened_at / notified_ended_at: when the recipients of the alarm's opening and end were found and
 *   their deliveries queued; a sweep queues what a process stopped before queueing. Alarms before this migration
 *   count as announced (nobody wants last month's alarms today).
 */
const statements = [
  `CREATE UNIQUE INDEX users_telegram_chat_key ON users (telegram_chat_id) WHERE telegram_chat_id IS NOT NULL`,
  `CREATE TABLE telegram_link_tokens (
     token_hash bytea PRIMARY KEY,
     chat_id text NOT NULL,
     created_at timestamptz NOT NULL,
     expires_at timestamptz NOT NULL,
     used_at timestamptz
   )`,
  `CREATE INDEX telegram_link_tokens_chat_idx ON telegram_link_tokens (chat_id)`,
  `CREATE TABLE alarm_deliveries (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     alarm_id uuid NOT NULL REFERENCES alarms(id) ON DELETE CASCADE,
     user_id uuid REFERENCES users(id) ON DELETE SET NULL,
     event text NOT NULL CHECK (event IN ('opened', 'ended')),
     channel text NOT NULL CHECK (channel IN ('push', 'email', 'sms', 'telegram', 'whatsapp')),
     recipient text NOT NULL,
     status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
     attempts integer NOT NULL DEFAULT 0,
     error text,
     created_at timestamptz NOT NULL,
     sent_at timestamptz,
     telegram_message_id text,
     ack_token_hash bytea UNIQUE,
     ack_used_at timestamptz
   )`,
  `CREATE UNIQUE INDEX alarm_deliveries_once ON alarm_deliveries (alarm_id, event, channel, user_id)`,
  `ALTER TABLE alarms ADD COLUMN notified_opened_at timestamptz, ADD COLUMN notified_ended_at timestamptz`,
  `UPDATE alarms SET notified_opened_at = created_at, notified_ended_at = CASE WHEN ended_at IS NULL THEN NULL ELSE created_at END`,
  `CREATE INDEX alarms_unannounced_idx ON alarms (created_at) WHERE notified_opened_at IS NULL OR (ended_at IS NOT NULL AND notified_ended_at IS NULL)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
