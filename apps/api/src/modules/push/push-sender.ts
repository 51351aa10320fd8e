import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import { endpointAllowed, publicOnlyLookup } from './endpoint-guard';
import type { VapidKeys } from './vapid-keys';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushResult {
  /** The push service's answer (201 accepted); 0 when no answer came (refused endpoint, network error, timeout). */
  status: number;
  error: string | null;
}

const TIMEOUT_MS = 15_000;
/** A notification the user has not seen in a day is no longer news (the push service drops it then). */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * Sends one Web Push message (RFC 8030) to one browser: web-push encrypts the payload for the browser's keys
 * (aes128gcm, RFC 8291) and signs the VAPID header (RFC 8292); the POST itself is made here so that the endpoint's
 * addresses are checked as the connection is made (endpoint-guard) and plain-HTTP test endpoints can be reached.
 */
export async function sendPush(target: PushTarget, payload: string, vapid: VapidKeys & { subject: string }, allowLocal: boolean): Promise<PushResult> {
  if (!endpointAllowed(target.endpoint, allowLocal)) return { status: 0, error: 'endereço do serviço de push recusado' };
  const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
    vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: TTL_SECONDS,
    urgency: 'high',
    contentEncoding: 'aes128gcm',
  });
  const url = new URL(target.endpoint);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<PushResult>((resolve) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: details.headers as Record<string, string | number>,
        timeout: TIMEOUT_MS,
        ...(allowLocal ? {} : { lookup: publicOnlyLookup as never }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          // Only the start of an error answer is kept for the log.
          if (size < 2048) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 300).trim();
          resolve({ status, error: ok ? null : `serviço de push respondeu ${status}${text ? `: ${text}` : ''}` });
        });
        response.on('error', (error) => resolve({ status: 0, error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`sem resposta do serviço de push em ${TIMEOUT_MS / 1000} s`)));
    request.on('error', (error) => resolve({ status: 0, error: error.message }));
    request.end(details.body ?? undefined);
  });
}
