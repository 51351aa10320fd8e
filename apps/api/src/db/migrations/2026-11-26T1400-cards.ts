import { sql, type Kysely } from 'kysely';

/**
 * Payment cards tokenised by a provider (issue 13 item 4, ADR 31).
 * - payment_cards: the sample columns (free-text expiry) give way to what the provider answered for the stored card:
 *   provider and its card id, brand, last four digits, holder, expiry month and year. No number, no security code:
 *   they never reach this server. The table held sample data only (no screen wrote it), so it starts empty.
 * - one main card per enterprise (the documents' "Cartão Principal"), by a partial unique index.
 * - payment_customers: the provider's customer of each enterprise, made when its first card is added.
 */
const statements = [
  `DELETE FROM payment_cards`,
  `ALTER TABLE payment_cards DROP COLUMN expiry`,
  `ALTER TABLE payment_cards
     ADD COLUMN provider text NOT NULL,
     ADD COLUMN provider_card_id text NOT NULL,
     ADD COLUMN exp_month smallint NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
     ADD COLUMN exp_year smallint NOT NULL CHECK (exp_year BETWEEN 2000 AND 2200),
     ADD CONSTRAINT payment_cards_last4_check CHECK (last4 ~ '^[0-9]{4}$')`,
  `CREATE UNIQUE INDEX payment_cards_provider_card_idx ON payment_cards (provider, provider_card_id)`,
  `CREATE UNIQUE INDEX payment_cards_one_main_idx ON payment_cards (enterprise_id) WHERE is_main`,
  `CREATE INDEX payment_cards_enterprise_idx ON payment_cards (enterprise_id, created_at)`,
  `CREATE TABLE payment_customers (
     enterprise_id uuid NOT NULL REFERENCES enterprises(id) ON DELETE CASCADE,
     provider text NOT NULL,
     customer_id text NOT NULL,
     created_at timestamptz NOT NULL,
     PRIMARY KEY (enterprise_id, provider)
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
