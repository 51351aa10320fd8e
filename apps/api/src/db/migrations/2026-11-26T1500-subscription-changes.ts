import { sql, type Kysely } from 'kysely';

/**
 * Subscription changes on /plans (issue 13 item 1, ADR 32).
 * - invoices.kind: 'cycle' for a period's invoice, 'proration' for the difference an upgrade charges for the days
 *   left. Only cycle invoices are one per (enterprise, period start) and drive the next period; a pro-rated invoice
 *   starts at the moment of the upgrade and may share that instant with nothing.
 * - invoices.plan_change_from: the cycle the enterprise left with the upgrade (shown on the pro-rated invoice).
 */
const statements = [
  `ALTER TABLE invoices ADD COLUMN kind text NOT NULL DEFAULT 'cycle' CHECK (kind IN ('cycle', 'proration'))`,
  `ALTER TABLE invoices ADD COLUMN plan_change_from uuid REFERENCES plan_cycles(id) ON DELETE SET NULL`,
  `DROP INDEX invoices_one_per_period`,
  `CREATE UNIQUE INDEX invoices_one_per_period ON invoices (enterprise_id, period_start) WHERE status <> 'cancelled' AND kind = 'cycle'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
