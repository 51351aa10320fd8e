import { sql, type Kysely } from 'kysely';

/**
 * Ingestion and alarms (D5, D6).
 * - ingest_rejections counts rejected readings per gateway, day and reason, so a rejection is never silent.
 * - gateways.last_seen_at tells admins which gateways are alive.
 * - alarm_excursions holds an excursion that has not lasted a device's out_of_range_minutes yet: once it
 *   does, it becomes an alarm; back in range first, it is forgotten.
 */
const statements = [
  `CREATE TABLE ingest_rejections (
     gateway_id uuid NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
     day date NOT NULL,
     reason text NOT NULL,
     count bigint NOT NULL,
     last_mac text,
     last_at timestamptz NOT NULL,
     PRIMARY KEY (gateway_id, day, reason)
   )`,
  `ALTER TABLE gateways ADD COLUMN last_seen_at timestamptz`,
  `CREATE INDEX gateways_enterprise_idx ON gateways (enterprise_id)`,
  `CREATE TABLE alarm_excursions (
     device_id uuid NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     type text NOT NULL,
     started_at timestamptz NOT NULL,
     last_at timestamptz NOT NULL,
     temperature_min real, temperature_max real,
     humidity_min real, humidity_max real,
     PRIMARY KEY (device_id, type)
   )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
