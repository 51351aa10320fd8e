import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com, spec v1), exactly: the secret is `whsec_` + base64 of random
 * bytes, and the signature of a message is `v1,` + base64(HMAC-SHA256(secret bytes, "{webhook-id}.{webhook-timestamp}.{body}")),
 * so that receivers verify with the specification's own libraries (`standardwebhooks` on npm, and its ports).
 */
const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** A message id (`webhook-id`): the same on every attempt of one delivery, for the receiver's idempotency. */
export function newMessageId(): string {
  return `msg_${randomUUID().replace(/-/g, '')}`;
}

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one attempt: a new timestamp (and so a new signature) each time, the same id. */
export function signedHeaders(secret: string, messageId: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Sentinela-Webhooks/1',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, messageId, timestamp, body),
  };
}
