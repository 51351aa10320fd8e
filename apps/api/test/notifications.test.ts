import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALARM_DELIVER_JOB } from '../src/modules/notifications/alarm-delivery';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { startFakeTelegram, type BotApiCall, type FakeTelegram } from './fake-telegram';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { addressesOf, startSmtpServer, type TestSmtpServer } from './smtp-server';
import { waitForDeliveries } from './delivery-log';

/**
 * Alarms reach people (A10, A12, D6): the channel settings, linking a Telegram chat through the bot's one-time link,
 * alarm messages by e-mail (local SMTP server) and Telegram (local Bot API server) with their delivery log, and the
 * "Reconhecer" button, refused when forged, replayed, pressed elsewhere or for an alarm out of the presser's scope.
 */
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma
const JOAO_CHAT = 5_550_001;
const VIDA_CHAT = 5_550_002;
const STRANGER_CHAT = 5_550_003;

let ctx: TestContext;
let smtp: TestSmtpServer;
let telegram: FakeTelegram;
let joao: string;
let aurora: string;
let vida: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  telegram = await startFakeTelegram();
  // Three sign-ins before each test, within a minute: above the default login limit (tested elsewhere).
  ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url, telegramBotToken: telegram.token, telegramApiRoot: telegram.apiRoot, loginMaxPerMinute: 100 } });
});
afterAll(async () => {
  await ctx?.close();
  await telegram?.close();
  await smtp?.close();
});
beforeEach(async () => {
  ctx.clock.advance(60_000);
  joao = (await ctx.login('joao.silva')).token;
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
});

const channelsOf = async (token: string) => (await ctx.request('GET', '/api/me/config/notification-channel', token)).json() as string[];
const sentTo = (chatId: number, match: (text: string) => boolean) => (c: BotApiCall) => c.method === 'sendMessage' && Number(c.params.chat_id) === chatId && match(String(c.params.text));

/** Sends /start from a chat and follows the link the bot answers with: its chat id and token. */
async function startChat(chatId: number): Promise<{ path: string; token: string }> {
  const before = telegram.calls.length;
  telegram.sendText(chatId, '/start');
  const answer = await telegram.waitForCall((c) => telegram.calls.indexOf(c) >= before && sentTo(chatId, (t) => t.includes('/login?token='))(c));
  const url = new URL(/http\S+/.exec(String(answer.params.text))![0]);
  expect(url.origin).toBe('http://sentinela.test');
  expect(url.pathname).toBe(`/telegram/${chatId}/login`);
  return { path: url.pathname, token: url.searchParams.get('token')! };
}

async function link(userToken: string, chatId: number): Promise<void> {
  const { token } = await startChat(chatId);
  const res = await ctx.request('POST', `/api/me/telegram/${chatId}/link?token=${token}`, userToken);
  expect(res.statusCode, res.body).toBe(200);
}

describe('Configurações: notification channels (A10)', () => {
  it('turns usable channels on and off, and refuses the others with why', async () => {
    expect(await channelsOf(joao)).toEqual([]);
    let res = await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'email' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['email']);
    // Twice is still once.
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'email' })).json()).toEqual(['email']);

    res = await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'telegram' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(/Vincule sua conta do Telegram/);
    res = await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'sms' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(/O envio por SMS ainda não foi ativado neste servidor/);
    res = await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'push' });
    expect(res.statusCode).toBe(422);
    res = await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'fax' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Canal de notificação inválido. Use push, email, sms, telegram ou whatsapp./);
    res = await ctx.request('POST', '/api/me/config/notification-channel', joao, {});
    expect(res.statusCode).toBe(400);

    const status = (await ctx.request('GET', '/api/me/config/notification-channel/status', joao)).json();
    expect(status.telegram).toEqual({ configured: true, linked: false, bot_url: 'https://t.me/sentinela_teste_bot' });
    expect(status.channels.find((c: { channel: string }) => c.channel === 'telegram')).toMatchObject({
      enabled: false,
      available: false,
      action: { label: 'Abrir o bot no Telegram', href: 'https://t.me/sentinela_teste_bot' },
    });
    expect(status.channels.find((c: { channel: string }) => c.channel === 'email')).toMatchObject({ enabled: true, available: true });

    res = await ctx.request('DELETE', '/api/me/config/notification-channel', joao, { channel: 'email' });
    expect(res.json()).toEqual([]);
    // Another user's settings are their own.
    expect(await channelsOf(aurora)).toEqual([]);
    expect((await ctx.request('GET', '/api/me/config/notification-channel')).statusCode).toBe(401);
  });

  it('an unconfirmed e-mail cannot be turned on', async () => {
    const user = await ctx.db.selectFrom('users').select('id').where('username', '=', 'vida.adm').executeTakeFirstOrThrow();
    await ctx.db.updateTable('users').set({ verified: false }).where('id', '=', user.id).execute();
    const res = await ctx.request('POST', '/api/me/config/notification-channel', vida, { channel: 'email' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('Confirme seu e-mail para receber notificações por e-mail.');
    await ctx.db.updateTable('users').set({ verified: true }).where('id', '=', user.id).execute();
  });
});

