import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { startFakeTelegram, type BotApiCall, type FakeTelegram } from './fake-telegram';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/**
 * Reminders, escalation and the flapping guard (issue 11 item 4, ADR 24), on a moved clock: reminders at N, 2N, …
 * exactly once even when two sweeps race, escalation to the administrators after M exactly once, nothing after an
 * acknowledgement or the end, the settings' bounds and tenant isolation, and a flapping sensor that does not flood.
 */
const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, 0..8 °C, linked to joao.silva
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva
const MINUTE = 60_000;
const JOAO = 'joao.silva@aurora.example';
const AURORA_ADMIN = 'aurora.adm@aurora.example';

const JOAO_CHAT = 5_560_001;

let ctx: TestContext;
let smtp: TestSmtpServer;
let telegram: FakeTelegram;
let joao: string;
let aurora: string;
let vida: string;
let admin: string;
let auroraId: string;
let vidaId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  telegram = await startFakeTelegram();
  ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url, telegramBotToken: telegram.token, telegramApiRoot: telegram.apiRoot, loginMaxPerMinute: 100 } });
  auroraId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  vidaId = (await ctx.db.selectFrom('enterprises').select('id').where('id', '<>', auroraId).executeTakeFirstOrThrow()).id;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await telegram?.close();
  await smtp?.close();
});
beforeEach(async () => {
  ctx.clock.advance(MINUTE);
  joao = (await ctx.login('joao.silva')).token;
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
  admin = (await ctx.login('admin')).token;
});

const settingsOf = async (enterpriseId: string) =>
  ctx.db.selectFrom('enterprises').select(['reminder_minutes', 'escalation_minutes']).where('id', '=', enterpriseId).executeTakeFirstOrThrow();

describe('Lembretes e escalonamento: settings per enterprise', () => {
  it('defaults, saves within bounds, refuses the rest in pt-BR', async () => {
    let res = await ctx.request('GET', '/api/enterprise/alarm-escalation', aurora);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ reminder_minutes: 30, escalation_minutes: 60 });

    res = await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 0, escalation_minutes: 5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ reminder_minutes: 0, escalation_minutes: 5 });
    expect((await ctx.request('GET', '/api/enterprise/alarm-escalation', aurora)).json()).toEqual({ reminder_minutes: 0, escalation_minutes: 5 });

    for (const [body, message] of [
      [{ reminder_minutes: 4, escalation_minutes: 60 }, 'O intervalo dos lembretes deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.'],
      [{ reminder_minutes: 30, escalation_minutes: 1441 }, 'O tempo para escalonar deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.'],
      [{ reminder_minutes: 7.5, escalation_minutes: 60 }, 'O intervalo dos lembretes deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.'],
      [{ reminder_minutes: -1, escalation_minutes: 60 }, 'O intervalo dos lembretes deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.'],
      [{ reminder_minutes: '30', escalation_minutes: 60 }, 'O intervalo dos lembretes deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.'],
      [{ escalation_minutes: 60 }, 'O intervalo dos lembretes deve ser 0 (desligado) ou um número inteiro de minutos entre 5 e 1440.'],
    ] as const) {
      res = await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    expect(await settingsOf(auroraId)).toEqual({ reminder_minutes: 0, escalation_minutes: 5 });

    // Not an administrator: refused.
    expect((await ctx.request('GET', '/api/enterprise/alarm-escalation', joao)).statusCode).toBe(403);
    expect((await ctx.request('PUT', '/api/enterprise/alarm-escalation', joao, { reminder_minutes: 5, escalation_minutes: 5 })).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/enterprise/alarm-escalation')).statusCode).toBe(401);
  });

  it("an administrator of another enterprise neither reads nor changes Aurora's; the platform administrator names the enterprise", async () => {
    await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 15, escalation_minutes: 45 });
    // Vida's administrator: their own enterprise, whatever id they pass.
    let res = await ctx.request('GET', `/api/enterprise/alarm-escalation?enterprise_id=${auroraId}`, vida);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Empresa não encontrada.');
    res = await ctx.request('PUT', `/api/enterprise/alarm-escalation?enterprise_id=${auroraId}`, vida, { reminder_minutes: 0, escalation_minutes: 0 });
    expect(res.statusCode).toBe(404);
    expect(await settingsOf(auroraId)).toEqual({ reminder_minutes: 15, escalation_minutes: 45 });
    res = await ctx.request('PUT', '/api/enterprise/alarm-escalation', vida, { reminder_minutes: 20, escalation_minutes: 0 });
    expect(res.json()).toEqual({ reminder_minutes: 20, escalation_minutes: 0 });
    expect(await settingsOf(auroraId)).toEqual({ reminder_minutes: 15, escalation_minutes: 45 });
    expect((await ctx.request('GET', '/api/enterprise/alarm-escalation', aurora)).json()).toEqual({ reminder_minutes: 15, escalation_minutes: 45 });

    // The platform administrator: must say which enterprise; an unknown one is a 404.
    res = await ctx.request('GET', '/api/enterprise/alarm-escalation', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/Escolha a empresa/);
    expect((await ctx.request('GET', `/api/enterprise/alarm-escalation?enterprise_id=${vidaId}`, admin)).json()).toEqual({ reminder_minutes: 20, escalation_minutes: 0 });
    expect((await ctx.request('GET', '/api/enterprise/alarm-escalation?enterprise_id=00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    expect((await ctx.request('GET', '/api/enterprise/alarm-escalation?enterprise_id=abc', admin)).statusCode).toBe(400);
    res = await ctx.request('PUT', `/api/enterprise/alarm-escalation?enterprise_id=${vidaId}`, admin, { reminder_minutes: 30, escalation_minutes: 60 });
    expect(res.statusCode).toBe(200);
    expect(await settingsOf(vidaId)).toEqual({ reminder_minutes: 30, escalation_minutes: 60 });
  });
});

