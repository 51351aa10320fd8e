import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableAllChannels, sentTo, startAllChannels, type AllChannels } from './all-channels';
import { createTestContext, type TestContext } from './context';
import { waitForDeliveries } from './delivery-log';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import type { TestBrowser } from './push-service';

/**
 * Issue 11's first "Done when", end to end: with every channel configured against its local server, one reading out
 * of range opens an alarm and each of the five channels receives its message for that alarm; "Reconhecer" pressed in
 * the Telegram chat acknowledges it and the device history and the open-alarms list say who did; then, on a moved
 * clock, another alarm left alone is reminded on every channel and escalated to the administrator, while the
 * acknowledged one stays quiet.
 */
const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, 0..8 °C, linked to joao.silva
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva
const JOAO_EMAIL = 'joao.silva@aurora.example';
const AURORA_ADMIN_EMAIL = 'aurora.adm@aurora.example';
const JOAO_CHAT = 5_570_001;
const JOAO_PHONE = '+5511988880001';
const MINUTE = 60_000;

let ctx: TestContext;
let channels: AllChannels;
let joao: string;
let aurora: string;
let browser: TestBrowser;

beforeAll(async () => {
  channels = await startAllChannels();
  ctx = await createTestContext({ demo: true, config: { ...channels.config, loginMaxPerMinute: 100 } });
  // After the demo's last reading, which may be a few seconds before the seed's "now".
  ctx.clock.advance(60_000);
  joao = (await ctx.login('joao.silva')).token;
  aurora = (await ctx.login('aurora.adm')).token;
  // João hears of his devices on all five channels; Aurora's administrator turned none on (escalation reaches them).
  browser = await enableAllChannels(ctx, channels, { username: 'joao.silva', token: joao, chatId: JOAO_CHAT, phone: '(11) 98888-0001' });
  expect((await ctx.request('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 10, escalation_minutes: 15 })).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await channels?.close();
});

async function openAlarm(mac: string, temperature: number) {
  expect((await postReadings(ctx, [{ mac, ts: at(ctx, -10), temperature, humidity: 50 }])).statusCode).toBe(200);
  const device = await deviceByMac(ctx, mac);
  const alarm = await ctx.db.selectFrom('alarms').select(['id', 'device_id']).where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
  return { alarm, link: `http://sentinela.test/device-history/${encodeURIComponent(mac)}/${device.id}` };
}

describe('one alarm, every channel (issue 11, A10, A12, D6, X3)', () => {
  it('reaches e-mail, Telegram, push, SMS and WhatsApp; "Reconhecer" in the chat acknowledges it; reminders and escalation fire on a moved clock', async () => {
    const { smtp, telegram, pushService, sms, whatsapp } = channels;
    const telegramBefore = telegram.calls.length;
    const { alarm, link } = await openAlarm(TRUCK_2, 11.5);

    // Each channel's server receives its message about this alarm.
    const mail = await smtp.waitForMail(JOAO_EMAIL, 'Alarme: Temperatura alta em “Baú Caminhão 02”');
    expect(mail.text).toContain('Valor: 11,50 °C');
    expect(mail.text).toContain(link);
    const chat = await telegram.waitForCall((c) => telegram.calls.indexOf(c) >= telegramBefore && sentTo(JOAO_CHAT, (t) => t.includes('Temperatura acima do limite máximo'))(c));
    expect(String(chat.params.text)).toContain('Valor: 11,50 °C');
    const button = (chat.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }).inline_keyboard[0]![0]!;
    expect(button.text).toBe('Reconhecer');
    const push = await pushService.waitFor((p) => p.browserId === browser.id);
    expect(JSON.parse(push.text)).toMatchObject({ title: 'Alarme: Temperatura alta em “Baú Caminhão 02”', url: link, tag: `alarm:${alarm.id}` });
    const text = await sms.waitForMessage((m) => m.To === JOAO_PHONE);
    expect(text.Body).toMatch(/^Sentinela: ALARME Temperatura alta em Baú Caminhão 02: valor 11,50 °C, limite 8,00 °C/);
    expect(text.Body.endsWith(link)).toBe(true);
    const message = await whatsapp.waitForMessage((m) => m.to === JOAO_PHONE);
    expect(message.template).toBe('sentinela_alarme_aberto');
    expect(message.parameters).toEqual(['Baú Caminhão 02', 'Temperatura alta, 11,50 °C', '8,00 °C', expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/), link]);

    // The alarm's log: one delivery per channel, all sent, all João's; nobody else was told.
    const log = await waitForDeliveries(ctx, alarm.id, aurora, 5);
    expect(log.map((d) => [d.event, d.channel, d.status, d.user?.name]).sort()).toEqual(
      ['email', 'push', 'sms', 'telegram', 'whatsapp'].map((channel) => ['opened', channel, 'sent', 'João Silva']),
    );
    expect(smtp.received.filter((m) => m.subject?.includes('Baú Caminhão 02')).length).toBe(1);
    expect(pushService.received.length).toBe(1);
    expect(sms.messages.length).toBe(1);
    expect(whatsapp.messages.length).toBe(1);

    // João presses "Reconhecer" in his chat: Telegram delivers the press with its message; the alarm is his.
    const sentMessageId = (await ctx.db.selectFrom('alarm_deliveries').select('telegram_message_id').where('alarm_id', '=', alarm.id).where('channel', '=', 'telegram').executeTakeFirstOrThrow()).telegram_message_id;
    const press = telegram.pressButton(JOAO_CHAT, Number(sentMessageId), button.callback_data);
    const answer = await telegram.waitForCall((c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === press);
    expect(answer.params.text).toBe('Alarme reconhecido.');
    const edit = await telegram.waitForCall((c) => c.method === 'editMessageText' && Number(c.params.message_id) === Number(sentMessageId));
    expect(String(edit.params.text)).toMatch(/Reconhecido por “João Silva” em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    // The device history and the open-alarms list say who acknowledged it, to anyone who may see the device.
    const history = (await ctx.request('GET', `/api/beacon-device/${TRUCK_2}/notifications`, aurora)).json() as Array<{ _id: string; acknowledge_formatted: string; acknowledge: { message: string; user: { name: string } } | null }>;
    expect(history.find((a) => a._id === alarm.id)).toMatchObject({ acknowledge_formatted: 'Sim', acknowledge: { message: 'Reconhecido pelo Telegram.', user: { name: 'João Silva' } } });
    const open = (await ctx.request('GET', '/api/alarms/open', aurora)).json() as { unacknowledged: number; alarms: Array<{ _id: string; acknowledge: { user: { name: string } } | null }> };
    expect(open.alarms.find((a) => a._id === alarm.id)?.acknowledge).toMatchObject({ user: { name: 'João Silva' } });
    expect(open.unacknowledged).toBe(0);

    // Another alarm, left alone: at 15 minutes (reminders every 10, escalation at 15) one sweep reminds João on all
    // five channels and tells Aurora's administrator by e-mail; the acknowledged alarm gets nothing more.
    const second = await openAlarm(TRUCK_1, 13);
    await waitForDeliveries(ctx, second.alarm.id, aurora, 5);
    const t0 = (await ctx.db.selectFrom('alarms').select('notified_opened_at').where('id', '=', second.alarm.id).executeTakeFirstOrThrow()).notified_opened_at!;
    ctx.clock.set(new Date(t0.getTime() + 15 * MINUTE));
    joao = (await ctx.login('joao.silva')).token;
    aurora = (await ctx.login('aurora.adm')).token;
    expect(await ctx.services.alarmReminders.sweep()).toBeGreaterThan(0);

    const reminded = await waitForDeliveries(ctx, second.alarm.id, aurora, 11);
    expect(reminded.filter((d) => d.event !== 'opened').map((d) => [d.event, d.channel, d.status, d.recipient]).sort()).toEqual(
      [
        ['escalated', 'email', 'sent', AURORA_ADMIN_EMAIL],
        ['reminder', 'email', 'sent', JOAO_EMAIL],
        ['reminder', 'push', 'sent', 'Push de João Silva (1 navegador)'],
        ['reminder', 'sms', 'sent', JOAO_PHONE],
        ['reminder', 'telegram', 'sent', 'Telegram de João Silva'],
        ['reminder', 'whatsapp', 'sent', JOAO_PHONE],
      ].sort(),
    );
    await smtp.waitForMail(JOAO_EMAIL, 'Lembrete: Temperatura alta em “Baú Caminhão 01”');
    const escalated = await smtp.waitForMail(AURORA_ADMIN_EMAIL, 'Escalonado: Temperatura alta em “Baú Caminhão 01”');
    expect(escalated.text).toContain('Escalonado: alarme ativo há 15 min sem reconhecimento.');
    const reminder = await telegram.waitForCall(sentTo(JOAO_CHAT, (t) => t.startsWith('⏰ Lembrete: alarme ainda ativo há 15 min')));
    expect((reminder.params.reply_markup as { inline_keyboard: Array<Array<{ text: string }>> }).inline_keyboard[0]![0]!.text).toBe('Reconhecer');
    await pushService.waitFor((p) => p.browserId === browser.id && JSON.parse(p.text).title === 'Lembrete: Temperatura alta em “Baú Caminhão 01”');
    await sms.waitForMessage((m) => m.To === JOAO_PHONE && m.Body.startsWith('Sentinela: ALARME Lembrete, ativo há 15 min sem reconhecimento: Temperatura alta em Baú Caminhão 01'));
    await whatsapp.waitForMessage((m) => m.to === JOAO_PHONE && m.parameters[0]!.startsWith('Baú Caminhão 01') && m.parameters[1] === 'Lembrete, ativo há 15 min sem reconhecimento: Temperatura alta, 13,00 °C');

    const first = await ctx.db.selectFrom('alarm_deliveries').select('event').where('alarm_id', '=', alarm.id).execute();
    expect(first.map((d) => d.event)).toEqual(['opened', 'opened', 'opened', 'opened', 'opened']);
  });
});
