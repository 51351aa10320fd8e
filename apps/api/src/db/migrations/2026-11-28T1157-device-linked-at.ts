import { sql, type Kysely } from 'kysely';

/**
 * When a device was linked to its current enterprise (issue 26): coverage counts from the later of the period's
 * start and the moment the device came into service (registered, or linked), so the time before it was anyone's is
 * not "missing data". Devices already linked get the time of their last link event, when there is one.
 */
const statements = [
  `ALTER TABLE devices ADD COLUMN linked_at timestamptz`,
  `UPDATE devices d SET linked_at = e.at
     FROM (SELECT device_id, max(created_at) AS at FROM device_events
           WHERE type = 'link' AND message LIKE 'Vinculado à empresa %' GROUP BY device_id) e
    WHERE e.device_id = d.id AND d.enterprise_id IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
