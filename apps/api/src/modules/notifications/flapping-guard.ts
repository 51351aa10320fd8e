import type { Db } from '../../db/database';

/**
 * What to do with an alarm's announcement under the flapping guard (ADR 24):
 * - 'announce': as usual;
 * - 'hold': not now (an alarm of the same device and type was announced less than K minutes ago, or an earlier one
 *   is still waiting): the minute sweep asks again, and the alarm is announced once the window has passed if it is
 *   still open;
 * - 'skip': never: the alarm ended while held (it is folded into the announced one: neither its opening nor its end
 *   is sent).
 */
export type FlapDecision = 'announce' | 'hold' | 'skip';

export async function flapDecision(db: Db, alarmId: string, event: 'opened' | 'ended', now: Date, windowMinutes: number): Promise<FlapDecision> {
  if (windowMinutes <= 0) return 'announce';
  const alarm = await db
    .selectFrom('alarms')
    .select(['id', 'device_id', 'type', 'started_at', 'active', 'notified_opened_at', 'folded'])
    .where('id', '=', alarmId)
    .executeTakeFirst();
  if (!alarm) return 'skip';
  if (alarm.folded) return 'skip';
  // An announced opening: this is a re-run, or its end, which is always told (people heard it opened).
  if (alarm.notified_opened_at !== null) return 'announce';
  const window = windowMinutes * 60_000;
  const announcedSince = new Date(now.getTime() - window);
  const startedSince = new Date(alarm.started_at.getTime() - window);
  const recent = await db
    .selectFrom('alarms')
    .select('id')
    .where('device_id', '=', alarm.device_id)
    .where('type', '=', alarm.type)
    .where('id', '<>', alarm.id)
    .where('folded', '=', false)
    .where('started_at', '<=', alarm.started_at)
    .where((eb) =>
      eb.or([
        // Told less than K minutes ago.
        eb('notified_opened_at', '>', announcedSince),
        // Started less than K minutes before this one and not decided yet: it goes first (jobs may run out of order).
        eb.and([eb('notified_opened_at', 'is', null), eb('started_at', '>', startedSince), eb('created_at', '>', new Date(now.getTime() - 86_400_000))]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  if (!recent) return 'announce';
  if (alarm.active) return 'hold';
  // Ended while held: folded into the announced alarm, and counts as announced so that the sweep leaves it alone.
  await db
    .updateTable('alarms')
    .set({ folded: true, notified_opened_at: now, notified_ended_at: now })
    .where('id', '=', alarm.id)
    .where('notified_opened_at', 'is', null)
    .execute();
  return 'skip';
}
