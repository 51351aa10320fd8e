import { NOTIFICATION_CHANNELS, type NotificationChannel, type NotificationChannelStatus, type NotificationSettings } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { AppError, notFound } from '../../lib/errors';
import { countSubscriptions } from '../push/repository';
import type { TelegramBot } from '../telegram/bot';
import { brazilianMobile, phoneProblemText } from './channels/phone-number';

/** What decides whether a user can use a channel here. */
interface ChannelOwner {
  email: string;
  verified: boolean;
  phone: string | null;
  telegram_chat_id: string | null;
  /** Browsers subscribed to web push (ADR 22). */
  push_subscriptions: number;
}

type Usability = Pick<NotificationChannelStatus, 'available' | 'reason' | 'action'>;

const PROFILE_ACTION = { label: 'Ir para o Perfil', href: '/profile' };

/** A channel this server was not set up for: what the user can do about it, in their words. */
const notEnabledHere = (what: string) =>
  `${what.charAt(0).toUpperCase()}${what.slice(1)} ainda não foi ativado neste servidor. Peça ao responsável pela plataforma Sentinela para ativá-lo.`;
export const PUSH_ACTION = { label: 'Ativar neste navegador', href: '/settings#push' };

/**
 * "Por onde deseja receber notificações?" (A10): the channels a user turned on, and whether each can be used here.
 * A channel that cannot be used (not configured on this server, Telegram not linked, e-mail not confirmed) is
 * refused with the reason and what enables it, so that an "on" toggle always means messages arrive.
 */
export class NotificationSettingsService {
  constructor(
    private readonly db: Db,
    private readonly telegram: TelegramBot,
    /** The SMS and WhatsApp providers (ADR 23): whether each is configured on this server. */
    private readonly phones: Record<'sms' | 'whatsapp', { readonly configured: boolean }>,
  ) {}

  async enabled(userId: string): Promise<NotificationChannel[]> {
    const rows = await this.db.selectFrom('notification_channels').select('channel').where('user_id', '=', userId).execute();
    const on = new Set(rows.map((r) => r.channel));
    return NOTIFICATION_CHANNELS.filter((c) => on.has(c));
  }

  async settings(userId: string): Promise<NotificationSettings> {
    const owner = await this.owner(userId);
    const on = new Set(await this.enabled(userId));
    return {
      channels: NOTIFICATION_CHANNELS.map((channel) => ({ channel, enabled: on.has(channel), ...this.usability(channel, owner) })),
      telegram: { configured: this.telegram.configured, linked: owner.telegram_chat_id !== null, bot_url: this.telegram.url },
    };
  }

  async enable(userId: string, channel: NotificationChannel): Promise<NotificationChannel[]> {
    const usability = this.usability(channel, await this.owner(userId));
    if (!usability.available) throw new AppError('UNPROCESSABLE', usability.reason ?? 'Este canal não pode ser usado.');
    await this.db.insertInto('notification_channels').values({ user_id: userId, channel }).onConflict((oc) => oc.doNothing()).execute();
    return this.enabled(userId);
  }

  async disable(userId: string, channel: NotificationChannel): Promise<NotificationChannel[]> {
    await this.db.deleteFrom('notification_channels').where('user_id', '=', userId).where('channel', '=', channel).execute();
    return this.enabled(userId);
  }

  private async owner(userId: string): Promise<ChannelOwner> {
    const owner = await this.db.selectFrom('users').select(['email', 'verified', 'phone', 'telegram_chat_id']).where('id', '=', userId).executeTakeFirst();
    if (!owner) throw notFound('Usuário não encontrado.');
    return { ...owner, push_subscriptions: await countSubscriptions(this.db, userId) };
  }

  private usability(channel: NotificationChannel, owner: ChannelOwner): Usability {
    const ok: Usability = { available: true, reason: null, action: null };
    switch (channel) {
      case 'email':
        return owner.verified
          ? ok
          : { available: false, reason: 'Confirme seu e-mail para receber notificações por e-mail.', action: PROFILE_ACTION };
      case 'telegram':
        if (!this.telegram.configured) {
          // Users read this: no setting names (the README's configuration table tells the platform's operator).
          return { available: false, reason: notEnabledHere('o Telegram'), action: null };
        }
        if (owner.telegram_chat_id === null) {
          const url = this.telegram.url;
          return {
            available: false,
            reason: 'Vincule sua conta do Telegram: abra o bot, envie /start e siga o link que ele responder.',
            action: url ? { label: 'Abrir o bot no Telegram', href: url } : null,
          };
        }
        return ok;
      case 'sms':
      case 'whatsapp': {
        const name = channel === 'sms' ? 'SMS' : 'WhatsApp';
        if (!this.phones[channel].configured) {
          return { available: false, reason: notEnabledHere(`o envio por ${name}`), action: null };
        }
        const phone = brazilianMobile(owner.phone);
        return phone.ok ? ok : { available: false, reason: phoneProblemText(phone.problem, name), action: PROFILE_ACTION };
      }
      case 'push':
        // The web app subscribes the browser when this action is taken (or the toggle turned on), then turns push on.
        return owner.push_subscriptions > 0
          ? ok
          : { available: false, reason: 'Ative as notificações neste navegador: permita as notificações quando o navegador pedir.', action: PUSH_ACTION };
    }
  }
}
