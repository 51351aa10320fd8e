import { sql, type Kysely } from 'kysely';

/**
 * Locais (A8, ADR 0020): names are unique where people pick them from a list.
 * - locations_enterprise_name_key: one location of a name per enterprise (case-insensitive).
 * - device_groups_location_name_key: one group of a name per location (case-insensitive).
 * - devices_location_idx: the devices of a location (counts, the map, removing a location).
 */
const statements = [
  `CREATE UNIQUE INDEX locations_enterprise_name_key ON locations (enterprise_id, lower(name))`,
  `CREATE UNIQUE INDEX device_groups_location_name_key ON device_groups (location_id, lower(name))`,
  `CREATE INDEX devices_location_idx ON devices (location_id) WHERE location_id IS NOT NULL`,
  `CREATE INDEX devices_group_idx ON devices (group_id) WHERE group_id IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
