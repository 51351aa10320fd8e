import { expect } from 'vitest';
import type { AppConfig } from '../src/config/config';
import type { TestContext } from './context';
import { startFakeSmsProvider, type FakeSmsProvider } from './fake-sms-provider';
import { startFakeTelegram, type BotApiCall, type FakeTelegram } from './fake-telegram';
import { startFakeWhatsApp, type FakeWhatsApp } from './fake-whatsapp';
import { startPushService, type PushServiceServer, type TestBrowser } from './push-service';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/** Every notification channel's local stand-in, and the settings that point the app at them. */
export interface AllChannels {
  smtp: TestSmtpServer;
  telegram: FakeTelegram;
  pushService: PushServiceServer;
  sms: FakeSmsProvider;
  whatsapp: FakeWhatsApp;
  /** The app's settings for all five channels (push needs none: its endpoints come from the browsers). */
  config: Partial<AppConfig>;
  close(): Promise<void>;
}

/** The settings that point the app at the local SMS provider and WhatsApp Cloud API. */
export const phoneProvidersConfig = (sms: FakeSmsProvider, whatsapp: FakeWhatsApp): Partial<AppConfig> => ({
  smsApiUrl: sms.url,
  smsAccountSid: sms.accountSid,
  smsAuthToken: sms.authToken,
  smsFrom: sms.from,
  whatsappApiUrl: whatsapp.url,
  whatsappPhoneNumberId: whatsapp.phoneNumberId,
  whatsappAccessToken: whatsapp.accessToken,
});

/**
 * Starts the five channels' local servers on 127.0.0.1, each speaking its real protocol: SMTP, the Telegram Bot
 * API, a Web Push service, a Twilio-compatible Messages API and the WhatsApp Cloud API.
 */
export async function startAllChannels(): Promise<AllChannels> {
  const [smtp, telegram, pushService, sms, whatsapp] = await Promise.all([startSmtpServer(), startFakeTelegram(), startPushService(), startFakeSmsProvider(), startFakeWhatsApp()]);
  return {
    smtp,
    telegram,
    pushService,
    sms,
    whatsapp,
    config: {
      smtpUrl: smtp.url,
      telegramBotToken: telegram.token,
      telegramApiRoot: telegram.apiRoot,
      ...phoneProvidersConfig(sms, whatsapp),
    },
    async close() {
      await Promise.all([smtp.close(), telegram.close(), pushService.close(), sms.close(), whatsapp.close()]);
    },
  };
}

/** A Bot API call that sent this chat a message whose text matches. */
export const sentTo = (chatId: number, match: (text: string) => boolean) => (c: BotApiCall) =>
  c.method === 'sendMessage' && Number(c.params.chat_id) === chatId && match(String(c.params.text));

/**
 * Makes one user reachable on all five channels the way a person does it: a mobile number in the profile, the
 * Telegram chat linked through the bot's /start link, one browser subscribed to push, then the five toggles of
 * Configurações. Returns the browser.
 */
export async function enableAllChannels(
  ctx: TestContext,
  channels: AllChannels,
  user: { username: string; token: string; chatId: number; phone: string },
): Promise<TestBrowser> {
  await ctx.db.updateTable('users').set({ phone: user.phone }).where('username', '=', user.username).execute();

  const before = channels.telegram.calls.length;
  channels.telegram.sendText(user.chatId, '/start');
  const answer = await channels.telegram.waitForCall((c) => channels.telegram.calls.indexOf(c) >= before && sentTo(user.chatId, (t) => t.includes('/login?token='))(c));
  const linkToken = new URL(/http\S+/.exec(String(answer.params.text))![0]).searchParams.get('token');
  const linked = await ctx.request('POST', `/api/me/telegram/${user.chatId}/link?token=${linkToken}`, user.token);
  expect(linked.statusCode, linked.body).toBe(200);

  const browser = channels.pushService.newBrowser();
  const subscribed = await ctx.request('POST', '/api/me/push-subscriptions', user.token, browser.subscription);
  expect(subscribed.statusCode, subscribed.body).toBe(200);

  for (const channel of ['email', 'push', 'sms', 'whatsapp']) {
    const res = await ctx.request('POST', '/api/me/config/notification-channel', user.token, { channel });
    expect(res.statusCode, `${channel}: ${res.body}`).toBe(200);
  }
  expect(((await ctx.request('GET', '/api/me/config/notification-channel', user.token)).json() as string[]).sort()).toEqual(['email', 'push', 'sms', 'telegram', 'whatsapp']);
  return browser;
}
