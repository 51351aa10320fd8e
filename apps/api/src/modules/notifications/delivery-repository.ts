import { Profile, type AlarmDelivery, type NotificationChannel } from '@sentinela/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { pushRecipientText } from '../push/repository';
import { brazilianMobile } from './channels/phone-number';

/** An alarm with what its messages say about it. */
export async function findAlarmFacts(db: Db, alarmId: string) {
  return db
    .selectFrom('alarms as a')
    .innerJoin('devices as d', 'd.id', 'a.device_id')
    .leftJoin('travels as t', 't.id', 'a.travel_id')
    .leftJoin('travel_devices as td', (join) => join.onRef('td.travel_id', '=', 'a.travel_id').onRef('td.device_id', '=', 'a.device_id'))
    .leftJoin('users as u', 'u.id', 'a.acknowledged_by')
    .select([
      'a.id', 'a.type', 'a.message', 'a.started_at', 'a.ended_at', 'a.temperature_min', 'a.temperature_max', 'a.humidity_min', 'a.humidity_max',
      'a.acknowledged_at', 'u.name as acknowledged_by_name',
      'd.id as device_id', 'd.mac', 'd.name as device_name', 'd.enterprise_id',
      't.code as travel_code', 't.origin_address', 't.destiny_address', 'td.name as travel_device_name',
    ])
    .where('a.id', '=', alarmId)
    .executeTakeFirst();
}
export type AlarmFactsRow = NonNullable<Awaited<ReturnType<typeof findAlarmFacts>>>;

export interface Recipient {
  userId: string;
  channel: NotificationChannel;
  recipient: string;
}

/** Which of the channels that need a server setting have one here (e-mail always goes: to the outbox at least). */
export type ConfiguredChannels = Record<'telegram' | 'sms' | 'whatsapp', boolean>;

/**
 * Who hears of a device's alarm, and where: active users of the device's enterprise who may see the device (its
 * administrators, and users linked to it), through each delivered channel they turned on and can use. Platform
 * administrators see every enterprise's devices but are not sent every enterprise's alarms (ADR 21).
 */
export async function recipientsOf(
  db: Db,
  device: { id: string; enterpriseId: string },
  configured: ConfiguredChannels,
): Promise<Recipient[]> {
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('notification_channels as nc', 'nc.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.verified', 'u.telegram_chat_id', 'u.phone', 'nc.channel'])
    .where('u.enterprise_id', '=', device.enterpriseId)
    .where('u.disabled', '=', false)
    .where('nc.channel', 'in', ['email', 'telegram', 'sms', 'whatsapp', 'push'])
    .where((eb) =>
      eb.or([
        eb('u.profile_id', '=', Profile.EnterpriseAdmin),
        eb.exists(eb.selectFrom('device_users as du').select('du.device_id').whereRef('du.user_id', '=', 'u.id').where('du.device_id', '=', device.id)),
      ]),
    )
    .orderBy('u.id')
    .execute();
  const out: Recipient[] = [];
  for (const r of rows) {
    if (r.channel === 'email' && r.verified) out.push({ userId: r.id, channel: 'email', recipient: r.email });
    if (r.channel === 'telegram' && configured.telegram && r.telegram_chat_id) out.push({ userId: r.id, channel: 'telegram', recipient: r.telegram_chat_id });
    // SMS and WhatsApp (ADR 23): to the profile's mobile as it is now, in E.164; a phone removed or no longer valid is skipped.
    if ((r.channel === 'sms' || r.channel === 'whatsapp') && configured[r.channel]) {
      const mobile = brazilianMobile(r.phone);
      if (mobile.ok) out.push({ userId: r.id, channel: r.channel, recipient: mobile.e164 });
    }
    // The browsers are looked up when sending; the log then says how many were reached.
    if (r.channel === 'push') out.push({ userId: r.id, channel: 'push', recipient: 'push' });
  }
  return out;
}

/**
 * Records the deliveries to make (once per alarm, event, number, channel and user); returns the new ones' ids.
 * `seq` numbers the reminders (ADR 24); it is 0 for an opening or an end.
 */