/** The deliveries of an alarm as [event, seq, channel, recipient], sorted. */
async function deliveriesOf(alarmId: string): Promise<string[]> {
  const rows = await ctx.db.selectFrom('alarm_deliveries').select(['event', 'seq', 'channel', 'recipient']).where('alarm_id', '=', alarmId).execute();
  return rows.map((r) => `${r.event}#${r.seq} ${r.channel} ${r.recipient}`).sort();
}

async function openAlarm(mac: string, temperature: number) {
  expect((await postReadings(ctx, [{ mac, ts: at(ctx, -10), temperature, humidity: 50 }])).statusCode).toBe(200);
  const device = await deviceByMac(ctx, mac);
  return ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
}

/** Waits until the alarm's opening was announced (its deliveries recorded): when reminders count from. */
async function announcedAt(alarmId: string): Promise<Date> {
  await expect.poll(async () => (await ctx.db.selectFrom('alarms').select('notified_opened_at').where('id', '=', alarmId).executeTakeFirstOrThrow()).notified_opened_at, { timeout: 20_000 }).not.toBeNull();
  return (await ctx.db.selectFrom('alarms').select('notified_opened_at').where('id', '=', alarmId).executeTakeFirstOrThrow()).notified_opened_at!;
}

describe('reminders and escalation on a moved clock', () => {
  it('reminds at N and 2N (once, even when two sweeps race), escalates to the administrators after M once, and stops when acknowledged', async () => {
    await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 10, escalation_minutes: 25 });
    // João hears of his device's alarms by e-mail; Aurora's administrator turned no channel on.
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'email' })).statusCode).toBe(200);
    const alarm = await openAlarm(TRUCK_2, 11.5);
    await smtp.waitForMail(JOAO, 'Alarme: Temperatura alta em “Baú Caminhão 02”');
    const t0 = await announcedAt(alarm.id);
    const sweep = () => ctx.services.alarmReminders.sweep();

    ctx.clock.set(new Date(t0.getTime() + 10 * MINUTE - 1));
    await sweep();
    expect(await deliveriesOf(alarm.id)).toEqual([`opened#0 email ${JOAO}`]);

    ctx.clock.set(new Date(t0.getTime() + 10 * MINUTE));
    await sweep();
    await sweep();
    expect(await deliveriesOf(alarm.id)).toEqual([`opened#0 email ${JOAO}`, `reminder#1 email ${JOAO}`]);
    const first = await smtp.waitForMail(JOAO, 'Lembrete: Temperatura alta em “Baú Caminhão 02”');
    expect(first.text).toContain('Lembrete: alarme ainda ativo há 10 min, sem reconhecimento. Temperatura acima do limite máximo (8,00 °C)');
    expect(first.text).toContain('Valor: 11,50 °C');

    // Two sweeps at once (two processes): reminder 2 is delivered once.
    ctx.clock.set(new Date(t0.getTime() + 20 * MINUTE));
    await Promise.all([sweep(), sweep()]);
    expect(await deliveriesOf(alarm.id)).toEqual([`opened#0 email ${JOAO}`, `reminder#1 email ${JOAO}`, `reminder#2 email ${JOAO}`]);

    // M minutes: the administrator who hears nothing of it is told, once.
    ctx.clock.set(new Date(t0.getTime() + 25 * MINUTE));
    await Promise.all([sweep(), sweep()]);
    await sweep();
    const escalated = await smtp.waitForMail(AURORA_ADMIN, 'Escalonado: Temperatura alta em “Baú Caminhão 02”');
    expect(escalated.text).toContain('Escalonado: alarme ativo há 25 min sem reconhecimento.');
    expect(await deliveriesOf(alarm.id)).toEqual([
      `escalated#1 email ${AURORA_ADMIN}`,
      `opened#0 email ${JOAO}`,
      `reminder#1 email ${JOAO}`,
      `reminder#2 email ${JOAO}`,
    ]);

    // Missed sweeps (the server was down from 25 to 47 minutes): one reminder, numbered by the time, to both.
    ctx.clock.set(new Date(t0.getTime() + 47 * MINUTE));
    await sweep();
    expect((await deliveriesOf(alarm.id)).filter((d) => d.startsWith('reminder#4'))).toEqual([`reminder#4 email ${AURORA_ADMIN}`, `reminder#4 email ${JOAO}`]);
    expect((await deliveriesOf(alarm.id)).filter((d) => d.startsWith('reminder#3'))).toEqual([]);
    await smtp.waitFor((m) => m.subject === 'Lembrete: Temperatura alta em “Baú Caminhão 02”' && (m.text ?? '').includes('há 47 min'));

    // Acknowledged: no more reminders.
    aurora = (await ctx.login('aurora.adm')).token;
    const ack = await ctx.request('POST', `/api/alarms/${alarm.id}/acknowledge`, aurora, { message: 'Equipe a caminho.' });
    expect(ack.statusCode, ack.body).toBe(200);
    const before = await deliveriesOf(alarm.id);
    ctx.clock.set(new Date(t0.getTime() + 120 * MINUTE));
    await sweep();
    expect(await deliveriesOf(alarm.id)).toEqual(before);
    // Every delivery went out (the ones of the log are all sent).
    await expect
      .poll(async () => (await ctx.db.selectFrom('alarm_deliveries').select('status').where('alarm_id', '=', alarm.id).execute()).map((r) => r.status), { timeout: 20_000 })
      .toEqual(before.map(() => 'sent'));
    aurora = (await ctx.login('aurora.adm')).token;
    const log = (await ctx.request('GET', `/api/alarms/${alarm.id}/deliveries`, aurora)).json() as Array<{ event: string; seq: number }>;
    expect(log.filter((d) => d.event === 'reminder').map((d) => d.seq)).toEqual([1, 2, 4, 4]);

    // Back inside the limits, the alarm ends.
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 5 }])).statusCode).toBe(200);
  });

  it('an ended alarm is reminded no more; a reminder queued before the end is cancelled, not sent', async () => {
    await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 5, escalation_minutes: 0 });
    const alarm = await openAlarm(TRUCK_1, 12);
    const t0 = await announcedAt(alarm.id);
    expect((await postReadings(ctx, [{ mac: TRUCK_1, ts: at(ctx, -5), temperature: 4 }])).statusCode).toBe(200);
    await expect.poll(async () => (await ctx.db.selectFrom('alarms').select('active').where('id', '=', alarm.id).executeTakeFirstOrThrow()).active).toBe(false);
    ctx.clock.set(new Date(t0.getTime() + 60 * MINUTE));
    await ctx.services.alarmReminders.sweep();
    expect((await deliveriesOf(alarm.id)).filter((d) => d.startsWith('reminder') || d.startsWith('escalated'))).toEqual([]);

    // A reminder recorded while the alarm was open, delivered after its end: cancelled.
    const joaoId = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).id;
    const row = await ctx.db
      .insertInto('alarm_deliveries')
      .values({ alarm_id: alarm.id, user_id: joaoId, event: 'reminder', seq: 1, channel: 'email', recipient: JOAO, status: 'pending', created_at: ctx.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.services.jobs.send('alarm-deliver', { deliveryId: row.id }, `delivery:${row.id}`);
    await expect.poll(async () => (await ctx.db.selectFrom('alarm_deliveries').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status, { timeout: 20_000 }).toBe('cancelled');
  });
});

