import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { loadVapidKeys } from '../src/modules/push/vapid-keys';
import { OutgoingClient } from '../src/lib/outgoing/outgoing-client';
import { MAX_PUSH_SUBSCRIPTIONS_PER_USER } from '../src/modules/push/service';
import { PUSH_DELIVERY_FAILED } from '../src/modules/push/push-sender';
import { createServer, type AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { startPushService, type PushServiceServer, type TestBrowser } from './push-service';
import { waitForDeliveries } from './delivery-log';

/**
 * Web push (D6, ADR 22): the VAPID key, browsers' subscriptions (validated, owned by one user, capped), the push
 * channel becoming usable once a browser is subscribed, and alarm messages reaching a local push service that
 * speaks the Web Push protocol and decrypts them with the browser's private key; expired subscriptions removed.
 */
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva

let ctx: TestContext;
let pushService: PushServiceServer;
let keysDir: string;
let joao: string;
let aurora: string;
let vida: string;

beforeAll(async () => {
  pushService = await startPushService();
  keysDir = mkdtempSync(path.join(tmpdir(), 'sentinela-vapid-'));
  ctx = await createTestContext({ demo: true, config: { vapidKeysFile: path.join(keysDir, 'secrets', 'vapid.json'), loginMaxPerMinute: 100 } });
});
afterAll(async () => {
  await ctx?.close();
  await pushService?.close();
  if (keysDir) rmSync(keysDir, { recursive: true, force: true });
});
beforeEach(async () => {
  ctx.clock.advance(60_000);
  joao = (await ctx.login('joao.silva')).token;
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
});

const subscribe = (token: string, browser: TestBrowser) => ctx.request('POST', '/api/me/push-subscriptions', token, browser.subscription);
const subscriptionsOf = async (username: string) =>
  ctx.db
    .selectFrom('push_subscriptions as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select('p.endpoint')
    .where('u.username', '=', username)
    .orderBy('p.created_at')
    .execute()
    .then((rows) => rows.map((r) => r.endpoint));
const channelsOf = async (token: string) => (await ctx.request('GET', '/api/me/config/notification-channel', token)).json() as string[];

describe('VAPID key', () => {
  it('is made once under DATA_DIR (mode 0600), kept across restarts, and served to signed-in users', async () => {
    const res = await ctx.request('GET', '/api/push/vapid-public-key', joao);
    expect(res.statusCode).toBe(200);
    const key = res.json().public_key as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const file = path.join(keysDir, 'secrets', 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Another process (or this one restarted) reads the same pair.
    expect((await loadVapidKeys({ vapidPublicKey: undefined, vapidPrivateKey: undefined, vapidKeysFile: file })).publicKey).toBe(key);
    // Keys given by settings win over the file.
    const given = { vapidPublicKey: 'B'.repeat(87), vapidPrivateKey: 'c'.repeat(43), vapidKeysFile: file };
    expect(await loadVapidKeys(given)).toEqual({ publicKey: given.vapidPublicKey, privateKey: given.vapidPrivateKey });
    expect((await ctx.request('GET', '/api/push/vapid-public-key')).statusCode).toBe(401);
  });

  it('processes starting together agree on one pair, and none reads a half-written file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sentinela-vapid-race-')), 'secrets', 'vapid.json');
    const none = { vapidPublicKey: undefined, vapidPrivateKey: undefined, vapidKeysFile: file };
    const pairs = await Promise.all(Array.from({ length: 8 }, () => loadVapidKeys(none)));
    expect(new Set(pairs.map((p) => p.publicKey)).size).toBe(1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(pairs[0]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['vapid.json']);
  });

  it('settings: both keys or neither, a mailto:/https: subject, the key file under DATA_DIR, HTTP endpoints off by default', () => {
    const defaults = loadConfig({ DATA_DIR: '/srv/sentinela' });
    expect(defaults).toMatchObject({
      vapidPublicKey: undefined,
      vapidKeysFile: '/srv/sentinela/secrets/vapid.json',
      vapidSubject: 'mailto:contato@sentinela.local',
      pushAllowHttpEndpoints: false,
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'B'.repeat(87) })).toThrow(/VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: give both/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: 'c'.repeat(43) })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => loadConfig({ VAPID_SUBJECT: 'http://sentinela.example' })).toThrow(/VAPID_SUBJECT/);
    expect(loadConfig({ VAPID_SUBJECT: 'https://sentinela.example', PUSH_ALLOW_HTTP_ENDPOINTS: '1' })).toMatchObject({ vapidSubject: 'https://sentinela.example', pushAllowHttpEndpoints: true });
  });
});