describe('Telegram link (A12)', () => {
  it('links a chat through the one-time link of /start, and only that way', async () => {
    const { token } = await startChat(JOAO_CHAT);
    // No token, a made-up one, or the token on another chat: refused, nothing linked.
    for (const url of [
      `/api/me/telegram/${JOAO_CHAT}/link`,
      `/api/me/telegram/${JOAO_CHAT}/link?token=${'A'.repeat(32)}`,
      `/api/me/telegram/${STRANGER_CHAT}/link?token=${token}`,
      `/api/me/telegram/abc/link?token=${token}`,
    ]) {
      const res = await ctx.request('POST', url, joao);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/Link de vinculação inválido ou expirado/);
    }
    expect((await ctx.request('POST', `/api/me/telegram/${JOAO_CHAT}/link?token=${token}`)).statusCode).toBe(401);
    expect((await ctx.db.selectFrom('users').select('id').where('telegram_chat_id', 'is not', null).execute()).length).toBe(0);

    const res = await ctx.request('POST', `/api/me/telegram/${JOAO_CHAT}/link?token=${token}`, joao);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Vinculado com sucesso!' });
    await telegram.waitForCall(sentTo(JOAO_CHAT, (t) => t.startsWith('Conta vinculada: João')));
    expect(await channelsOf(joao)).toEqual(['telegram']);

    // Spent: the same link does not link anyone else.
    const again = await ctx.request('POST', `/api/me/telegram/${JOAO_CHAT}/link?token=${token}`, aurora);
    expect(again.statusCode).toBe(400);
    const linked = await ctx.db.selectFrom('users').select(['username', 'telegram_chat_id']).where('telegram_chat_id', 'is not', null).execute();
    expect(linked).toEqual([{ username: 'joao.silva', telegram_chat_id: String(JOAO_CHAT) }]);
  });

  it('an expired link is refused', async () => {
    const { token } = await startChat(STRANGER_CHAT);
    ctx.clock.advance(16 * 60_000);
    aurora = (await ctx.login('aurora.adm')).token;
    const res = await ctx.request('POST', `/api/me/telegram/${STRANGER_CHAT}/link?token=${token}`, aurora);
    expect(res.statusCode).toBe(400);
  });

  it('a chat is linked to one user: linking it again moves it; unlinking tells the chat', async () => {
    await link(aurora, STRANGER_CHAT);
    await link(vida, STRANGER_CHAT);
    let owners = await ctx.db.selectFrom('users').select('username').where('telegram_chat_id', '=', String(STRANGER_CHAT)).execute();
    expect(owners).toEqual([{ username: 'vida.adm' }]);
    expect(await channelsOf(aurora)).toEqual([]);
    const res = await ctx.request('DELETE', '/api/me/telegram', vida);
    expect(res.json()).toEqual({ success: true, message: 'Telegram desvinculado.' });
    await telegram.waitForCall(sentTo(STRANGER_CHAT, (t) => t.startsWith('Esta conversa foi desvinculada')));
    owners = await ctx.db.selectFrom('users').select('username').where('telegram_chat_id', '=', String(STRANGER_CHAT)).execute();
    expect(owners).toEqual([]);
    expect(await channelsOf(vida)).toEqual([]);
  });
});

