import { sql, type Kysely } from 'kysely';

/**
 * Fair report queue (ADR 13). Each queued report gets a turn: its enterprise's reports take consecutive turns, a
 * newcomer starts at the turn being served, and the job queue serves lower turns first, so enterprises alternate.
 * - queue_turn: the report's turn (0 for reports queued before this migration: served first, as they were).
 * - reports_queued_enterprise_idx: an enterprise's queued reports and its last turn (the cap and the next turn).
 * - reports_queued_user_idx: a user's queued reports (the cap per user).
 * - reports_queued_turn_idx: the turn being served (the lowest queued).
 */
const statements = [
  `ALTER TABLE reports ADD COLUMN queue_turn integer NOT NULL DEFAULT 0`,
  `CREATE INDEX reports_queued_enterprise_idx ON reports (enterprise_id, queue_turn) WHERE status = 1`,
  `CREATE INDEX reports_queued_user_idx ON reports (user_id) WHERE status = 1`,
  `CREATE INDEX reports_queued_turn_idx ON reports (queue_turn) WHERE status = 1`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
