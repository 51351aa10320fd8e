import { pluralize, type PushSubscriptionInfo } from '@sentinela/contract';
import type { Db } from '../../db/database';

export async function listSubscriptions(db: Db, userId: string): Promise<PushSubscriptionInfo[]> {
  const rows = await db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map((r) => ({ _id: r.id, endpoint: r.endpoint, created_at: r.created_at.toISOString() }));
}

export async function subscriptionsOf(db: Db, userId: string) {
  return db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function countSubscriptions(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('push_subscriptions').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * With no browser left, the push channel is turned off: an "on" toggle means messages arrive (ADR 21), and the
 * settings screen then offers to subscribe this browser again.
 */
export async function turnOffPushWithoutBrowsers(db: Db, userIds: readonly string[]): Promise<void> {
  for (const userId of new Set(userIds)) {
    if ((await countSubscriptions(db, userId)) === 0) {
      await db.deleteFrom('notification_channels').where('user_id', '=', userId).where('channel', '=', 'push').execute();
    }
  }
}

/** The delivery log's recipient of a push delivery: how many browsers it reached (shown as "Push de <name> (N navegadores)"). */
export async function recordPushRecipients(db: Db, deliveryId: string, browsers: number): Promise<void> {
  await db.updateTable('alarm_deliveries').set({ recipient: String(browsers) }).where('id', '=', deliveryId).execute();
}

/** "Push de João Silva (2 navegadores)": the delivery log's words for a push delivery's recipient. */
export function pushRecipientText(userName: string | null, recipient: string): string {
  const n = /^\d+$/.test(recipient) ? Number(recipient) : null;
  return `Push de ${userName ?? 'usuário removido'}${n === null ? '' : ` (${pluralize(n, 'navegador', 'navegadores')})`}`;
}