describe('alarm delivery (D6) by e-mail and Telegram, and the Reconhecer button', () => {
  it('an alarm reaches each channel once, with its log; the button acknowledges; forged, replayed and foreign presses change nothing', async () => {
    // João: e-mail and Telegram (linked above); Aurora's admin: e-mail; Vida's admin: Telegram, another enterprise.
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'email' })).json()).toEqual(['email', 'telegram']);
    expect((await ctx.request('POST', '/api/me/config/notification-channel', aurora, { channel: 'email' })).statusCode).toBe(200);
    await link(vida, VIDA_CHAT);
    const joaoEmail = (await ctx.db.selectFrom('users').select('email').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).email;
    const auroraEmail = (await ctx.db.selectFrom('users').select('email').where('username', '=', 'aurora.adm').executeTakeFirstOrThrow()).email;

    const before = telegram.calls.length;
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -10), temperature: 11.5, humidity: 50 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();

    const mail = await smtp.waitForMail(joaoEmail, 'Alarme: Temperatura alta em “Baú Caminhão 02”');
    expect(mail.text).toContain('Temperatura acima do limite máximo (8,00 °C)');
    expect(mail.text).toContain('Dispositivo: “Baú Caminhão 02” (C3:00:00:00:01:02)');
    expect(mail.text).toContain('Valor: 11,50 °C');
    expect(mail.text).toContain('Limite: 8,00 °C');
    expect(mail.text).toMatch(/Desde: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(mail.text).toContain(`http://sentinela.test/device-history/${encodeURIComponent(TRUCK_2)}/${device.id}`);
    await smtp.waitForMail(auroraEmail, 'Alarme: Temperatura alta em “Baú Caminhão 02”');

    const message = await telegram.waitForCall((c) => telegram.calls.indexOf(c) >= before && sentTo(JOAO_CHAT, (t) => t.includes('Temperatura acima do limite máximo'))(c));
    expect(String(message.params.text)).toContain('Valor: 11,50 °C');
    const keyboard = (message.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }).inline_keyboard;
    expect(keyboard[0]![0]!.text).toBe('Reconhecer');
    const data = keyboard[0]![0]!.callback_data;
    expect(data).toMatch(/^ack:[A-Za-z0-9_-]{24}$/);

    // The log shows each delivery; nobody of another enterprise heard of it.
    const log = await waitForDeliveries(ctx, alarm.id, aurora, 3);
    expect(log.map((d) => [d.event, d.channel, d.status, d.user?.name])).toEqual(
      expect.arrayContaining([['opened', 'email', 'sent', 'João Silva'], ['opened', 'telegram', 'sent', 'João Silva'], ['opened', 'email', 'sent', expect.any(String)]]),
    );
    expect(log.find((d) => d.channel === 'telegram')!.recipient).toBe('Telegram de João Silva');
    expect(telegram.calls.some(sentTo(VIDA_CHAT, (t) => t.includes('Baú Caminhão 02')))).toBe(false);
    expect((await ctx.request('GET', `/api/alarms/${alarm.id}/deliveries`, vida)).statusCode).toBe(404);

    const messageId = (await ctx.db.selectFrom('alarm_deliveries').select('telegram_message_id').where('alarm_id', '=', alarm.id).where('channel', '=', 'telegram').executeTakeFirstOrThrow()).telegram_message_id;
    const unacknowledged = async () => (await ctx.db.selectFrom('alarms').select('acknowledged_at').where('id', '=', alarm.id).executeTakeFirstOrThrow()).acknowledged_at;

    // Forged data, and João's real button pressed from another enterprise's linked chat: refused, nothing changed.
    const forged = telegram.pressButton(JOAO_CHAT, Number(messageId), `ack:${'x'.repeat(24)}`);
    expect(await answerOf(forged)).toBe('Não foi possível reconhecer este alarme.');
    const foreign = telegram.pressButton(VIDA_CHAT, Number(messageId), data);
    expect(await answerOf(foreign)).toBe('Não foi possível reconhecer este alarme.');
    expect(await unacknowledged()).toBeNull();

    // João presses it: acknowledged by him; the message says so and loses its button.
    const press = telegram.pressButton(JOAO_CHAT, Number(messageId), data);
    expect(await answerOf(press)).toBe('Alarme reconhecido.');
    const edit = await telegram.waitForCall((c) => c.method === 'editMessageText' && Number(c.params.message_id) === Number(messageId));
    expect(String(edit.params.text)).toMatch(/Reconhecido por “João Silva” em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(edit.params.reply_markup).toBeUndefined();
    const history = (await ctx.request('GET', `/api/beacon-device/${TRUCK_2}/notifications`, aurora)).json() as Array<{ _id: string; acknowledge: { message: string; user: { name: string } } | null }>;
    expect(history.find((a) => a._id === alarm.id)!.acknowledge).toMatchObject({ message: 'Reconhecido pelo Telegram.', user: { name: 'João Silva' } });
    const acknowledgedAt = await unacknowledged();
    expect(acknowledgedAt).not.toBeNull();

    // Replayed: refused; the acknowledgement stays as it was.
    ctx.clock.advance(60_000);
    const replay = telegram.pressButton(JOAO_CHAT, Number(messageId), data);
    expect(await answerOf(replay)).toBe('Não foi possível reconhecer este alarme.');
    expect(await unacknowledged()).toEqual(acknowledgedAt);

    // Back inside the limits: "Alarme encerrado" through the same channels.
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 5 }])).statusCode).toBe(200);
    const ended = await smtp.waitForMail(joaoEmail, 'Alarme encerrado: Temperatura alta em “Baú Caminhão 02”');
    expect(ended.text).toContain('Até: ');
    expect(addressesOf(ended)).toEqual([joaoEmail.toLowerCase()]);
    const endedMessage = await telegram.waitForCall(sentTo(JOAO_CHAT, (t) => t.startsWith('✅ Alarme encerrado')));
    expect(endedMessage.params.reply_markup).toBeUndefined();
    await waitForDeliveries(ctx, alarm.id, joao, 6);
  });

  it("a button for an alarm the presser may no longer see is refused (another enterprise's alarm)", async () => {
    // Vida's admin's chat gets Vida's alarm; the chat is then moved to João (another enterprise) and pressed there.
    const before = telegram.calls.length;
    expect((await postReadings(ctx, [{ mac: VACCINES, ts: at(ctx, -10), temperature: 30 }])).statusCode).toBe(200);
    const message = await telegram.waitForCall((c) => telegram.calls.indexOf(c) >= before && sentTo(VIDA_CHAT, (t) => t.includes('Temperatura acima'))(c));
    const data = (message.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard[0]![0]!.callback_data;
    const device = await deviceByMac(ctx, VACCINES);
    const alarm = await ctx.db.selectFrom('alarms').select(['id', 'acknowledged_at']).where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    await waitForDeliveries(ctx, alarm.id, vida, 1);

    // Vida's admin is moved out of the device's reach (another enterprise): the press is refused.
    const vidaUser = await ctx.db.selectFrom('users').select(['id', 'enterprise_id']).where('username', '=', 'vida.adm').executeTakeFirstOrThrow();
    const aurora = await ctx.db.selectFrom('enterprises').select('id').where('id', '<>', vidaUser.enterprise_id!).executeTakeFirstOrThrow();
    await ctx.db.updateTable('users').set({ enterprise_id: aurora.id }).where('id', '=', vidaUser.id).execute();
    const press = telegram.pressButton(VIDA_CHAT, 1, data);
    expect(await answerOf(press)).toBe('Não foi possível reconhecer este alarme.');
    expect((await ctx.db.selectFrom('alarms').select('acknowledged_at').where('id', '=', alarm.id).executeTakeFirstOrThrow()).acknowledged_at).toBeNull();
    await ctx.db.updateTable('users').set({ enterprise_id: vidaUser.enterprise_id }).where('id', '=', vidaUser.id).execute();
  });

  it('an alarm whose announcement was never queued (the process stopped) is announced by the sweep, once', async () => {
    // An alarm stored without its event, as if the process had died between the commit and the job.
    const device = await deviceByMac(ctx, TRUCK_2);
    const joaoEmail = (await ctx.db.selectFrom('users').select('email').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).email;
    const startedAt = new Date(ctx.clock.now().getTime() - 5 * 60_000);
    const alarm = await ctx.db
      .insertInto('alarms')
      .values({ device_id: device.id, travel_id: null, type: 'humidity_low', message: 'Umidade abaixo do limite mínimo (30,00 %)', started_at: startedAt, ended_at: null, humidity_min: 12, humidity_max: 12, temperature_min: 5, temperature_max: 5, acknowledged_at: null, acknowledged_by: null, acknowledge_message: null, created_at: startedAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await ctx.services.alarmDeliveries.sweep()).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitForMail(joaoEmail, 'Alarme: Umidade baixa em “Baú Caminhão 02”');
    expect(mail.text).toContain('Valor: 12,00 %');
    // João by e-mail and Telegram, Aurora's admin by e-mail.
    const log = await waitForDeliveries(ctx, alarm.id, joao, 3);
    expect(log.map((d) => d.channel).sort()).toEqual(['email', 'email', 'telegram']);
    // Announced: the next sweep leaves it alone, and nothing is sent twice.
    await expect.poll(async () => (await ctx.db.selectFrom('alarms').select('notified_opened_at').where('id', '=', alarm.id).executeTakeFirstOrThrow()).notified_opened_at).not.toBeNull();
    await ctx.services.alarmDeliveries.sweep();
    expect((await ctx.db.selectFrom('alarm_deliveries').select('id').where('alarm_id', '=', alarm.id).execute()).length).toBe(3);
    await ctx.db.updateTable('alarms').set({ active: false, ended_at: ctx.clock.now() }).where('id', '=', alarm.id).execute();
  });

  it('deliveries whose jobs were not queued are not left behind: the retry records and queues them again, each sent once', async () => {
    // Past the flapping window of this device's alarms above (ADR 24, 15 min): this opening is announced at once.
    ctx.clock.advance(16 * 60_000);
    joao = (await ctx.login('joao.silva')).token;
    const joaoEmail = (await ctx.db.selectFrom('users').select('email').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).email;
    // The first queueing of an alarm's deliveries fails (the job table refused it), after the deliveries' rows were
    // written: the retry must still find them to queue. Every later queueing goes through.
    const jobs = ctx.services.jobs;
    const sendMany = jobs.sendMany.bind(jobs);
    let failed = 0;
    const spy = vi.spyOn(jobs, 'sendMany').mockImplementation(async (name, queued, options) => {
      if (name === ALARM_DELIVER_JOB && failed++ === 0) throw new Error('the job table refused the insert');
      await sendMany(name, queued, options);
    });
    try {
      const mailsBefore = smtp.received.length;
      expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -2), temperature: 4, humidity: 5 }])).statusCode).toBe(200);
      const device = await deviceByMac(ctx, TRUCK_2);
      const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('type', '=', 'humidity_low').where('active', '=', true).executeTakeFirstOrThrow();
      // João by e-mail and Telegram, Aurora's admin by e-mail: all sent, each at its first attempt.
      const log = await waitForDeliveries(ctx, alarm.id, joao, 3, (d) => d.status === 'sent');
      expect(failed).toBeGreaterThanOrEqual(2);
      expect(log.map((d) => [d.channel, d.attempts]).sort()).toEqual([['email', 1], ['email', 1], ['telegram', 1]]);
      await smtp.waitForMail(joaoEmail, 'Alarme: Umidade baixa em “Baú Caminhão 02”');
      // Once each: João and Aurora's admin.
      const mails = smtp.received.slice(mailsBefore).filter((m) => m.subject === 'Alarme: Umidade baixa em “Baú Caminhão 02”');
      expect(mails).toHaveLength(2);
      expect(mails.flatMap(addressesOf)).toContain(joaoEmail.toLowerCase());
    } finally {
      spy.mockRestore();
      await ctx.db.updateTable('alarms').set({ active: false, ended_at: ctx.clock.now() }).where('device_id', '=', (await deviceByMac(ctx, TRUCK_2)).id).where('active', '=', true).execute();
    }
  });

  it('a Bot API that fails is retried; the log counts the attempts', async () => {
    const device = await deviceByMac(ctx, VACCINES);
    // The temperature alarm ends first, and its message goes, so that the failure below hits the new alarm's.
    expect((await postReadings(ctx, [{ mac: VACCINES, ts: at(ctx, -8), temperature: 4, humidity: 50 }])).statusCode).toBe(200);
    const temperature = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('type', '=', 'temperature_high').executeTakeFirstOrThrow();
    await waitForDeliveries(ctx, temperature.id, vida, 2);
    telegram.failNext('sendMessage', 1);
    expect((await postReadings(ctx, [{ mac: VACCINES, ts: at(ctx, -5), temperature: 4, humidity: 99 }])).statusCode).toBe(200);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('type', '=', 'humidity_high').executeTakeFirstOrThrow();
    const log = await waitForDeliveries(ctx, alarm.id, vida, 1, (d) => d.status === 'sent');
    expect(log.find((d) => d.event === 'opened')).toMatchObject({ channel: 'telegram', status: 'sent', attempts: 2 });
  });
});