describe('flapping guard', () => {
  it('10 open/close cycles in 10 minutes: one opening and one end per recipient; a re-opening that stays is told once the window passed', async () => {
    await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 0, escalation_minutes: 0 });
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'email' })).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const start = ctx.clock.now();
    for (let cycle = 0; cycle < 10; cycle += 1) {
      expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -1), temperature: 9 + (cycle % 3) }])).statusCode).toBe(200);
      ctx.clock.advance(30_000);
      expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -1), temperature: 7 }])).statusCode).toBe(200);
      ctx.clock.advance(30_000);
    }
    const alarms = () =>
      ctx.db.selectFrom('alarms').select(['id', 'active', 'folded', 'notified_opened_at', 'notified_ended_at']).where('device_id', '=', device.id).where('type', '=', 'temperature_high').where('created_at', '>=', start).orderBy('started_at').execute();
    expect((await alarms()).length).toBe(10);
    // Every announcement decided (told or folded) once the jobs ran.
    await expect.poll(async () => (await alarms()).every((a) => a.notified_opened_at !== null && a.notified_ended_at !== null), { timeout: 30_000 }).toBe(true);
    const decided = await alarms();
    expect(decided.map((a) => a.folded)).toEqual([false, true, true, true, true, true, true, true, true, true]);

    const ids = decided.map((a) => a.id);
    const count = async () => {
      const rows = await ctx.db.selectFrom('alarm_deliveries').select(['event', 'recipient']).where('alarm_id', 'in', ids).execute();
      return rows.map((r) => `${r.event} ${r.recipient}`).sort();
    };
    // João (e-mail) hears it opened and ended: two messages, not twenty.
    expect(await count()).toEqual([`ended ${JOAO}`, `opened ${JOAO}`]);
    // The sweeps find nothing left to announce about them.
    await ctx.services.alarmDeliveries.sweep();
    expect(await count()).toEqual([`ended ${JOAO}`, `opened ${JOAO}`]);

    // An 11th opening, within the window: held while the window lasts…
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -1), temperature: 10 }])).statusCode).toBe(200);
    const held = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    ctx.clock.advance(2 * MINUTE);
    await ctx.services.alarmDeliveries.sweep();
    await expect.poll(async () => ctx.services.jobs.hasPending('alarm-notify', `alarm:${held.id}:opened`), { timeout: 20_000 }).toBe(false);
    expect(await deliveriesOf(held.id)).toEqual([]);
    // …and told once it is over (15 minutes after the last announcement), since the alarm is still open.
    ctx.clock.set(new Date(decided[0]!.notified_opened_at!.getTime() + 15 * MINUTE + 1));
    await ctx.services.alarmDeliveries.sweep();
    await expect.poll(async () => deliveriesOf(held.id), { timeout: 20_000 }).toEqual([`opened#0 email ${JOAO}`]);
    expect((await ctx.db.selectFrom('alarms').select('folded').where('id', '=', held.id).executeTakeFirstOrThrow()).folded).toBe(false);
  });
});