export async function insertDeliveries(
  db: Db,
  alarmId: string,
  event: 'opened' | 'ended' | 'reminder' | 'escalated',
  recipients: readonly Recipient[],
  at: Date,
  seq = 0,
): Promise<string[]> {
  if (recipients.length === 0) return [];
  const rows = await db
    .insertInto('alarm_deliveries')
    .values(recipients.map((r) => ({ alarm_id: alarmId, user_id: r.userId, event, seq, channel: r.channel, recipient: r.recipient, status: 'pending' as const, created_at: at })))
    .onConflict((oc) => oc.columns(['alarm_id', 'event', 'seq', 'channel', 'user_id']).doNothing())
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function findDelivery(db: Db, id: string) {
  return db.selectFrom('alarm_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function recordAttempt(db: Db, id: string): Promise<void> {
  await db.updateTable('alarm_deliveries').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', id).execute();
}

export async function recordSent(db: Db, id: string, at: Date, telegramMessageId: number | null): Promise<void> {
  await db
    .updateTable('alarm_deliveries')
    .set({ status: 'sent', sent_at: at, error: null, telegram_message_id: telegramMessageId === null ? null : String(telegramMessageId) })
    .where('id', '=', id)
    .execute();
}

/** A reminder or escalation that lost its reason (the alarm was acknowledged or ended) before it went out. */
export async function recordCancelled(db: Db, id: string): Promise<void> {
  await db.updateTable('alarm_deliveries').set({ status: 'cancelled' }).where('id', '=', id).where('status', '=', 'pending').execute();
}

export async function recordError(db: Db, id: string, error: string, final: boolean): Promise<void> {
  await db
    .updateTable('alarm_deliveries')
    .set({ error: error.slice(0, 500), ...(final ? { status: 'failed' as const } : {}) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function setAckToken(db: Db, id: string, hash: Buffer): Promise<void> {
  await db.updateTable('alarm_deliveries').set({ ack_token_hash: hash }).where('id', '=', id).execute();
}

export async function findDeliveryByAckToken(db: Db, hash: Buffer) {
  return db.selectFrom('alarm_deliveries').selectAll().where('ack_token_hash', '=', hash).executeTakeFirst();
}

/** Spends a button's token; false when it was spent already (a replayed press). */
export async function spendAckToken(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db.updateTable('alarm_deliveries').set({ ack_used_at: at }).where('id', '=', id).where('ack_used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The delivery log of an alarm, oldest first. */
export async function listDeliveries(db: Db, alarmId: string): Promise<AlarmDelivery[]> {
  const rows = await db
    .selectFrom('alarm_deliveries as ad')
    .leftJoin('users as u', 'u.id', 'ad.user_id')
    .select(['ad.id', 'ad.event', 'ad.seq', 'ad.channel', 'ad.recipient', 'ad.status', 'ad.attempts', 'ad.error', 'ad.created_at', 'ad.sent_at', 'ad.user_id', 'u.name as user_name'])
    .where('ad.alarm_id', '=', alarmId)
    .orderBy('ad.created_at')
    .orderBy(sql`ad.event = 'ended'`)
    .orderBy('ad.channel')
    .orderBy('u.name')
    .execute();
  return rows.map((r) => ({
    _id: r.id,
    event: r.event,
    seq: r.seq,
    channel: r.channel as NotificationChannel,
    // A chat id says nothing to a reader: the channel and the person do.
    recipient: r.channel === 'telegram' ? `Telegram de ${r.user_name ?? 'usuário removido'}` : r.channel === 'push' ? pushRecipientText(r.user_name, r.recipient) : r.recipient,
    user: r.user_id && r.user_name ? { _id: r.user_id, name: r.user_name } : null,
    status: r.status,
    attempts: r.attempts,
    error: r.error,
    created_at: r.created_at.toISOString(),
    sent_at: r.sent_at ? r.sent_at.toISOString() : null,
  }));
}

export async function markAnnounced(db: Db, alarmId: string, event: 'opened' | 'ended', at: Date): Promise<void> {
  await db
    .updateTable('alarms')
    .set(event === 'opened' ? { notified_opened_at: at } : { notified_ended_at: at })
    .where('id', '=', alarmId)
    .execute();
}

/** Openings (a minute old at least) and ends of the last day's alarms not announced yet. */
export async function findUnannounced(db: Db, now: Date): Promise<Array<{ alarmId: string; event: 'opened' | 'ended' }>> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const minuteAgo = new Date(now.getTime() - 60_000);
  const rows = await db
    .selectFrom('alarms')
    .select(['id', 'created_at', 'ended_at', 'notified_opened_at', 'notified_ended_at'])
    .where('created_at', '>', dayAgo)
    .where((eb) => eb.or([eb('notified_opened_at', 'is', null), eb.and([eb('ended_at', 'is not', null), eb('notified_ended_at', 'is', null)])]))
    .orderBy('created_at')
    .limit(500)
    .execute();
  const out: Array<{ alarmId: string; event: 'opened' | 'ended' }> = [];
  for (const r of rows) {
    if (r.notified_opened_at === null && r.created_at <= minuteAgo) out.push({ alarmId: r.id, event: 'opened' });
    if (r.ended_at !== null && r.notified_ended_at === null && r.created_at <= minuteAgo) out.push({ alarmId: r.id, event: 'ended' });
  }
  return out;
}
