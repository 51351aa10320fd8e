import { z } from './zod-locale';
import { IsoDate } from './common';

/** Where alarms may reach a user (spec 000 §3 "Notification channels"). */
export const NOTIFICATION_CHANNELS = ['push', 'email', 'sms', 'telegram', 'whatsapp'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_CHANNEL_NAMES: Record<NotificationChannel, string> = {
  push: 'Push',
  email: 'E-mail',
  sms: 'SMS',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
};

export const NOTIFICATION_MESSAGES = {
  unknownChannel: 'Canal de notificação inválido. Use push, email, sms, telegram ou whatsapp.',
  telegramLinkInvalid: 'Link de vinculação inválido ou expirado. Envie /start ao bot no Telegram para receber um novo.',
  telegramNotConfigured: 'O Telegram não está configurado neste servidor.',
  telegramUnlinked: 'Telegram desvinculado.',
  telegramLinked: 'Vinculado com sucesso!',
} as const;

/** POST and DELETE /api/me/config/notification-channel: `{ channel }`. */
export const NotificationChannelBody = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS, { error: NOTIFICATION_MESSAGES.unknownChannel }),
});
export type NotificationChannelBody = z.infer<typeof NotificationChannelBody>;

/** GET /api/me/config/notification-channel: the names of the enabled channels. */
export const NotificationChannelList = z.array(z.enum(NOTIFICATION_CHANNELS));

/**
 * GET /api/me/config/notification-channel/status: for each channel whether it is on, whether this user can use it
 * here, and when not, why and what enables it (a screen of the app, or a link such as the Telegram bot's).
 */
export const NotificationChannelStatus = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS),
  enabled: z.boolean(),
  available: z.boolean(),
  reason: z.string().nullable(),
  action: z.object({ label: z.string(), href: z.string() }).nullable(),
});
export type NotificationChannelStatus = z.infer<typeof NotificationChannelStatus>;

export const NotificationSettings = z.object({
  channels: z.array(NotificationChannelStatus),
  telegram: z.object({
    configured: z.boolean(),
    linked: z.boolean(),
    /** The bot's address (https://t.me/<username>), once the bot has introduced itself to the Bot API. */
    bot_url: z.string().nullable(),
  }),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** /telegram/{chatId}/login and POST /api/me/telegram/{chatId}/link: the chat id, and the link's one-time token. */
export const TelegramChatParam = z.object({
  chatId: z.string({ error: NOTIFICATION_MESSAGES.telegramLinkInvalid }).regex(/^-?\d{1,20}$/, NOTIFICATION_MESSAGES.telegramLinkInvalid),
});
export const TelegramLinkQuery = z.object({
  token: z.string({ error: NOTIFICATION_MESSAGES.telegramLinkInvalid }).regex(/^[A-Za-z0-9_-]{20,100}$/, NOTIFICATION_MESSAGES.telegramLinkInvalid),
});

export const TelegramLinkResponse = z.object({ success: z.literal(true), message: z.string() });

/** One message of an alarm to one person through one channel (the delivery log of "Detalhes do alarme"). */
export const AlarmDelivery = z.object({
  _id: z.string(),
  /** opened: the alarm began; ended: it ended; reminder: still open and unacknowledged (number `seq`); escalated: told to the administrators (ADR 24). */
  event: z.enum(['opened', 'ended', 'reminder', 'escalated']),
  seq: z.number().int().default(0),
  channel: z.enum(NOTIFICATION_CHANNELS),
  recipient: z.string(),
  user: z.object({ _id: z.string(), name: z.string() }).nullable(),
  status: z.enum(['pending', 'sent', 'failed', 'cancelled']),
  attempts: z.number().int(),
  error: z.string().nullable(),
  created_at: IsoDate,
  sent_at: IsoDate.nullable(),
});
export type AlarmDelivery = z.infer<typeof AlarmDelivery>;
export const AlarmDeliveryList = z.array(AlarmDelivery);

export const ALARM_DELIVERY_STATUS_NAMES: Record<AlarmDelivery['status'], string> = {
  pending: 'Enviando',
  sent: 'Enviada',
  failed: 'Falhou',
  cancelled: 'Cancelada',
};