describe('a reminder in Telegram', () => {
  const sentTo = (chatId: number, match: (text: string) => boolean) => (c: BotApiCall) =>
    c.method === 'sendMessage' && Number(c.params.chat_id) === chatId && match(String(c.params.text));

  it('carries "Reconhecer"; pressing it acknowledges the alarm and the reminders stop', async () => {
    await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 5, escalation_minutes: 0 });
    // João links his chat through the bot's one-time link.
    telegram.sendText(JOAO_CHAT, '/start');
    const answer = await telegram.waitForCall(sentTo(JOAO_CHAT, (t) => t.includes('/login?token=')));
    const token = new URL(/http\S+/.exec(String(answer.params.text))![0]).searchParams.get('token');
    expect((await ctx.request('POST', `/api/me/telegram/${JOAO_CHAT}/link?token=${token}`, joao)).statusCode).toBe(200);

    const alarm = await openAlarm(TRUCK_1, 13);
    const t0 = await announcedAt(alarm.id);
    await telegram.waitForCall(sentTo(JOAO_CHAT, (t) => t.startsWith('🚨 Temperatura acima')));
    ctx.clock.set(new Date(t0.getTime() + 5 * MINUTE));
    await ctx.services.alarmReminders.sweep();
    const reminder = await telegram.waitForCall(sentTo(JOAO_CHAT, (t) => t.startsWith('⏰ Lembrete: alarme ainda ativo há 5 min')));
    expect(String(reminder.params.text)).toContain('Dispositivo: “Baú Caminhão 01” (C3:00:00:00:01:01)');
    const button = (reminder.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }).inline_keyboard[0]![0]!;
    expect(button.text).toBe('Reconhecer');

    const messageId = (await ctx.db.selectFrom('alarm_deliveries').select('telegram_message_id').where('alarm_id', '=', alarm.id).where('event', '=', 'reminder').where('channel', '=', 'telegram').executeTakeFirstOrThrow()).telegram_message_id;
    const press = telegram.pressButton(JOAO_CHAT, Number(messageId), button.callback_data);
    const pressed = await telegram.waitForCall((c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === press);
    expect(pressed.params.text).toBe('Alarme reconhecido.');
    const acknowledged = await ctx.db.selectFrom('alarms').select(['acknowledged_at', 'acknowledge_message']).where('id', '=', alarm.id).executeTakeFirstOrThrow();
    expect(acknowledged.acknowledge_message).toBe('Reconhecido pelo Telegram.');

    ctx.clock.set(new Date(t0.getTime() + 30 * MINUTE));
    await ctx.services.alarmReminders.sweep();
    expect((await deliveriesOf(alarm.id)).filter((d) => d.startsWith('reminder'))).toEqual([`reminder#1 email ${JOAO}`, `reminder#1 telegram ${JOAO_CHAT}`]);
  });
});
