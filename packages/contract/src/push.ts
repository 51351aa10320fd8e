import { z } from './zod-locale';
import { IsoDate } from './common';

/** Web push (D6, ADR 22): the browser's PushSubscription, the server's VAPID public key, a user's browsers. */
export const PUSH_MESSAGES = {
  endpoint: 'Inscrição push inválida: o endereço (endpoint) do serviço de push deve ser uma URL https de até 1000 caracteres.',
  endpointRefused: 'Inscrição push inválida: este endereço de serviço de push não é aceito.',
  p256dh: 'Inscrição push inválida: a chave p256dh deve ser uma chave pública P-256 em base64url.',
  auth: 'Inscrição push inválida: a chave auth deve ter 16 bytes em base64url.',
  keys: 'Inscrição push inválida: faltam as chaves (keys.p256dh e keys.auth).',
  notFound: 'Inscrição push não encontrada.',
  unsubscribed: 'Notificações push desativadas neste navegador.',
} as const;

export const PUSH_ENDPOINT_MAX_LENGTH = 1000;

const Endpoint = z
  .string({ error: PUSH_MESSAGES.endpoint })
  .max(PUSH_ENDPOINT_MAX_LENGTH, PUSH_MESSAGES.endpoint)
  .pipe(z.url({ protocol: /^https?$/, error: PUSH_MESSAGES.endpoint }));

/**
 * POST /api/me/push-subscriptions: `PushSubscription.toJSON()` as the browser gives it. p256dh is the browser's
 * P-256 public key (65 bytes, uncompressed), auth its 16-byte secret, both base64url (RFC 8291).
 */
export const PushSubscriptionBody = z.object({
  endpoint: Endpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: z.string({ error: PUSH_MESSAGES.p256dh }).regex(/^[A-Za-z0-9_-]{87}=?$/, PUSH_MESSAGES.p256dh),
      auth: z.string({ error: PUSH_MESSAGES.auth }).regex(/^[A-Za-z0-9_-]{22}(==)?$/, PUSH_MESSAGES.auth),
    },
    { error: PUSH_MESSAGES.keys },
  ),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** DELETE /api/me/push-subscriptions: this browser's endpoint. */
export const PushUnsubscribeBody = z.object({ endpoint: Endpoint });

/** One browser of the signed-in user that receives push notifications. */
export const PushSubscriptionInfo = z.object({ _id: z.string(), endpoint: z.string(), created_at: IsoDate });
export type PushSubscriptionInfo = z.infer<typeof PushSubscriptionInfo>;
export const PushSubscriptionList = z.array(PushSubscriptionInfo);

/** GET /api/push/vapid-public-key: the key browsers subscribe with (applicationServerKey), base64url. */
export const VapidPublicKey = z.object({ public_key: z.string() });
