import { sql, type Kysely } from 'kysely';

/**
 * RFC 3161 timestamps of the seal chains (ADR 0091). After each run of the seal job, with REPORT_TSA_URL set, the head
 * of every enterprise's chain that has none gets a token from the TSA over its `canonical` text: the token's imprint
 * is the entry's `sha256`, and since each entry carries the hash of the one before, the token dates every earlier
 * entry of the chain too. Append-only, as the seals.
 */
const statements = [
  `CREATE TABLE seal_timestamps (
     enterprise_id uuid NOT NULL,
     seq integer NOT NULL,
     sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
     token bytea NOT NULL,
     stamped_at timestamptz NOT NULL,
     authority text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (enterprise_id, seq),
     FOREIGN KEY (enterprise_id, seq) REFERENCES day_seals (enterprise_id, seq)
   )`,
  `CREATE TRIGGER seal_timestamps_append_only BEFORE UPDATE OR DELETE ON seal_timestamps FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()`,
  `CREATE TRIGGER seal_timestamps_no_truncate BEFORE TRUNCATE ON seal_timestamps FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
