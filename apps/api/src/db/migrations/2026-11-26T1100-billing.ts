import { sql, type Kysely } from 'kysely';

/**
 * Invoices and payment by PIX (issue 13 items 2–4, ADR 27).
 * - subscriptions: a status (trial, active, overdue, cancelled) and when an overdue one was restricted.
 * - invoices: the sample columns (value in numeric reais, a pending flag, free mode/transaction) give way to a real
 *   invoice: sequential number, period, plan and cycle as charged, amount in integer centavos, status, the PIX txid
 *   (unique), due date, and how it was settled (webhook's endToEndId, or by hand with who and why). One invoice per
 *   enterprise and period start unless cancelled: the cycle job issues each period once.
 * - pix_received: every PIX the PSP's webhook told of, by endToEndId (replays change nothing), with what came of it.
 */
const statements = [
  `ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS status text NOT NULL DEFAULT 'active'`,
  `ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_billing_status_check CHECK (status IN ('trial', 'active', 'overdue', 'cancelled'))`,
  `ALTER TABLE subscriptions ADD COLUMN restricted_at timestamptz`,
  `CREATE SEQUENCE invoice_number_seq`,
  `DELETE FROM invoices`,
  `ALTER TABLE invoices DROP COLUMN mode, DROP COLUMN transaction, DROP COLUMN value, DROP COLUMN pending`,
  `ALTER TABLE invoices
     ADD COLUMN number integer NOT NULL UNIQUE DEFAULT nextval('invoice_number_seq'),
     ADD COLUMN plan_cycle_id uuid REFERENCES plan_cycles(id) ON DELETE SET NULL,
     ADD COLUMN plan_name text NOT NULL,
     ADD COLUMN cycle_name text NOT NULL,
     ADD COLUMN period_start timestamptz NOT NULL,
     ADD COLUMN period_end timestamptz NOT NULL,
     ADD COLUMN due_at timestamptz NOT NULL,
     ADD COLUMN amount_cents integer NOT NULL CHECK (amount_cents > 0),
     ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'overdue', 'cancelled')),
     ADD COLUMN txid text NOT NULL UNIQUE CHECK (txid ~ '^[A-Za-z0-9]{1,35}$'),
     ADD COLUMN paid_end_to_end_id text,
     ADD COLUMN paid_by uuid REFERENCES users(id) ON DELETE SET NULL,
     ADD COLUMN paid_reason text,
     ADD CONSTRAINT invoices_period_check CHECK (period_end > period_start)`,
  `ALTER TABLE invoices ALTER COLUMN method SET DEFAULT 'pix'`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_method_check CHECK (method IN ('pix', 'manual'))`,
  `ALTER SEQUENCE invoice_number_seq OWNED BY invoices.number`,
  `CREATE UNIQUE INDEX invoices_one_per_period ON invoices (enterprise_id, period_start) WHERE status <> 'cancelled'`,
  `CREATE INDEX invoices_enterprise_idx ON invoices (enterprise_id, issued_at DESC)`,
  `CREATE INDEX invoices_open_idx ON invoices (due_at) WHERE status IN ('pending', 'overdue')`,
  `CREATE TABLE pix_received (
     end_to_end_id text PRIMARY KEY,
     txid text,
     amount_cents bigint NOT NULL,
     paid_at timestamptz NOT NULL,
     received_at timestamptz NOT NULL,
     invoice_id uuid REFERENCES invoices(id) ON DELETE SET NULL,
     outcome text NOT NULL CHECK (outcome IN ('paid', 'unknown_txid', 'amount_mismatch', 'not_payable'))
   )`,
  `CREATE INDEX pix_received_invoice_idx ON pix_received (invoice_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
