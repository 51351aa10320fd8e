import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { brazilianMobile } from '../src/modules/notifications/channels/phone-number';
import { phoneProvidersConfig } from './all-channels';
import { createTestContext, type TestContext } from './context';
import { startFakeSmsProvider, type FakeSmsProvider } from './fake-sms-provider';
import { startFakeWhatsApp, WHATSAPP_TEMPLATES, type FakeWhatsApp } from './fake-whatsapp';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { waitForDeliveries } from './delivery-log';

/**
 * SMS and WhatsApp alarm messages (D6, A10, ADR 23): the channel toggles refused without a provider or a mobile
 * number, alarm messages through a local Twilio-compatible Messages API and a local WhatsApp Cloud API, retries of a
 * provider that fails, and refusals no retry can change recorded as failed at once.
 */
const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, 0..8 °C, 30..90 %, linked to joao.silva
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva
const JOAO_PHONE = '+5511988880001';
const AURORA_PHONE = '+5521977770002';
const VIDA_PHONE = '+5531966660003';

let ctx: TestContext;
let sms: FakeSmsProvider;
let whatsapp: FakeWhatsApp;
let joao: string;
let aurora: string;
let vida: string;

beforeAll(async () => {
  sms = await startFakeSmsProvider();
  whatsapp = await startFakeWhatsApp();
  ctx = await createTestContext({
    demo: true,
    config: { loginMaxPerMinute: 100, ...phoneProvidersConfig(sms, whatsapp) },
  });
  // Profiles' phones as the form writes them.
  for (const [username, phone] of [['joao.silva', '(11) 98888-0001'], ['aurora.adm', '(21) 97777-0002'], ['vida.adm', '(31) 96666-0003']]) {
    await ctx.db.updateTable('users').set({ phone }).where('username', '=', username!).execute();
  }
});
afterAll(async () => {
  await ctx?.close();
  await sms?.close();
  await whatsapp?.close();
});
beforeEach(async () => {
  ctx.clock.advance(60_000);
  joao = (await ctx.login('joao.silva')).token;
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
});

const turnOn = (token: string, channel: string) => ctx.request('POST', '/api/me/config/notification-channel', token, { channel });
const statusOf = async (token: string, channel: string) =>
  ((await ctx.request('GET', '/api/me/config/notification-channel/status', token)).json() as { channels: Array<{ channel: string; available: boolean; reason: string | null; action: unknown }> }).channels.find((c) => c.channel === channel)!;
const setPhone = (username: string, phone: string | null) => ctx.db.updateTable('users').set({ phone }).where('username', '=', username).execute();

describe('Configurações: SMS and WhatsApp (A10)', () => {
  it('turns SMS and WhatsApp on for a user with a mobile number; refuses them without one, with why', async () => {
    expect((await turnOn(joao, 'sms')).json()).toEqual(['sms']);
    expect((await turnOn(joao, 'whatsapp')).json()).toEqual(['sms', 'whatsapp']);
    expect(await statusOf(joao, 'whatsapp')).toMatchObject({ available: true, reason: null, action: null });

    for (const [phone, reason] of [
      [null, 'Cadastre um telefone celular no seu perfil para receber notificações por SMS.'],
      ['(31) 3333-4444', 'O telefone do seu perfil é fixo: cadastre um celular para receber notificações por SMS.'],
      ['(01) 96666-0003', /não é um celular brasileiro válido/],
      ['+1 415 555 0100', /não é um celular brasileiro válido/],
    ] as const) {
      await setPhone('vida.adm', phone);
      const res = await turnOn(vida, 'sms');
      expect(res.statusCode, String(phone)).toBe(422);
      if (typeof reason === 'string') expect(res.json().error).toBe(reason);
      else expect(res.json().error).toMatch(reason);
      expect(await statusOf(vida, 'sms')).toMatchObject({ available: false, action: { label: 'Ir para o Perfil', href: '/profile' } });
      expect((await turnOn(vida, 'whatsapp')).json().error).toMatch(/WhatsApp/);
    }
    expect((await ctx.request('GET', '/api/me/config/notification-channel', vida)).json()).toEqual([]);
    // The same number spelt with the country code, or with the trunk zero, is the same mobile.
    for (const phone of ['+55 31 96666-0003', '031 96666-0003', '(31) 96666-0003']) {
      await setPhone('vida.adm', phone);
      expect((await turnOn(vida, 'sms')).statusCode, phone).toBe(200);
    }
    // Turning a channel off is always allowed.
    expect((await ctx.request('DELETE', '/api/me/config/notification-channel', vida, { channel: 'sms' })).json()).toEqual([]);
  });
});

