import { sql, type RawBuilder } from 'kysely';
import type { WebhookEvent } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { textArray } from '../../lib/pg-arrays';

/**
 * The webhook outbox (ADR 66): events are written as deliveries, one per enabled webhook of the event's enterprise
 * that listens to it, by the transaction that makes the event happen, so an event is announced if and only if it
 * committed. Each call is one INSERT … SELECT whatever the number of events and webhooks (a batch of readings that
 * opened alarms costs one statement more, and none when it opened none). Jobs are queued after the commit
 * (WebhookService.relay), and a sweep queues what a stopped process did not.
 */

/** An instant as JSON text in UTC with milliseconds, whatever the session's time zone. */
const isoUtc = (column: string): RawBuilder<string> => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The deliveries of events to the enterprise's webhooks that listen to them. `events` holds (enterprise, type, data jsonb). */
function insertDeliveries(eventsSql: RawBuilder<unknown>, at: Date): RawBuilder<unknown> {
  const when = at.toISOString();
  return sql`
    INSERT INTO webhook_deliveries (webhook_id, message_id, event, payload, next_attempt_at, created_at)
    SELECT w.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), ev.type,
      jsonb_build_object('type', ev.type, 'timestamp', ${when}::text, 'data', ev.data)::text,
      ${when}::timestamptz, ${when}::timestamptz
    FROM (${eventsSql}) AS ev(enterprise_id, type, data)
    JOIN webhooks w ON w.enterprise_id = ev.enterprise_id AND w.enabled AND ev.type = ANY(w.events)`;
}

export type AlarmWebhookEvent = 'alarm.opened' | 'alarm.ended' | 'alarm.acknowledged' | 'device.silent';

/**
 * Alarm events (and `device.silent`, the opening of a "no data" alarm), their data read from the alarm and device
 * rows as the transaction sees them. Devices without an enterprise have no webhooks.
 */
export async function recordAlarmEvents(trx: Db, events: readonly { alarmId: string; type: AlarmWebhookEvent }[], at: Date): Promise<void> {
  if (events.length === 0) return;
  const facts = sql`
    SELECT d.enterprise_id, e.type,
      CASE WHEN e.type = 'device.silent' THEN jsonb_build_object(
        'device', jsonb_build_object('_id', d.id, 'mac', d.mac, 'name', d.name),
        'last_sync_at', ${isoUtc('d.last_sync_at')}, 'no_data_minutes', d.no_data_minutes, 'alarm_id', a.id)
      ELSE jsonb_build_object(
        'alarm', jsonb_build_object('_id', a.id, 'type', a.type, 'message', a.message, 'active', a.active,
          'started_at', ${isoUtc('a.started_at')}, 'ended_at', ${isoUtc('a.ended_at')},
          'temperature', jsonb_build_object('min', a.temperature_min, 'max', a.temperature_max),
          'humidity', jsonb_build_object('min', a.humidity_min, 'max', a.humidity_max),
          'acknowledged', CASE WHEN a.acknowledged_at IS NULL THEN NULL ELSE jsonb_build_object(
            'at', ${isoUtc('a.acknowledged_at')}, 'message', coalesce(a.acknowledge_message, ''),
            'by', CASE WHEN u.id IS NULL THEN NULL ELSE jsonb_build_object('_id', u.id, 'name', u.name) END) END),
        'device', jsonb_build_object('_id', d.id, 'mac', d.mac, 'name', d.name),
        'travel_id', a.travel_id) END
    FROM unnest(${textArray(events.map((e) => e.alarmId))}::uuid[], ${textArray(events.map((e) => e.type))}::text[]) AS e(alarm_id, type)
    JOIN alarms a ON a.id = e.alarm_id
    JOIN devices d ON d.id = a.device_id
    LEFT JOIN users u ON u.id = a.acknowledged_by
    WHERE d.enterprise_id IS NOT NULL`;
  await insertDeliveries(facts, at).execute(trx);
}

/** Events whose data the caller holds (travels, reports): one statement for all of them. */
export async function recordEvents(trx: Db, events: readonly { enterpriseId: string; type: WebhookEvent; data: object }[], at: Date): Promise<void> {
  if (events.length === 0) return;
  const facts = sql`
    SELECT e.enterprise_id, e.type, e.data::jsonb
    FROM unnest(${textArray(events.map((e) => e.enterpriseId))}::uuid[], ${textArray(events.map((e) => e.type))}::text[],
      ${textArray(events.map((e) => JSON.stringify(e.data)))}::text[]) AS e(enterprise_id, type, data)`;
  await insertDeliveries(facts, at).execute(trx);
}
