import { sql, type Kysely } from 'kysely';

/**
 * Reminders, escalation and the flapping guard (issue 11 item 4; ADR 24).
 * - enterprises.reminder_minutes / escalation_minutes: N and M of the enterprise (0 turns either off).
 * - alarms.reminder_seq: the last reminder queued for the alarm (reminder k is due k·N minutes after its opening was
 *   announced); alarms.escalated_at: when its enterprise's administrators were told; alarms.folded: the alarm was
 *   never announced because it re-opened too soon after an announced alarm of the same device and type (flapping).
 * - alarm_deliveries: events 'reminder' and 'escalated', a sequence (the reminder's number) in the uniqueness, so that
 *   each reminder is delivered once even when two sweeps run it; 'cancelled' for a reminder that lost its reason
 *   (the alarm was acknowledged or ended) before it went out.
 * Alarms open before this migration are neither reminded nor escalated (as ADR 21 left them unannounced: nobody wants
 * a burst of messages about last month's alarms on the day of the upgrade): marked escalated, with a reminder number
 * no alarm reaches.
 */
const statements = [
  `ALTER TABLE enterprises
     ADD COLUMN reminder_minutes integer NOT NULL DEFAULT 30 CHECK (reminder_minutes = 0 OR reminder_minutes BETWEEN 5 AND 1440),
     ADD COLUMN escalation_minutes integer NOT NULL DEFAULT 60 CHECK (escalation_minutes = 0 OR escalation_minutes BETWEEN 5 AND 1440)`,
  `ALTER TABLE alarms
     ADD COLUMN reminder_seq integer NOT NULL DEFAULT 0,
     ADD COLUMN escalated_at timestamptz,
     ADD COLUMN folded boolean NOT NULL DEFAULT false`,
  `UPDATE alarms SET escalated_at = now(), reminder_seq = 1000000 WHERE active`,
  `CREATE INDEX alarms_unacknowledged_open_idx ON alarms (notified_opened_at) WHERE active AND acknowledged_at IS NULL AND notified_opened_at IS NOT NULL`,
  `CREATE INDEX alarms_device_type_idx ON alarms (device_id, type, started_at)`,
  `ALTER TABLE alarm_deliveries DROP CONSTRAINT alarm_deliveries_event_check`,
  `ALTER TABLE alarm_deliveries ADD CONSTRAINT alarm_deliveries_event_check CHECK (event IN ('opened', 'ended', 'reminder', 'escalated'))`,
  `ALTER TABLE alarm_deliveries DROP CONSTRAINT alarm_deliveries_status_check`,
  `ALTER TABLE alarm_deliveries ADD CONSTRAINT alarm_deliveries_status_check CHECK (status IN ('pending', 'sent', 'failed', 'cancelled'))`,
  `ALTER TABLE alarm_deliveries ADD COLUMN seq integer NOT NULL DEFAULT 0`,
  `DROP INDEX alarm_deliveries_once`,
  `CREATE UNIQUE INDEX alarm_deliveries_once ON alarm_deliveries (alarm_id, event, seq, channel, user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