describe('alarm delivery (D6) by SMS and WhatsApp', () => {
  it('an alarm that opens and ends reaches each person by SMS (Twilio Messages API) and WhatsApp (template), never another enterprise', async () => {
    expect((await turnOn(aurora, 'sms')).statusCode).toBe(200);
    // Another enterprise's admin with both on hears nothing of Aurora's devices.
    expect((await turnOn(vida, 'sms')).statusCode).toBe(200);
    expect((await turnOn(vida, 'whatsapp')).statusCode).toBe(200);

    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -10), temperature: 11.5, humidity: 50 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    const link = `http://sentinela.test/device-history/${encodeURIComponent(TRUCK_2)}/${device.id}`;

    const text = await sms.waitForMessage((m) => m.To === JOAO_PHONE && m.Body.includes('ALARME'));
    expect(text.From).toBe(sms.from);
    expect(text.MessagingServiceSid).toBeNull();
    expect(text.Body).toMatch(/^Sentinela: ALARME Temperatura alta em Baú Caminhão 02: valor 11,50 °C, limite 8,00 °C, desde \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\. /);
    expect(text.Body.endsWith(link)).toBe(true);
    expect(text.Body.length).toBeLessThanOrEqual(300);
    await sms.waitForMessage((m) => m.To === AURORA_PHONE && m.Body.includes('ALARME Temperatura alta em Baú Caminhão 02'));

    const message = await whatsapp.waitForMessage((m) => m.to === JOAO_PHONE && m.template === 'sentinela_alarme_aberto');
    expect(message.parameters).toEqual(['Baú Caminhão 02', 'Temperatura alta, 11,50 °C', '8,00 °C', expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/), link]);
    expect(message.text).toMatch(/^🚨 Alarme no dispositivo Baú Caminhão 02: Temperatura alta, 11,50 °C \(limite 8,00 °C\) desde /);

    const log = await waitForDeliveries(ctx, alarm.id, aurora, 3);
    expect(log.map((d) => [d.event, d.channel, d.recipient, d.status, d.attempts, d.user?.name]).sort()).toEqual(
      [
        ['opened', 'sms', AURORA_PHONE, 'sent', 1, 'Aurora Administração'],
        ['opened', 'sms', JOAO_PHONE, 'sent', 1, 'João Silva'],
        ['opened', 'whatsapp', JOAO_PHONE, 'sent', 1, 'João Silva'],
      ].sort(),
    );
    // Vida's admin may not read it, and was sent nothing.
    expect((await ctx.request('GET', `/api/alarms/${alarm.id}/deliveries`, vida)).statusCode).toBe(404);
    expect(sms.messages.some((m) => m.To === VIDA_PHONE)).toBe(false);
    expect(whatsapp.messages.some((m) => m.to === VIDA_PHONE)).toBe(false);

    // Back inside the limits: the ended messages.
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 5, humidity: 50 }])).statusCode).toBe(200);
    const ended = await sms.waitForMessage((m) => m.To === JOAO_PHONE && m.Body.startsWith('Sentinela: alarme encerrado'));
    expect(ended.Body).toMatch(/de \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} até \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\. /);
    const endedMessage = await whatsapp.waitForMessage((m) => m.to === JOAO_PHONE && m.template === 'sentinela_alarme_encerrado');
    expect(endedMessage.parameters[3]).toMatch(/ até /);
    expect(endedMessage.text.startsWith('✅ Alarme encerrado no dispositivo Baú Caminhão 02')).toBe(true);
    await waitForDeliveries(ctx, alarm.id, joao, 6);
    expect(Object.keys(WHATSAPP_TEMPLATES)).toEqual(['sentinela_alarme_aberto', 'sentinela_alarme_encerrado']);
  });

  it('a provider that fails (500, 503) is retried; the log counts the attempts', async () => {
    sms.failNext(500, 1);
    whatsapp.failNext(503, 1);
    const refusedSms = sms.refused;
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -10), temperature: 5, humidity: 99 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).where('type', '=', 'humidity_high').executeTakeFirstOrThrow();
    const log = await waitForDeliveries(ctx, alarm.id, joao, 3, (d) => d.status === 'sent');
    expect(log.filter((d) => d.attempts === 2).map((d) => d.channel).sort()).toEqual(['sms', 'whatsapp']);
    expect(sms.refused).toBe(refusedSms + 1);
    const message = await whatsapp.waitForMessage((m) => m.to === JOAO_PHONE && m.parameters[1] === 'Umidade alta, 99,00 %');
    expect(message.parameters[2]).toBe('90,00 %');
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 5, humidity: 50 }])).statusCode).toBe(200);
    await waitForDeliveries(ctx, alarm.id, joao, 6);
  });

  it('a provider that does not answer is given up after SMS_TIMEOUT_MS and retried', async () => {
    sms.hangNext(1);
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -10), temperature: -2, humidity: 50 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).where('type', '=', 'temperature_low').executeTakeFirstOrThrow();
    const log = await waitForDeliveries(ctx, alarm.id, joao, 3, (d) => d.status === 'sent');
    expect(log.filter((d) => d.channel === 'sms').map((d) => d.attempts).sort()).toEqual([1, 2]);
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 5, humidity: 50 }])).statusCode).toBe(200);
    await waitForDeliveries(ctx, alarm.id, joao, 6);
  });

  it('credentials the provider refuses (401) are recorded failed at once, without retrying', async () => {
    sms.setAuthToken('rotated-token');
    whatsapp.setAccessToken('rotated-token');
    try {
      expect((await postReadings(ctx, [{ mac: TRUCK_1, ts: at(ctx, -10), temperature: -3, humidity: 50 }])).statusCode).toBe(200);
      const device = await deviceByMac(ctx, TRUCK_1);
      const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
      const log = await waitForDeliveries(ctx, alarm.id, joao, 3);
      expect(log.map((d) => [d.channel, d.status, d.attempts]).sort()).toEqual([['sms', 'failed', 1], ['sms', 'failed', 1], ['whatsapp', 'failed', 1]]);
      expect(log.find((d) => d.channel === 'sms')!.error).toBe('SMS recusado pelo provedor (HTTP 401): Authenticate (código 20003)');
      expect(log.find((d) => d.channel === 'whatsapp')!.error).toMatch(/^WhatsApp recusou a mensagem \(HTTP 401\): Invalid OAuth access token.*\(código 190\)$/);
      // The jobs are done: nothing is retried later.
      const pending = await ctx.db.selectFrom('alarm_deliveries').select('id').where('alarm_id', '=', alarm.id).where('status', '=', 'pending').execute();
      expect(pending).toEqual([]);
    } finally {
      sms.setAuthToken(ctx.services.config.smsAuthToken!);
      whatsapp.setAccessToken(ctx.services.config.whatsappAccessToken!);
    }
  });

  it('a phone removed after the channel was turned on is skipped; the other channels still go', async () => {
    await setPhone('aurora.adm', null);
    try {
      expect((await postReadings(ctx, [{ mac: TRUCK_1, ts: at(ctx, -5), temperature: 4, humidity: 10 }])).statusCode).toBe(200);
      const device = await deviceByMac(ctx, TRUCK_1);
      const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('type', '=', 'humidity_low').executeTakeFirstOrThrow();
      const log = await waitForDeliveries(ctx, alarm.id, aurora, 2);
      expect(log.map((d) => [d.channel, d.recipient, d.status]).sort()).toEqual([['sms', JOAO_PHONE, 'sent'], ['whatsapp', JOAO_PHONE, 'sent']]);
    } finally {
      await setPhone('aurora.adm', '(21) 97777-0002');
    }
  });
});

