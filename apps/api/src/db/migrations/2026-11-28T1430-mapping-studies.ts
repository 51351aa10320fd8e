import { sql, type Kysely } from 'kysely';

/**
 * Thermal mapping studies (X12, issue 24 point 4, ADR 0083).
 *
 * - `mapping_studies`: one study of an enterprise (a cold room, a vehicle): its name, optional location, period and
 *   temperature range, and the report that holds its signed PDF (made by the report queue, kind 'mapping-study').
 * - `mapping_study_sensors`: its sensors in the order they were chosen, with the MAC and name they had then (the
 *   report says which sensor was where, even after a device is renamed).
 * Both are written once and audited in the enterprise's chain.
 */
const statements = [
  `CREATE TABLE mapping_studies (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL REFERENCES enterprises(id),
     user_id uuid REFERENCES users(id),
     location_id uuid REFERENCES locations(id) ON DELETE SET NULL,
     report_id uuid NOT NULL UNIQUE REFERENCES reports(id),
     name text NOT NULL,
     period_from timestamptz NOT NULL,
     period_to timestamptz NOT NULL,
     temperature_min real NOT NULL,
     temperature_max real NOT NULL,
     created_at timestamptz NOT NULL,
     CHECK (period_from < period_to),
     CHECK (temperature_min < temperature_max)
   )`,
  `CREATE INDEX mapping_studies_enterprise_idx ON mapping_studies (enterprise_id, created_at DESC)`,
  `CREATE TABLE mapping_study_sensors (
     study_id uuid NOT NULL REFERENCES mapping_studies(id),
     position smallint NOT NULL,
     device_id uuid REFERENCES devices(id) ON DELETE SET NULL,
     mac text NOT NULL,
     name text NOT NULL,
     PRIMARY KEY (study_id, position)
   )`,
  `SELECT audit_attach('mapping_studies', 'mapping_study', 'enterprise_id')`,
  `SELECT audit_attach('mapping_study_sensors', 'mapping_study_sensor', 'study_id:mapping_studies', 'study_id')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
