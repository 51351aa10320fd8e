import { z } from './zod-locale';
import { IsoDate } from './common';
import { ALARM_TYPES } from './alarms';
import { optionalText } from './values';

/**
 * Webhooks (X13, ADR 66): an enterprise's administrators name a URL and the events it hears of; each event is POSTed
 * as JSON `{type, timestamp, data}` signed per the Standard Webhooks specification (headers `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`).
 */

export const WEBHOOK_EVENTS = ['alarm.opened', 'alarm.ended', 'alarm.acknowledged', 'device.silent', 'travel.status_changed', 'report.ready'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event "Testar" sends: never subscribed to, sent only on request. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookDeliveryEvent = WebhookEvent | typeof WEBHOOK_TEST_EVENT;

export const WEBHOOK_EVENT_NAMES: Record<WebhookDeliveryEvent, string> = {
  'alarm.opened': 'Alarme aberto',
  'alarm.ended': 'Alarme encerrado',
  'alarm.acknowledged': 'Alarme reconhecido',
  'device.silent': 'Dispositivo sem dados',
  'travel.status_changed': 'Status de viagem alterado',
  'report.ready': 'Relatório concluído',
  'webhook.test': 'Teste',
};

/** The retry schedule after a failed attempt (seconds): 8 attempts over about 28 hours, then the delivery failed. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
/** A webhook whose deliveries failed without a success for this long is disabled and its administrators told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
export const WEBHOOK_MAX_PER_ENTERPRISE = 20;
export const WEBHOOK_URL_MAX_LENGTH = 2000;

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook não encontrado.',
  deliveryNotFound: 'Entrega não encontrada.',
  invalidUrl: 'URL inválida: use um endereço https:// completo.',
  urlNotAllowed: 'URL não permitida: use um endereço https:// público (sem usuário e senha, fora da rede interna).',
  unknownEvent: `Evento desconhecido. Eventos válidos: ${WEBHOOK_EVENTS.join(', ')}.`,
  noEvent: 'Escolha ao menos um evento.',
  repeatedEvent: 'Evento repetido.',
  tooMany: `Limite de ${WEBHOOK_MAX_PER_ENTERPRISE} webhooks por empresa atingido.`,
  disabled: 'Este webhook está desativado. Ative-o antes de testar.',
} as const;

export const WebhookEventField = z.enum(WEBHOOK_EVENTS, { message: WEBHOOK_MESSAGES.unknownEvent });

const webhookUrl = z
  .string({ message: WEBHOOK_MESSAGES.invalidUrl })
  .trim()
  .min(1, WEBHOOK_MESSAGES.invalidUrl)
  .max(WEBHOOK_URL_MAX_LENGTH, `A URL deve ter no máximo ${WEBHOOK_URL_MAX_LENGTH} caracteres.`)
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  }, WEBHOOK_MESSAGES.invalidUrl);

const webhookEvents = z
  .array(WebhookEventField, { message: WEBHOOK_MESSAGES.noEvent })
  .min(1, WEBHOOK_MESSAGES.noEvent)
  .max(WEBHOOK_EVENTS.length, WEBHOOK_MESSAGES.repeatedEvent)
  .refine((list) => new Set(list).size === list.length, WEBHOOK_MESSAGES.repeatedEvent);

export const CreateWebhookBody = z.object({
  /** https (http and private addresses only on servers started with WEBHOOK_ALLOW_PRIVATE=1). */
  url: webhookUrl,
  events: webhookEvents,
  description: optionalText('A descrição', { max: 200 }),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** PUT /api/webhooks/{id}: what changes (the secret stays; a disabled webhook is enabled again with `enabled: true`). */
export const UpdateWebhookBody = z.object({
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  description: optionalText('A descrição', { max: 200 }),
  enabled: z.boolean({ message: 'Informe se o webhook está ativo.' }).optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const Webhook = z.object({
  _id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(WebhookEventField),
  enabled: z.boolean(),
  /** Why it was disabled (null while enabled). */
  disabled_reason: z.string().nullable(),
  created_by: z.object({ _id: z.string(), name: z.string() }).nullable(),
  created_at: IsoDate,
  last_success_at: IsoDate.nullable(),
  /** Since when every attempt has failed (null after a success). */
  failing_since: IsoDate.nullable(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookList = z.array(Webhook);

export const CreatedWebhook = Webhook.extend({
  /** The signing secret, `whsec_` + base64 of 32 random bytes: shown only in this answer. */
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookAttempt = z.object({
  attempt: z.number().int(),
  at: IsoDate,
  /** The receiver's HTTP status; null when none came (refused address, network error, timeout). */
  response_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  /** Asked for with "Reenviar", not by the retry schedule. */
  manual: z.boolean(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z.object({
  _id: z.string(),
  /** The `webhook-id` header: the same on every attempt of this delivery, for the receiver's idempotency. */
  message_id: z.string(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** The number of the latest attempt (0: none made yet). */
  attempt: z.number().int(),
  response_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: IsoDate,
  last_attempt_at: IsoDate.nullable(),
  /** When the next attempt is due (null: none planned). */
  next_attempt_at: IsoDate.nullable(),
  attempts: z.array(WebhookAttempt),
  /** The body sent (JSON text), as signed. */
  payload: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.array(WebhookDelivery);

export const WebhookDeliveryParams = z.object({
  id: z.uuid({ message: WEBHOOK_MESSAGES.notFound }),
  deliveryId: z.uuid({ message: WEBHOOK_MESSAGES.deliveryNotFound }),
});

// ---------------------------------------------------------------------------------------------------------------
// What receivers get: the payload of each event (described as `webhooks` in the OpenAPI document).

const DeviceRef = z.object({ _id: z.string(), mac: z.string(), name: z.string() });
const Range = z.object({ min: z.number().nullable(), max: z.number().nullable() });

export const WebhookAlarmData = z.object({
  alarm: z.object({
    _id: z.string(),
    type: z.enum(ALARM_TYPES),
    message: z.string(),
    active: z.boolean(),
    started_at: IsoDate,
    ended_at: IsoDate.nullable(),
    /** The extremes measured during the excursion. */
    temperature: Range,
    humidity: Range,
    acknowledged: z
      .object({ at: IsoDate, message: z.string(), by: z.object({ _id: z.string(), name: z.string() }).nullable() })
      .nullable(),
  }),
  device: DeviceRef,
  travel_id: z.string().nullable(),
});

export const WebhookDeviceSilentData = z.object({
  device: DeviceRef,
  /** The device's last reading before the silence. */
  last_sync_at: IsoDate,
  no_data_minutes: z.number().int(),
  /** The "no data" alarm this silence opened. */
  alarm_id: z.string(),
});

export const WebhookTravelStatusData = z.object({
  travel: z.object({
    _id: z.string(),
    code: z.string(),
    origin: z.string(),
    destination: z.string(),
    /** 0 Não iniciada, 1 Em andamento, 2 Finalizada, 3 Pausada. */
    status: z.number().int(),
    status_name: z.string(),
    previous_status: z.number().int(),
    previous_status_name: z.string(),
    started_at: IsoDate.nullable(),
    finished_at: IsoDate.nullable(),
  }),
});

export const WebhookReportData = z.object({
  report: z.object({
    _id: z.string(),
    kind: z.string(),
    type: z.string(),
    /** generated: the file is ready at `file_url`; failed: `error` says why. */
    status: z.enum(['generated', 'failed']),
    error: z.string().nullable(),
    file_url: z.string().nullable(),
    device: z.object({ mac: z.string(), name: z.string() }).nullable(),
    travel_id: z.string().nullable(),
  }),
});

export const WebhookTestData = z.object({ webhook_id: z.string(), message: z.string() });

/** The data of each event type. */
export const WEBHOOK_EVENT_DATA = {
  'alarm.opened': WebhookAlarmData,
  'alarm.ended': WebhookAlarmData,
  'alarm.acknowledged': WebhookAlarmData,
  'device.silent': WebhookDeviceSilentData,
  'travel.status_changed': WebhookTravelStatusData,
  'report.ready': WebhookReportData,
  'webhook.test': WebhookTestData,
} as const satisfies Record<WebhookDeliveryEvent, z.ZodType>;

/** Every body a webhook receives. */
export const webhookPayload = <T extends WebhookDeliveryEvent>(type: T) =>
  z.object({ type: z.literal(type), timestamp: IsoDate, data: WEBHOOK_EVENT_DATA[type] });
