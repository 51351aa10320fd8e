import { sql, type Kysely } from 'kysely';

/**
 * The firmware version a device reports on ingestion (issue 26, D7): stored on the device, and each change recorded
 * as a "Firmware" device event. Null until a device says. A nullable column without default: a catalogue change.
 * The audit trail's update trigger on devices is rebuilt so that it knows this column and `linked_at` (a firmware
 * change is the device's own, a link the user's: both audited).
 */
const statements = [
  `ALTER TABLE devices ADD COLUMN firmware_version text CHECK (firmware_version IS NULL OR length(firmware_version) <= 32)`,
  `SELECT audit_refresh('devices')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