describe('push subscriptions', () => {
  it('refuses bad subscription bodies with a pt-BR 400 and stores nothing', async () => {
    const good = pushService.newBrowser().subscription;
    const notOnCurve = Buffer.alloc(65, 7);
    notOnCurve[0] = 4;
    const bodies: Array<[unknown, RegExp]> = [
      [{}, /Inscrição push inválida/],
      [{ ...good, endpoint: 'not a url' }, /endpoint\) do serviço de push deve ser uma URL https/],
      [{ ...good, endpoint: 'ftp://127.0.0.1/push/x' }, /deve ser uma URL https/],
      [{ ...good, endpoint: `${good.endpoint}?${'a'.repeat(1000)}` }, /de até 1000 caracteres/],
      [{ ...good, endpoint: 42 }, /deve ser uma URL https/],
      [{ endpoint: good.endpoint }, /faltam as chaves/],
      [{ ...good, keys: { ...good.keys, p256dh: 'abc' } }, /chave p256dh deve ser uma chave pública P-256/],
      [{ ...good, keys: { ...good.keys, p256dh: notOnCurve.toString('base64url') } }, /chave p256dh deve ser uma chave pública P-256/],
      [{ ...good, keys: { ...good.keys, auth: 'x'.repeat(30) } }, /chave auth deve ter 16 bytes/],
      [{ ...good, keys: { ...good.keys, auth: '<script>alert(1)</script>' } }, /chave auth deve ter 16 bytes/],
    ];
    for (const [body, message] of bodies) {
      const res = await ctx.request('POST', '/api/me/push-subscriptions', joao, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect(await subscriptionsOf('joao.silva')).toEqual([]);
    expect((await ctx.request('POST', '/api/me/push-subscriptions', undefined, good)).statusCode).toBe(401);
  });

  it('push becomes usable once a browser is subscribed; a subscription is one user\'s, and only they remove it', async () => {
    // Before any browser: push is refused, with the action that subscribes this browser.
    let res = await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'push' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(/^Ative as notificações neste navegador/);
    const status = (await ctx.request('GET', '/api/me/config/notification-channel/status', joao)).json();
    expect(status.channels.find((c: { channel: string }) => c.channel === 'push')).toMatchObject({
      available: false,
      action: { label: 'Ativar neste navegador', href: '/settings#push' },
    });

    const browser = pushService.newBrowser();
    res = await subscribe(joao, browser);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ endpoint: browser.subscription.endpoint });
    // Twice is still once.
    expect((await subscribe(joao, browser)).statusCode).toBe(200);
    expect(await subscriptionsOf('joao.silva')).toEqual([browser.subscription.endpoint]);
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'push' })).json()).toEqual(['push']);
    expect((await ctx.request('GET', '/api/me/push-subscriptions', joao)).json()).toEqual([expect.objectContaining({ endpoint: browser.subscription.endpoint })]);
    expect((await ctx.request('GET', '/api/me/push-subscriptions', aurora)).json()).toEqual([]);

    // Another enterprise's user, and another user of the same enterprise, cannot remove it: 404, nothing changed.
    for (const token of [vida, aurora]) {
      res = await ctx.request('DELETE', '/api/me/push-subscriptions', token, { endpoint: browser.subscription.endpoint });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Inscrição push não encontrada.');
    }
    expect(await subscriptionsOf('joao.silva')).toEqual([browser.subscription.endpoint]);
    expect(await channelsOf(joao)).toEqual(['push']);

    // The same browser subscribed by someone else (another person signed in there) moves to them; João, left
    // without a browser, has push turned off.
    res = await subscribe(vida, browser);
    expect(res.statusCode).toBe(200);
    expect(await subscriptionsOf('joao.silva')).toEqual([]);
    expect(await subscriptionsOf('vida.adm')).toEqual([browser.subscription.endpoint]);
    expect(await channelsOf(joao)).toEqual([]);

    // Its owner unsubscribes it.
    res = await ctx.request('DELETE', '/api/me/push-subscriptions', vida, { endpoint: browser.subscription.endpoint });
    expect(res.statusCode).toBe(200);
    expect(await subscriptionsOf('vida.adm')).toEqual([]);
  });

  it(`keeps at most ${MAX_PUSH_SUBSCRIPTIONS_PER_USER} browsers per user: a new one replaces the oldest`, async () => {
    const browsers = Array.from({ length: MAX_PUSH_SUBSCRIPTIONS_PER_USER + 1 }, () => pushService.newBrowser());
    for (const browser of browsers) {
      ctx.clock.advance(1000);
      expect((await subscribe(aurora, browser)).statusCode).toBe(200);
    }
    expect(await subscriptionsOf('aurora.adm')).toEqual(browsers.slice(1).map((b) => b.subscription.endpoint));
    for (const browser of browsers.slice(1)) {
      expect((await ctx.request('DELETE', '/api/me/push-subscriptions', aurora, { endpoint: browser.subscription.endpoint })).statusCode).toBe(200);
    }
  });

  it('production refuses plain-HTTP and internal endpoints (SSRF)', async () => {
    const guard = new OutgoingClient({ allowPrivate: false, allowedPorts: [443], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const endpointAllowed = (endpoint: string, _allowLocal: false) => guard.urlAllowed(endpoint);
    expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', false)).toBe(true);
    expect(endpointAllowed('https://updates.push.services.mozilla.com/wpush/v2/abc', false)).toBe(true);
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1/push',
      'https://10.1.2.3/push',
      'https://192.168.0.10/push',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://localhost/push',
      'https://metadata.google.internal/push',
      'https://intranet/push',
      'https://user:pass@fcm.googleapis.com/push',
      // Issue 21 item 7: an IPv4-translated loopback address on a port that is not 443.
      'https://[::ffff:0:7f00:1]:39805/push',
      'https://[::ffff:0:7f00:1]/push',
      'https://[::7f00:1]/push',
      'https://0x7f.1/push',
      'https://fcm.googleapis.com:8443/push',
    ]) {
      expect(endpointAllowed(endpoint, false), endpoint).toBe(false);
    }
    // A name that resolves to a loopback address is refused before any connection (outgoing.test.ts has the rest).
    await expect(guard.request('https://push.example.com/abc', { method: 'POST' })).rejects.toMatchObject({ reason: 'refused' });

    const strict = await createTestContext({ demo: true, config: { pushAllowHttpEndpoints: false, outgoingAllowPrivate: false, webhookAllowPrivate: false } });
    try {
      const token = (await strict.login('joao.silva')).token;
      const res = await strict.request('POST', '/api/me/push-subscriptions', token, pushService.newBrowser().subscription);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Inscrição push inválida: este endereço de serviço de push não é aceito.');
      const probe = { ...pushService.newBrowser().subscription, endpoint: 'https://[::ffff:0:7f00:1]:39805/push' };
      const refused = await strict.request('POST', '/api/me/push-subscriptions', token, probe);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe('Inscrição push inválida: este endereço de serviço de push não é aceito.');
      expect((await strict.db.selectFrom('push_subscriptions').select('id').execute()).length).toBe(0);
    } finally {
      await strict.close();
    }
    // A second app on its own demo database: slow on PGlite on a busy machine.
  }, 120_000);
});

