import { createECDH } from 'node:crypto';
import { PUSH_MESSAGES, type PushSubscriptionBody, type PushSubscriptionInfo } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { OutgoingClient } from '../../lib/outgoing/outgoing-client';
import { sendPush } from './push-sender';
import { listSubscriptions, subscriptionsOf, turnOffPushWithoutBrowsers } from './repository';
import { loadVapidKeys, type VapidKeys } from './vapid-keys';

/** Browsers one user may have subscribed at once; a new one beyond it replaces the oldest (ADR 22). */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 10;

/** What a push message carries; the service worker shows title and body and opens url on a click. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export interface PushOutcome {
  /** Browsers whose push service accepted the message. */
  reached: number;
  /** Subscriptions the push service said are gone (404/410), now removed. */
  removed: number;
  /** Browsers still subscribed that could not be reached this time, with why. */
  errors: string[];
}

type PushConfig = Pick<AppConfig, 'vapidPublicKey' | 'vapidPrivateKey' | 'vapidKeysFile' | 'vapidSubject'>;

/** Web push (D6, ADR 22): the server's VAPID key, users' browser subscriptions, and sending to them. */
export class PushService {
  private keys: Promise<VapidKeys> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: PushConfig,
    private readonly outgoing: OutgoingClient,
    private readonly log: { warn(obj: unknown, msg: string): void },
  ) {}

  /** The VAPID key pair, loaded (or made) on first need; a failure is tried again next time. */
  vapidKeys(): Promise<VapidKeys> {
    this.keys ??= loadVapidKeys(this.config).catch((error: unknown) => {
      this.keys = null;
      throw error;
    });
    return this.keys;
  }

  async publicKey(): Promise<string> {
    return (await this.vapidKeys()).publicKey;
  }

  list(userId: string): Promise<PushSubscriptionInfo[]> {
    return listSubscriptions(this.db, userId);
  }

  /**
   * Keeps a browser's subscription for the user. An endpoint belongs to one user: subscribing it again (another
   * person signed in on that browser) moves it to the caller, with the keys the browser gives now.
   */
  async subscribe(userId: string, body: PushSubscriptionBody): Promise<PushSubscriptionInfo> {
    if (!(await this.outgoing.destinationAllowed(body.endpoint))) throw new AppError('VALIDATION', PUSH_MESSAGES.endpointRefused);
    const p256dh = Buffer.from(body.keys.p256dh, 'base64url');
    if (p256dh.length !== 65 || p256dh[0] !== 0x04 || !onCurve(p256dh)) throw new AppError('VALIDATION', PUSH_MESSAGES.p256dh);
    if (Buffer.from(body.keys.auth, 'base64url').length !== 16) throw new AppError('VALIDATION', PUSH_MESSAGES.auth);
    const now = this.clock.now();
    const movedFrom = await this.db.transaction().execute(async (trx) => {
      const previous = await trx.selectFrom('push_subscriptions').select('user_id').where('endpoint', '=', body.endpoint).forUpdate().executeTakeFirst();
      await trx
        .insertInto('push_subscriptions')
        .values({ user_id: userId, endpoint: body.endpoint, p256dh: p256dh.toString('base64url'), auth: body.keys.auth.replace(/=+$/, ''), created_at: now })
        .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, p256dh: p256dh.toString('base64url'), auth: body.keys.auth.replace(/=+$/, ''), created_at: now }))
        .execute();
      // Beyond the cap, the browsers subscribed longest ago give way.
      const surplus = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .offset(MAX_PUSH_SUBSCRIPTIONS_PER_USER)
        .limit(1000)
        .execute();
      if (surplus.length > 0) await trx.deleteFrom('push_subscriptions').where('id', 'in', surplus.map((s) => s.id)).execute();
      return previous && previous.user_id !== userId ? previous.user_id : null;
    });
    if (movedFrom) await turnOffPushWithoutBrowsers(this.db, [movedFrom]);
    const mine = await listSubscriptions(this.db, userId);
    const created = mine.find((s) => s.endpoint === body.endpoint);
    if (!created) throw new Error('push subscription vanished after it was stored');
    return created;
  }

  /** Forgets this browser (the caller's own subscription only: another user's endpoint is "not found"). */
  async unsubscribe(userId: string, endpoint: string): Promise<void> {
    const result = await this.db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(PUSH_MESSAGES.notFound);
    await turnOffPushWithoutBrowsers(this.db, [userId]);
  }

  /**
   * Sends a message to every browser of the user. A subscription its push service calls gone (404, 410) is removed;
   * other failures are left for the delivery job's retry.
   */
  async sendToUser(userId: string, payload: PushPayload): Promise<PushOutcome> {
    const keys = await this.vapidKeys();
    const targets = await subscriptionsOf(this.db, userId);
    const text = JSON.stringify(payload);
    const results = await Promise.all(
      targets.map((t) => sendPush(this.outgoing, t, text, { ...keys, subject: this.config.vapidSubject })),
    );
    for (const [i, result] of results.entries()) {
      if (result.detail) this.log.warn({ userId, subscriptionId: targets[i]!.id, detail: result.detail }, 'push not delivered to a browser');
    }
    const gone = targets.filter((_t, i) => results[i]!.status === 404 || results[i]!.status === 410).map((t) => t.id);
    if (gone.length > 0) {
      await this.db.deleteFrom('push_subscriptions').where('id', 'in', gone).execute();
      await turnOffPushWithoutBrowsers(this.db, [userId]);
    }
    return {
      reached: results.filter((r) => r.error === null).length,
      removed: gone.length,
      errors: results.filter((r, i) => r.error !== null && !gone.includes(targets[i]!.id)).map((r) => r.error!),
    };
  }
}

/** Whether 65 bytes are a point of P-256 (ECDH refuses any other). */
function onCurve(point: Buffer): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}
