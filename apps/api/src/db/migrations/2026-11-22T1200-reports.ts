import { sql, type Kysely } from 'kysely';

/**
 * Reports (R1–R6). The table came with the initial schema; these are the reads its screens and jobs make.
 * - reports_user_idx: an ordinary user's list (their own reports, newest first).
 * - reports_created_idx: the super admin's list, newest first, and the period filter on it.
 * - reports_queued_idx: on start, the reports still waiting for their file; partial, as nearly all are done.
 * The job queue's own tables (schema pgboss) are created and migrated by pg-boss itself at start.
 */
const statements = [
  `CREATE INDEX reports_user_idx ON reports (user_id, created_at DESC)`,
  `CREATE INDEX reports_created_idx ON reports (created_at DESC)`,
  `CREATE INDEX reports_queued_idx ON reports (created_at) WHERE status = 1`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