describe('alarm delivery by web push (D6)', () => {
  it('an opened alarm reaches every browser of each person, decrypted by the browser; expired ones are removed', async () => {
    // João: two browsers, one of whose push service is down this once; Aurora's admin: a browser whose subscription
    // expired.
    const laptop = pushService.newBrowser();
    const phone = pushService.newBrowser();
    const stale = pushService.newBrowser();
    for (const [token, browser] of [[joao, laptop], [joao, phone], [aurora, stale]] as const) expect((await subscribe(token, browser)).statusCode).toBe(200);
    for (const token of [joao, aurora]) expect((await ctx.request('POST', '/api/me/config/notification-channel', token, { channel: 'push' })).statusCode).toBe(200);
    pushService.expire(stale.id);
    pushService.failNext(phone.id, 1);
    const publicKey = (await ctx.request('GET', '/api/push/vapid-public-key', joao)).json().public_key as string;

    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -10), temperature: 11.5, humidity: 50 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();

    for (const browser of [laptop]) {
      const push = await pushService.waitFor((p) => p.browserId === browser.id);
      const payload = JSON.parse(push.text) as { title: string; body: string; url: string; tag: string };
      expect(payload.title).toBe('Alarme: Temperatura alta em “Baú Caminhão 02”');
      expect(payload.body).toContain('Dispositivo: “Baú Caminhão 02” (C3:00:00:00:01:02)');
      expect(payload.body).toContain('Valor: 11,50 °C');
      expect(payload.body).toContain('Limite: 8,00 °C');
      expect(payload.url).toBe(`http://sentinela.test/device-history/${encodeURIComponent(TRUCK_2)}/${device.id}`);
      expect(payload.tag).toBe(`alarm:${alarm.id}`);
      // Signed with this server's VAPID key, for the push service's origin, naming the configured contact.
      expect(push.vapid).toMatchObject({ publicKey, aud: pushService.root, sub: 'mailto:contato@sentinela.test' });
      expect(push.headers.urgency).toBe('high');
    }

    const log = await waitForDeliveries(ctx, alarm.id, aurora, 2);
    const joaoPush = log.find((d) => d.channel === 'push' && d.user?.name === 'João Silva');
    // Reaching one of his browsers is delivering to João (ADR 22): the log says how many took it.
    expect(joaoPush).toMatchObject({ status: 'sent', attempts: 1, recipient: 'Push de João Silva (1 navegador)' });
    expect(pushService.refused.some((r) => r.browserId === phone.id && r.status === 500)).toBe(true);
    const auroraPush = log.find((d) => d.channel === 'push' && d.user?.name !== 'João Silva');
    expect(auroraPush).toMatchObject({ status: 'failed', error: 'Inscrições push expiradas: nenhum navegador inscrito.' });
    expect(auroraPush!.recipient).toMatch(/^Push de .+ \(0 navegadores\)$/);
    // The expired subscription is gone, and with no browser left push is off for Aurora's admin.
    expect(await subscriptionsOf('aurora.adm')).toEqual([]);
    expect(await channelsOf(aurora)).toEqual([]);
    expect(pushService.refused.some((r) => r.browserId === stale.id && r.status === 410)).toBe(true);

    // Back inside the limits: "Alarme encerrado" to João's browsers.
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 5 }])).statusCode).toBe(200);
    for (const browser of [laptop, phone]) {
      const ended = await pushService.waitFor((p) => p.browserId === browser.id && p.text.includes('Alarme encerrado'));
      expect(JSON.parse(ended.text).body).toContain('Até: ');
    }
    expect((await waitForDeliveries(ctx, alarm.id, joao, 3)).find((d) => d.event === 'ended')).toMatchObject({ recipient: 'Push de João Silva (2 navegadores)' });
  });

  it('a push service that keeps failing is retried by the delivery job; the log counts the attempts', async () => {
    // Past the flapping guard's window (ADR 24): this is a new alarm, not the last one re-opening; João signs in again.
    ctx.clock.advance(20 * 60_000);
    joao = (await ctx.login('joao.silva')).token;
    const browser = pushService.newBrowser();
    // João's other browsers are unsubscribed: only this one, which fails once.
    for (const endpoint of await subscriptionsOf('joao.silva')) await ctx.request('DELETE', '/api/me/push-subscriptions', joao, { endpoint });
    expect((await subscribe(joao, browser)).statusCode).toBe(200);
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'push' })).statusCode).toBe(200);
    pushService.failNext(browser.id, 1);
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -3), temperature: 12, humidity: 50 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    await pushService.waitFor((p) => p.browserId === browser.id && p.text.includes('12,00 °C'));
    const log = await waitForDeliveries(ctx, alarm.id, joao, 1, (d) => d.status === 'sent');
    expect(log.find((d) => d.channel === 'push')).toMatchObject({ status: 'sent', attempts: 2, recipient: 'Push de João Silva (1 navegador)' });
    expect(pushService.refused.some((r) => r.browserId === browser.id && r.status === 500)).toBe(true);
  });

  it('a browser that cannot be reached is logged with a generic pt-BR error, never the network’s words (issue 21 item 7)', async () => {
    ctx.clock.advance(20 * 60_000);
    joao = (await ctx.login('joao.silva')).token;
    for (const endpoint of await subscriptionsOf('joao.silva')) await ctx.request('DELETE', '/api/me/push-subscriptions', joao, { endpoint });
    // The alarm of the test above ends (back in range), so the reading below opens a new one.
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -4), temperature: 5, humidity: 50 }])).statusCode).toBe(200);
    // An endpoint on a port where nothing listens: the connection is refused (ECONNREFUSED) at every attempt.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const browser = pushService.newBrowser();
    const unreachable = { ...browser.subscription, endpoint: `http://127.0.0.1:${closedPort}/push/${browser.id}` };
    expect((await ctx.request('POST', '/api/me/push-subscriptions', joao, unreachable)).statusCode).toBe(200);
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'push' })).statusCode).toBe(200);
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -2), temperature: 13, humidity: 50 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').select('id').where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    const log = await waitForDeliveries(ctx, alarm.id, joao, 1, (d) => d.channel !== 'push' || d.error !== null);
    const push = log.find((d) => d.channel === 'push')!;
    expect(push.error).toBe(PUSH_DELIVERY_FAILED);
    expect(JSON.stringify(log)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|connect/);
  });
});
