import { sql, type Kysely } from 'kysely';

/**
 * Retention (issue 25 point 5, ADR 81): per enterprise, how long readings and report files are kept, and a legal hold
 * that keeps everything while it is on. Defaults: five years and a day (RDC 430 asks five years of records).
 * A report whose file the retention removed keeps its row (the audit trail names it) with the instant of the removal.
 */
const statements = [
  `ALTER TABLE enterprises
     ADD COLUMN readings_retention_days integer NOT NULL DEFAULT 1827 CHECK (readings_retention_days BETWEEN 30 AND 36600),
     ADD COLUMN report_files_retention_days integer NOT NULL DEFAULT 1827 CHECK (report_files_retention_days BETWEEN 30 AND 36600),
     ADD COLUMN legal_hold boolean NOT NULL DEFAULT false,
     ADD COLUMN legal_hold_reason text`,
  `ALTER TABLE reports ADD COLUMN file_removed_at timestamptz`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