describe('Telegram webhook', () => {
  let hook: TestContext;
  let bot: FakeTelegram;
  beforeAll(async () => {
    bot = await startFakeTelegram({ token: '999:webhook-token' });
    hook = await createTestContext({ config: { telegramBotToken: bot.token, telegramApiRoot: bot.apiRoot, telegramWebhookUrl: 'https://sentinela.test/api/telegram/webhook' } });
  });
  afterAll(async () => {
    await hook?.close();
    await bot?.close();
  });

  it('registers the webhook with a secret and refuses calls without it', async () => {
    expect(bot.webhook?.url).toBe('https://sentinela.test/api/telegram/webhook');
    const secret = bot.webhook!.secret_token!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]+$/);
    const update = bot.update({ message: { message_id: 1, date: 1, chat: { id: 77, type: 'private' }, from: { id: 77, is_bot: false, first_name: 'A' }, text: '/start', entities: [{ type: 'bot_command', offset: 0, length: 6 }] } });
    for (const headers of [{}, { 'x-telegram-bot-api-secret-token': 'wrong' }]) {
      const res = await hook.app.inject({ method: 'POST', url: '/api/telegram/webhook', headers, payload: update });
      expect(res.statusCode).toBe(401);
    }
    expect(bot.calls.some((c) => c.method === 'sendMessage')).toBe(false);
    const res = await hook.app.inject({ method: 'POST', url: '/api/telegram/webhook', headers: { 'x-telegram-bot-api-secret-token': secret }, payload: update });
    expect(res.statusCode).toBe(200);
    await bot.waitForCall(sentTo(77, (t) => t.includes('http://sentinela.test/telegram/77/login?token=')));
  });
});

