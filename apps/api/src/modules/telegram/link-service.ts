import { NOTIFICATION_MESSAGES, pluralize } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { newSecret, sha256 } from '../../lib/tokens';
import type { TelegramBot } from './bot';
import type { TelegramMessages } from './message-job';

/**
 * Linking a Telegram chat to an account (A12, ADR 21). The bot answers /start with
 * `{PUBLIC_URL}/telegram/{chatId}/login?token=…`: the token is random, bound to that chat, expires and works once,
 * so that knowing (or guessing) a chat id is not enough to have someone's alarms sent to it. A chat is linked to
 * one user; linking it again moves it.
 */
export class TelegramLinkService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Pick<AppConfig, 'publicUrl' | 'telegramLinkMinutes'>,
    private readonly bot: TelegramBot,
    private readonly messages: TelegramMessages,
  ) {}

  /** The bot's answer to /start: a fresh link for this chat. */
  async startMessage(chatId: string): Promise<string> {
    const token = newSecret(24);
    const now = this.clock.now();
    await this.db
      .insertInto('telegram_link_tokens')
      .values({ token_hash: sha256(token), chat_id: chatId, created_at: now, expires_at: new Date(now.getTime() + this.config.telegramLinkMinutes * 60_000) })
      .execute();
    const url = `${this.config.publicUrl}/telegram/${encodeURIComponent(chatId)}/login?token=${token}`;
    return [
      'Olá! Sou o bot do Sentinela.',
      'Para receber aqui os alarmes dos seus dispositivos, vincule esta conversa à sua conta:',
      url,
      `O link vale por ${pluralize(this.config.telegramLinkMinutes, 'minuto', 'minutos')} e pode ser usado uma vez.`,
    ].join('\n\n');
  }

  /** POST /api/me/telegram/{chatId}/link: links the chat to the signed-in user, spending the token. */
  async link(userId: string, chatId: string, token: string): Promise<string> {
    if (!this.bot.configured) throw new AppError('UNPROCESSABLE', NOTIFICATION_MESSAGES.telegramNotConfigured);
    const now = this.clock.now();
    const name = await this.db.transaction().execute(async (trx) => {
      const spent = await trx
        .updateTable('telegram_link_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', sha256(token))
        .where('chat_id', '=', chatId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('chat_id')
        .executeTakeFirst();
      if (!spent) throw new AppError('BAD_REQUEST', NOTIFICATION_MESSAGES.telegramLinkInvalid);
      const others = await trx.updateTable('users').set({ telegram_chat_id: null, updated_at: now }).where('telegram_chat_id', '=', chatId).where('id', '<>', userId).returning('id').execute();
      if (others.length > 0) {
        await trx.deleteFrom('notification_channels').where('user_id', 'in', others.map((o) => o.id)).where('channel', '=', 'telegram').execute();
      }
      const user = await trx.updateTable('users').set({ telegram_chat_id: chatId, updated_at: now }).where('id', '=', userId).returning('name').executeTakeFirst();
      if (!user) throw notFound('Usuário não encontrado.');
      // Linking is asking for alarms here: the channel is turned on (it can be turned off in Configurações).
      await trx.insertInto('notification_channels').values({ user_id: userId, channel: 'telegram' }).onConflict((oc) => oc.doNothing()).execute();
      return user.name;
    });
    await this.messages.send(chatId, `Conta vinculada: ${name}. Você receberá aqui os alarmes dos seus dispositivos. Para parar, desative o Telegram em Configurações ou desvincule a conta.`);
    return NOTIFICATION_MESSAGES.telegramLinked;
  }

  /** DELETE /api/me/telegram: unlinks the user's chat and turns the channel off; the chat is told. */
  async unlink(userId: string): Promise<string> {
    const now = this.clock.now();
    const before = await this.db.selectFrom('users').select(['telegram_chat_id', 'name']).where('id', '=', userId).executeTakeFirst();
    if (!before) throw notFound('Usuário não encontrado.');
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ telegram_chat_id: null, updated_at: now }).where('id', '=', userId).execute();
      await trx.deleteFrom('notification_channels').where('user_id', '=', userId).where('channel', '=', 'telegram').execute();
    });
    if (before.telegram_chat_id && this.bot.configured) {
      await this.messages.send(before.telegram_chat_id, `Esta conversa foi desvinculada da conta ${before.name}. Os alarmes não chegarão mais aqui.`);
    }
    return NOTIFICATION_MESSAGES.telegramUnlinked;
  }
}
