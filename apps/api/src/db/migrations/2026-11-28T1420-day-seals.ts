import { sql, type Kysely } from 'kysely';

/**
 * Sealed days of readings (issue 24 point 3, ADR 0080, design in ADR 0078).
 * - `day_seals`: append-only (the audit trail's trigger refuses UPDATE, DELETE and TRUNCATE). One chain per enterprise,
 *   in `seq` order: each row's `prev_seal_sha256` is the `sha256` of the row before it (64 zeros for the first).
 *   `addendum` 0 is the day's seal; later ones record readings that arrived late for the day ('late') or that the
 *   retention removed ('retention'). `canonical` is the exact text hashed and signed (detached CMS in `signature`).
 * - `seal_marks`: the (device, hour) pairs of readings written behind the roll-up line, written with the roll-up marks
 *   in the same statement; the seal job turns those of sealed days into addenda and deletes them.
 */
const statements = [
  `CREATE TABLE day_seals (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id),
     seq integer NOT NULL CHECK (seq >= 1),
     day date NOT NULL,
     addendum integer NOT NULL CHECK (addendum >= 0),
     kind text NOT NULL CHECK (kind IN ('day', 'late', 'retention')),
     devices jsonb NOT NULL,
     prev_seal_sha256 text NOT NULL CHECK (prev_seal_sha256 ~ '^[0-9a-f]{64}$'),
     sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
     canonical text NOT NULL,
     signature bytea NOT NULL,
     sealed_at timestamptz NOT NULL,
     UNIQUE (enterprise_id, seq),
     UNIQUE (enterprise_id, day, addendum)
   )`,
  `CREATE TRIGGER day_seals_append_only BEFORE UPDATE OR DELETE ON day_seals FOR EACH ROW EXECUTE FUNCTION audit_refuse_change()`,
  `CREATE TRIGGER day_seals_no_truncate BEFORE TRUNCATE ON day_seals FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change()`,
  `CREATE TABLE seal_marks (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     device_num integer NOT NULL,
     bucket timestamptz NOT NULL
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