async function answerOf(callbackId: string): Promise<string> {
  const call = await telegram.waitForCall((c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === callbackId);
  return String(call.params.text);
}

describe('X11 the Reconhecer button in GxP mode (ADR 0062)', () => {
  it('X11 opens the signing page instead of acknowledging; signed there, a later press finds it acknowledged', async () => {
    // Past the flapping hold of the truck's earlier alarms (ADR 24), signed in again.
    ctx.clock.advance(16 * 60_000);
    joao = (await ctx.login('joao.silva')).token;
    aurora = (await ctx.login('aurora.adm')).token;
    // Aurora in GxP mode; João's chat is linked and Telegram is on (the delivery test above).
    expect((await ctx.request('PUT', '/api/enterprise/compliance', aurora, { gxp: true })).json()).toMatchObject({ gxp: true });
    expect(await channelsOf(joao)).toContain('telegram');
    const before = telegram.calls.length;
    // An open alarm of Aurora's truck, announced by the sweep (how the ingestion opens one is tested above).
    const device = await deviceByMac(ctx, TRUCK_2);
    const startedAt = new Date(ctx.clock.now().getTime() - 5 * 60_000);
    const alarm = await ctx.db
      .insertInto('alarms')
      .values({ device_id: device.id, travel_id: null, type: 'temperature_high', message: 'Temperatura acima do limite máximo (8,00 °C)', started_at: startedAt, ended_at: null, temperature_min: 12, temperature_max: 12, humidity_min: null, humidity_max: null, acknowledged_at: null, acknowledged_by: null, acknowledge_message: null, created_at: startedAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await ctx.services.alarmDeliveries.sweep()).toBeGreaterThanOrEqual(1);
    const message = await telegram.waitForCall((c) => telegram.calls.indexOf(c) >= before && sentTo(JOAO_CHAT, (t) => t.includes('Temperatura acima'))(c));
    const data = (message.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard[0]![0]!.callback_data;
    await waitForDeliveries(ctx, alarm.id, aurora, 3);
    const messageId = Number((await ctx.db.selectFrom('alarm_deliveries').select('telegram_message_id').where('alarm_id', '=', alarm.id).where('channel', '=', 'telegram').executeTakeFirstOrThrow()).telegram_message_id);
    const acknowledgement = async () => (await ctx.db.selectFrom('alarms').select(['acknowledged_at', 'ack_signature_id']).where('id', '=', alarm.id).executeTakeFirstOrThrow());

    // The press acknowledges nothing: the answer and the edited message point to the device's page, the button stays.
    const press = telegram.pressButton(JOAO_CHAT, messageId, data);
    expect(await answerOf(press)).toBe('Modo GxP: assine o reconhecimento no Sentinela (link na mensagem).');
    const edit = await telegram.waitForCall((c) => c.method === 'editMessageText' && Number(c.params.message_id) === messageId && String(c.params.text).includes('Modo GxP'));
    expect(String(edit.params.text)).toContain(`Assine na aba Alarmes: http://sentinela.test/device-history/${encodeURIComponent(TRUCK_2)}/${device.id}`);
    expect((edit.params.reply_markup as { inline_keyboard: Array<Array<{ callback_data: string }>> }).inline_keyboard[0]![0]!.callback_data).toBe(data);
    expect(await acknowledgement()).toEqual({ acknowledged_at: null, ack_signature_id: null });
    const entries = await ctx.db.selectFrom('audit_trail').select('action').where(sql<boolean>`subject_ids @> ARRAY[${alarm.id}]::text[]`).where('entity', '=', 'alarm').execute();
    expect(entries.map((e) => e.action)).not.toContain('update');

    // Pressed twice: the same answer, still nothing acknowledged.
    expect(await answerOf(telegram.pressButton(JOAO_CHAT, messageId, data))).toBe('Modo GxP: assine o reconhecimento no Sentinela (link na mensagem).');
    expect((await acknowledgement()).acknowledged_at).toBeNull();

    // Signed on the site with the password and a meaning; the button then says it was acknowledged.
    const signed = await ctx.request('POST', `/api/alarms/${alarm.id}/acknowledge`, joao, { message: 'Porta do baú fechada.', password: DEMO_PASSWORD, meaning: 'Revisado' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().acknowledge.signature).toMatchObject({ printed_name: 'João Silva', username: 'joao.silva', meaning: 'Revisado' });
    expect((await acknowledgement()).ack_signature_id).not.toBeNull();
    expect(await answerOf(telegram.pressButton(JOAO_CHAT, messageId, data))).toBe('Este alarme já foi reconhecido.');

    // Back out of GxP mode (with its reason) for whatever runs after.
    expect((await ctx.request('PUT', '/api/enterprise/compliance', aurora, { gxp: false, reason: 'Fim do teste do modo GxP.' })).statusCode).toBe(200);
  });
});