describe('SMS and WhatsApp not configured on this server', () => {
  let bare: TestContext;
  beforeAll(async () => {
    bare = await createTestContext({ demo: true });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('refuses both toggles with the settings to define, and sends nothing even if a toggle is on', async () => {
    const token = (await bare.login('joao.silva')).token;
    let res = await bare.request('POST', '/api/me/config/notification-channel', token, { channel: 'sms' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('O envio por SMS ainda não foi ativado neste servidor. Peça ao responsável pela plataforma Sentinela para ativá-lo.');
    res = await bare.request('POST', '/api/me/config/notification-channel', token, { channel: 'whatsapp' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('O envio por WhatsApp ainda não foi ativado neste servidor. Peça ao responsável pela plataforma Sentinela para ativá-lo.');
    // Users read these: no server setting names in any channel's reason (issue 26).
    const settings = (await bare.request('GET', '/api/me/config/notification-channel/status', token)).json() as { channels: Array<{ reason: string | null }> };
    const reasons = settings.channels.map((c) => c.reason).filter((r): r is string => r !== null);
    expect(reasons.length).toBeGreaterThanOrEqual(3);
    for (const reason of reasons) expect(reason).not.toMatch(/[A-Z]{2,}_[A-Z_]+/);
    expect(reasons).toContain('O Telegram ainda não foi ativado neste servidor. Peça ao responsável pela plataforma Sentinela para ativá-lo.');

    // Toggles left on from when a provider was configured: skipped; e-mail (to the outbox) still goes.
    const user = await bare.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow();
    await bare.db.insertInto('notification_channels').values([{ user_id: user.id, channel: 'sms' }, { user_id: user.id, channel: 'whatsapp' }, { user_id: user.id, channel: 'email' }]).execute();
    bare.clock.advance(60_000);
    expect((await postReadings(bare, [{ mac: TRUCK_2, ts: at(bare, -10), temperature: 12 }])).statusCode).toBe(200);
    const device = await deviceByMac(bare, TRUCK_2);
    const alarm = await bare.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    await expect.poll(async () => (await bare.db.selectFrom('alarms').select('notified_opened_at').where('id', '=', alarm.id).executeTakeFirstOrThrow()).notified_opened_at, { timeout: 20_000 }).not.toBeNull();
    const rows = await bare.db.selectFrom('alarm_deliveries').select('channel').where('alarm_id', '=', alarm.id).execute();
    expect(rows.map((r) => r.channel)).toEqual(['email']);
  });
});

describe('phone numbers and settings', () => {
  it('normalises Brazilian mobiles to E.164 and tells the others apart', () => {
    expect(brazilianMobile('(11) 99999-0001')).toEqual({ ok: true, e164: '+5511999990001' });
    expect(brazilianMobile('+55 (21) 98765-4321')).toEqual({ ok: true, e164: '+5521987654321' });
    expect(brazilianMobile('5521987654321')).toEqual({ ok: true, e164: '+5521987654321' });
    expect(brazilianMobile('021 98765-4321')).toEqual({ ok: true, e164: '+5521987654321' });
    expect(brazilianMobile('(21) 3456-7890')).toEqual({ ok: false, problem: 'landline' });
    expect(brazilianMobile('0 21 21 98765-4321')).toEqual({ ok: true, e164: '+5521987654321' });
    // Area codes that do not exist in Anatel's plan (libphonenumber-js's metadata): 20, 23, 29…
    for (const phone of ['(20) 99999-0001', '(23) 99999-0001']) expect(brazilianMobile(phone), phone).toEqual({ ok: false, problem: 'invalid' });
    for (const phone of [null, '', '   ']) expect(brazilianMobile(phone)).toEqual({ ok: false, problem: 'missing' });
    for (const phone of ['(10) 99999-0001', '(11) 89999-0001', '+1 212 555 0100', '(11) 99999-0001 ramal 2', '11999990001999', '(11) 99999-000']) {
      expect(brazilianMobile(phone), phone).toEqual({ ok: false, problem: 'invalid' });
    }
  });

  it('reads the SMS and WhatsApp settings, with their defaults, and refuses malformed ones', () => {
    const none = loadConfig({});
    expect(none).toMatchObject({ smsApiUrl: 'https://api.twilio.com', smsAccountSid: undefined, whatsappApiUrl: 'https://graph.facebook.com', whatsappApiVersion: 'v22.0', whatsappTemplateOpened: 'sentinela_alarme_aberto', whatsappTemplateEnded: 'sentinela_alarme_encerrado', whatsappTemplateLanguage: 'pt_BR' });
    const set = loadConfig({ SMS_API_URL: 'https://sms.example/', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 't', SMS_FROM: 'MG0123456789abcdef0123456789abcdef', WHATSAPP_PHONE_NUMBER_ID: '123', WHATSAPP_ACCESS_TOKEN: 'x' });
    expect(set).toMatchObject({ smsApiUrl: 'https://sms.example', smsAccountSid: 'AC1', smsFrom: 'MG0123456789abcdef0123456789abcdef', whatsappPhoneNumberId: '123' });
    expect(() => loadConfig({ SMS_FROM: '11 99999-0001' })).toThrow(/SMS_FROM/);
    expect(() => loadConfig({ WHATSAPP_PHONE_NUMBER_ID: 'abc' })).toThrow(/WHATSAPP_PHONE_NUMBER_ID/);
    expect(() => loadConfig({ WHATSAPP_TEMPLATE_OPENED: 'Alarme Aberto' })).toThrow(/WHATSAPP_TEMPLATE_OPENED/);
  });
});
