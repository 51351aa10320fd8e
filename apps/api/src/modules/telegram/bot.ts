import { createHash, timingSafeEqual } from 'node:crypto';
import { Bot, InlineKeyboard, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import type { AppConfig } from '../../config/config';
import type { JobLog } from '../../jobs/job-queue';

/** What the bot does with what people send it; set by the services that own the rules. */
export interface TelegramHandlers {
  /** /start in a private chat: the answer (the link that links the chat to an account). */
  start(chatId: string): Promise<string>;
  /**
   * A press on a "Reconhecer" button: the short answer shown to the person, the message's new text, if any, and
   * whether the button stays under it (a press that acknowledged nothing, GxP mode: ADR 0062).
   */
  acknowledge(press: { token: string; chatId: string; fromId: string; messageId: number }): Promise<{ answer: string; editedText?: string; keepButton?: boolean }>;
}

/** The prefix of the data of a "Reconhecer" button: `ack:<one-time token>` (at most 64 bytes, Telegram's limit). */
export const ACK_PREFIX = 'ack:';

const UPDATES = ['message', 'callback_query'] as const;

/**
 * The Telegram bot (A12) through the Bot API with grammY: long polling by default, a webhook when
 * TELEGRAM_WEBHOOK_URL is set. Without TELEGRAM_BOT_TOKEN it does nothing and `configured` is false.
 * Sending (alarm messages, confirmations) goes through `send`/`edit`, which jobs call and retry.
 */
export class TelegramBot {
  private readonly bot: Bot | null;
  private handlers: TelegramHandlers | null = null;
  private polling: Promise<void> | null = null;
  private username: string | null = null;
  readonly webhookSecret: string | null;

  constructor(
    private readonly config: Pick<AppConfig, 'telegramBotToken' | 'telegramApiRoot' | 'telegramWebhookUrl' | 'telegramWebhookSecret'>,
    private readonly log: JobLog,
  ) {
    const token = config.telegramBotToken;
    this.bot = token ? new Bot(token, { client: { apiRoot: config.telegramApiRoot, timeoutSeconds: 60 } }) : null;
    // Several servers must agree on the secret without sharing a file: derived from the token unless given.
    this.webhookSecret = token ? (config.telegramWebhookSecret ?? createHash('sha256').update(`sentinela-webhook:${token}`).digest('base64url')) : null;
    if (this.bot) this.route(this.bot);
  }

  get configured(): boolean {
    return this.bot !== null;
  }

  /** https://t.me/<username>, once the bot has introduced itself (getMe). */
  get url(): string | null {
    return this.username ? `https://t.me/${this.username}` : null;
  }

  setHandlers(handlers: TelegramHandlers): void {
    this.handlers = handlers;
  }

  /**
   * Introduces the bot (getMe), then either registers the webhook or starts long polling. A Bot API that cannot be
   * reached is logged, not fatal: the rest of the app starts, and alarm messages wait in their jobs.
   */
  async start(): Promise<void> {
    const bot = this.bot;
    if (!bot) return;
    try {
      await bot.init();
      this.username = bot.botInfo.username;
      if (this.config.telegramWebhookUrl) {
        await bot.api.setWebhook(this.config.telegramWebhookUrl, { secret_token: this.webhookSecret!, allowed_updates: [...UPDATES] });
        this.log.info({ url: this.config.telegramWebhookUrl }, 'telegram webhook registered');
        return;
      }
      this.polling = bot
        .start({ allowed_updates: [...UPDATES], onStart: () => this.log.info({ bot: this.username }, 'telegram bot polling') })
        .catch((err: unknown) => this.log.error({ err }, 'telegram polling stopped'));
    } catch (err) {
      this.log.error({ err }, 'telegram bot could not start (check TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT)');
    }
  }

  async stop(): Promise<void> {
    if (!this.bot || !this.polling) return;
    await this.bot.stop();
    await this.polling;
    this.polling = null;
  }

  /** Whether a webhook call carries the secret Telegram was given (constant-time comparison). */
  isWebhookSecret(header: string | undefined): boolean {
    if (!this.webhookSecret || typeof header !== 'string') return false;
    const a = Buffer.from(header);
    const b = Buffer.from(this.webhookSecret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async handleWebhookUpdate(update: Update): Promise<void> {
    const bot = this.bot;
    if (!bot) return;
    if (!bot.isInited()) {
      await bot.init();
      this.username = bot.botInfo.username;
    }
    await bot.handleUpdate(update);
  }

  /** Sends a plain-text message, optionally with one inline button; returns the message id. Throws to be retried. */
  async send(chatId: string, text: string, button?: { text: string; data: string }): Promise<number> {
    const message = await this.api().sendMessage(chatId, text, {
      link_preview_options: { is_disabled: true },
      ...(button ? { reply_markup: new InlineKeyboard().text(button.text, button.data) } : {}),
    });
    return message.message_id;
  }

  private api() {
    if (!this.bot) throw new Error('Telegram is not configured (TELEGRAM_BOT_TOKEN)');
    return this.bot.api;
  }

  private route(bot: Bot): void {
    bot.command('start', async (ctx) => {
      if (ctx.chat.type !== 'private' || !this.handlers) return;
      await ctx.reply(await this.handlers.start(String(ctx.chat.id)), { link_preview_options: { is_disabled: true } });
    });
    bot.on('callback_query:data', async (ctx) => this.onButton(ctx));
    bot.catch((err) => this.log.error({ err: err.error, update: err.ctx.update.update_id }, 'telegram update failed'));
  }

  private async onButton(ctx: Context): Promise<void> {
    const query = ctx.callbackQuery!;
    const data = query.data ?? '';
    const message = query.message;
    if (!this.handlers || !data.startsWith(ACK_PREFIX) || !message) {
      this.log.warn({ from: query.from.id, data: data.slice(0, 64) }, 'telegram button refused: unknown data');
      await ctx.answerCallbackQuery({ text: 'Ação desconhecida.' });
      return;
    }
    const result = await this.handlers.acknowledge({
      token: data.slice(ACK_PREFIX.length),
      chatId: String(message.chat.id),
      fromId: String(query.from.id),
      messageId: message.message_id,
    });
    if (result.editedText !== undefined) {
      // Without reply_markup the button goes: the alarm is acknowledged once. A press that acknowledged nothing keeps it.
      const keep = result.keepButton && 'reply_markup' in message ? { reply_markup: message.reply_markup } : {};
      try {
        await ctx.api.editMessageText(message.chat.id, message.message_id, result.editedText, { link_preview_options: { is_disabled: true }, ...keep });
      } catch (error) {
        // The same text again (a second press in GxP mode): Telegram refuses an edit that changes nothing; the answer still goes.
        if (!(error instanceof Error && error.message.includes('message is not modified'))) throw error;
      }
    }
    await ctx.answerCallbackQuery({ text: result.answer, show_alert: result.editedText === undefined });
  }
}
