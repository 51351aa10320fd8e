import { sql, type Kysely } from 'kysely';

/**
 * A pro-rated upgrade invoice says what it is (issue 26, ADR 75): it kept only the new plan's name and cycle, so it
 * read as a whole period of that plan. Prices are snapshots taken when the invoice is issued, like its plan and
 * cycle names: a later price change does not rewrite an invoice.
 * - plan_price_cents: the full price of the invoiced plan's cycle (a pro-rated invoice shows it for reference);
 * - previous_plan_name, previous_cycle_name, previous_price_cents: the plan the upgrade left.
 * Pro-rated invoices issued before are filled from the cycles they refer to (their prices as they are now).
 */
const statements = [
  `ALTER TABLE invoices ADD COLUMN plan_price_cents integer CHECK (plan_price_cents >= 0)`,
  `ALTER TABLE invoices ADD COLUMN previous_plan_name text`,
  `ALTER TABLE invoices ADD COLUMN previous_cycle_name text`,
  `ALTER TABLE invoices ADD COLUMN previous_price_cents integer CHECK (previous_price_cents >= 0)`,
  `UPDATE invoices i SET plan_price_cents = round(c.value * 100)::integer
     FROM plan_cycles c WHERE c.id = i.plan_cycle_id AND i.kind = 'proration'`,
  `UPDATE invoices i SET previous_plan_name = p.name, previous_cycle_name = c.name, previous_price_cents = round(c.value * 100)::integer
     FROM plan_cycles c JOIN plans p ON p.id = c.plan_id WHERE c.id = i.plan_change_from AND i.kind = 'proration'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
