import webpush from 'web-push';
import { OutgoingRequestError, type OutgoingClient } from '../../lib/outgoing/outgoing-client';
import type { VapidKeys } from './vapid-keys';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushResult {
  /** The push service's answer (201 accepted); 0 when no answer came (refused endpoint, network error, timeout). */
  status: number;
  /** For users (the delivery log): generic, never the network's own words (ADR 55). */
  error: string | null;
  /** For the server's log: what happened. */
  detail: string | null;
}

/** What the delivery log says of a browser that could not be reached, whatever the reason. */
export const PUSH_DELIVERY_FAILED = 'Não foi possível entregar a notificação a um navegador.';

const TIMEOUT_MS = 15_000;
/** A push service answers a few bytes (an error page at most); more is not a push service. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** A notification the user has not seen in a day is no longer news (the push service drops it then). */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * Sends one Web Push message (RFC 8030) to one browser: web-push encrypts the payload for the browser's keys
 * (aes128gcm, RFC 8291) and signs the VAPID header (RFC 8292); the POST goes through the outgoing guard, since the
 * endpoint is whatever a browser (any signed-in user) handed us.
 */
export async function sendPush(outgoing: OutgoingClient, target: PushTarget, payload: string, vapid: VapidKeys & { subject: string }): Promise<PushResult> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
      vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: TTL_SECONDS,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    });
  } catch (err) {
    return { status: 0, error: PUSH_DELIVERY_FAILED, detail: `web-push could not prepare the message: ${(err as Error).message}` };
  }
  try {
    const response = await outgoing.request(target.endpoint, {
      method: 'POST',
      headers: details.headers as Record<string, string | number>,
      body: details.body ?? undefined,
      timeoutMs: TIMEOUT_MS,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
    if (response.ok) return { status: response.status, error: null, detail: null };
    return { status: response.status, error: PUSH_DELIVERY_FAILED, detail: `push service answered ${response.status}: ${response.text().slice(0, 300).trim()}` };
  } catch (err) {
    if (err instanceof OutgoingRequestError) return { status: 0, error: PUSH_DELIVERY_FAILED, detail: `${err.reason}: ${err.detail}` };
    throw err;
  }
}
