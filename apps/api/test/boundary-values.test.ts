import type { LightMyRequestResponse } from 'fastify';
import { sha256 } from '../src/lib/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_VERSION, INSTANT_MAX_MS, INSTANT_MIN_MS, MAX_PAGE, Report, type z } from '@sentinela/contract';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { postReadings } from './ingest-helpers';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { rawV2AdvertisementHex } from '../src/ingest/vendor-formats/ruuvi-rawv2';
import { startFakeGeocoder, type FakeGeocoder } from './fake-geocoder';
import { PAGARME_TEST_CARD, startFakePagarme } from './fake-pagarme';
import { foreignPdf, pdfPart, saoPauloText, upload, waitForReport, xlsxPart, xlsxWith } from './report-helpers';
import { file as firmwareFile, image, notes as firmwareNotes, postFirmware, version as firmwareVersion } from './firmware-helpers';
import { fillPath, pathParams, routeOf, walkableRoutes, type WalkedRoute } from './route-walk';
import { CODES, MACS, deviceId, travelId, userId } from './travel-helpers';
import { createECDH } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { reportLinkCapability } from '../src/modules/reports/file-links';
import { localDay } from '../src/lib/time-zone';

/**
 * Issue 9, item 2: a stored value can never break a later answer. Boundary values go in through every write route
 * (longest texts with accents, emoji and right-to-left script, limits at the physical bounds, the poles and the
 * antimeridian, rows created and readings taken at the first and last instants the product accepts), then every
 * read route is called with them: no 500, and every answer passes its response schema (a value the serialiser
 * refuses would be a 500). The routes are the app's own list, so a new route is walked without editing this file,
 * and the test fails if a route was never called.
 */
let ctx: TestContext;
let routes: WalkedRoute[];
const called = new Set<string>();
const today = new Date();

/**
 * Text of exactly `length` UTF-16 units, already composed and trimmed (so stored exactly as sent): accents,
 * emoji (surrogate pairs), Hebrew, CJK.
 */
function longText(length: number, seed = 'Ação çé 😀🚚 “Ñandú” עברית 中文 ☃ '): string {
  let text = '';
  for (const ch of Array.from(seed.repeat(Math.ceil(length / seed.length) + 1))) {
    if (text.length + ch.length > length) break;
    text += ch;
  }
  return text.trimEnd().padEnd(length, 'x');
}

const NAME_80 = longText(80);
const NAME_120 = longText(120);
const ADDRESS_300 = longText(300);
const MIDDLE = '\nSegunda linha\tcom tab\r\n';
const MESSAGE_500 = `${longText(200)}${MIDDLE}${longText(300 - MIDDLE.length)}`;
const PASSWORD_128 = `Aa1@${'x'.repeat(124)}`;
/** 254 characters, the longest address SMTP carries: a 64-character local part and 63-character labels. */
const emailOf = (letter: string) => `${letter.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
const USERNAME_60 = `j.${'s'.repeat(58)}`;

const FIRST = new Date(INSTANT_MIN_MS);
const LAST = new Date(INSTANT_MAX_MS - 1);
const WHOLE_RANGE = `dateInitUtc=${FIRST.toISOString()}&dateEndUtc=${LAST.toISOString()}`;

/** Readings at the physical bounds of every measure, the smallest normal `real` among them. */
function extremeReadings(mac: string, start: number): unknown[] {
  const values = [
    { temperature: -80, humidity: 0, battery: 0, lat: -90, lng: -180 },
    { temperature: 150, humidity: 100, battery: 100, lat: 90, lng: 180 },
    { temperature: 1.1754943508222875e-38, humidity: 1.1754943508222875e-38, battery: 3.4e-38, lat: -1e-9, lng: 1e-9 },
    { temperature: -79.99999, humidity: 99.99999, battery: 50, lat: 0, lng: 0 },
    { temperature: null, humidity: null, battery: null },
  ];
  return values.map((v, i) => ({ mac, ts: new Date(start + i * 100).toISOString(), ...v }));
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, body?: unknown): Promise<LightMyRequestResponse> {
  const res = await ctx.request(method, url, token, body);
  record(method, url, res);
  return res;
}

function record(method: string, url: string, res: LightMyRequestResponse): void {
  const route = routeOf(routes, method, url);
  if (route) called.add(route.key);
  expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 500)}`).toBeLessThan(500);
}

/** A write that must succeed: the boundary value is one the product accepts. */
async function write<T = { _id: string }>(method: 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown): Promise<T> {
  const res = await call(method, url, token, body);
  expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 500)}`).toBeLessThan(300);
  return res.json() as T;
}

/** POST /api/devices/{id}/calibrations as the browser sends it: the fields, then the PDF (X12). */
async function certificate(token: string, id: string): Promise<void> {
  const boundary = `----boundary-${Date.now()}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const day = today.toISOString().slice(0, 10);
  // A certificate is valid for at most ten years: due on the day before.
  const due = `${today.getUTCFullYear() + 10}${day.slice(4)}`;
  const payload = Buffer.concat([
    Buffer.from(field('calibrated_at', day) + field('due_at', new Date(Date.parse(due) - 86_400_000).toISOString().slice(0, 10)) + field('laboratory', longText(120)) + field('certificate_number', longText(60))),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="certificate"; filename="${longText(60)}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    await foreignPdf(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await ctx.app.inject({
    method: 'POST', url: `/api/devices/${id}/calibrations`, payload,
    headers: { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux', 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
  record('POST', `/api/devices/${id}/calibrations`, res);
  expect(res.statusCode, res.body.slice(0, 500)).toBeLessThan(300);
}

async function login(username: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await call('POST', '/api/authenticate', undefined, { username, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token.token;
}

const PIX_WEBHOOK_TOKEN = 'boundary-values-pix-webhook-token';

const state = {
  tokens: {} as Record<'admin' | 'aurora' | 'joao' | 'vida' | 'maria', string>,
  joaoUsername: 'joao.silva',
  reports: [] as string[],
  travels: [] as string[],
  newEnterprise: '',
  newAdmin: '',
  newAdminUsername: '',
  signedUpToken: '',
  monitorToken: '',
};

async function loginAll() {
  state.tokens = {
    admin: await login('admin'),
    aurora: await login('aurora.adm'),
    joao: await login(state.joaoUsername),
    vida: await login('vida.adm'),
    maria: await login('maria.souza'),
  };
}

let geocoder: FakeGeocoder;
/** A local Pagar.me (ADR 31): cards with the longest holder name and the farthest expiry. */
let pagarme: Awaited<ReturnType<typeof startFakePagarme>>;
/** A ViaCEP-compatible server on 127.0.0.1 answering every code with the longest plausible fields. */
let cepServer: Server;

beforeAll(async () => {
  // The address search answers through a local Nominatim-compatible server (no places: the route's own values are its query's).
  geocoder = await startFakeGeocoder();
  pagarme = await startFakePagarme();
  cepServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ cep: '01310-100', logradouro: longText(200), bairro: longText(120), localidade: longText(120), uf: 'SP', ibge: '3550308' }),
    );
  });
  await new Promise<void>((resolve) => cepServer.listen(0, '127.0.0.1', resolve));
  const cepLookupUrl = `http://127.0.0.1:${(cepServer.address() as AddressInfo).port}/ws`;
  ctx = await createTestContext({
    demo: true,
    config: {
      loginMaxPerMinute: 10_000, localizatorMaxPerMinute: 10_000, geocoderUrl: geocoder.url, cepLookupUrl,
      // The longest receiver name and city a BR Code holds, and a PIX key of the longest kind (a 77-character e-mail).
      pixKey: `${'p'.repeat(64)}@${'q'.repeat(8)}.com`, pixReceiverName: 'Sentinelã Tecnologia Ltda', pixReceiverCity: 'São José Campos', pixWebhookToken: PIX_WEBHOOK_TOKEN,
      cardProvider: { name: 'pagarme', publicKey: pagarme.publicKey, secretKey: pagarme.secretKey, apiUrl: pagarme.apiUrl, timeoutMs: 5000 },
    },
  });
  routes = walkableRoutes(ctx.routes);
}, 120_000);
afterAll(async () => {
  await ctx.close();
  await geocoder.close();
  await pagarme.close();
  await new Promise<void>((resolve) => cepServer.close(() => resolve()));
});

async function exportReport(url: string, token: string): Promise<void> {
  const res = await call('GET', url, token);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  state.reports.push(res.json()._id);
}

describe('boundary values stored through every write route', () => {
  it('at the first instant the product accepts (1970-01-01T00:00:00Z)', async () => {
    ctx.clock.set(FIRST);
    await loginAll();
    const { admin, aurora } = state.tokens;

    // Both spellings of the registration; the longest name and email, the longest password.
    type Created = { client: { _id: string }; user: { _id: string; username: string } };
    const created = await write<Created>('POST', '/api/client/create/', admin, { client: { name: NAME_120 }, user: { email: emailOf('a'), password: PASSWORD_128 } });
    state.newEnterprise = created.client._id;
    state.newAdmin = created.user._id;
    state.newAdminUsername = created.user.username;
    await write('POST', '/api/client/create', admin, { client: { name: `😀 ${longText(100)}` }, user: { email: emailOf('e'), password: PASSWORD_128 } });
    await login(state.newAdminUsername, PASSWORD_128);

    // Sign-up (A3) with the longest values, then its confirmation resend and a recovery (A6) of that account.
    // The documents' answer: false, the e-mail is free.
    expect((await call('POST', '/api/user/email-available', undefined, { email: emailOf('s') })).json()).toBe(false);
    // Enterprise names are unique (ADR 18): the sign-up's company differs from the one registered above by a letter.
    // The sign-up's proof of work (issue 21 item 5), solved for real.
    const signUpChallenge = (await call('GET', '/api/client/challenge')).json() as Challenge;
    const signUpAltcha = Buffer.from(JSON.stringify({ challenge: signUpChallenge, solution: await solveChallenge({ challenge: signUpChallenge, deriveKey }) })).toString('base64');
    const signedUp = await call('POST', '/api/client', undefined, {
      name: NAME_120, username: `s.${'u'.repeat(58)}`, email: emailOf('s'), phone: '(11) 98765-4321', password: PASSWORD_128, client: { name: `Z${NAME_120.slice(1)}` }, altcha: signUpAltcha,
    });
    expect(signedUp.statusCode, signedUp.body).toBe(200);
    state.signedUpToken = await login(`s.${'u'.repeat(58)}`, PASSWORD_128);
    await write('POST', '/api/verify-email/resend', state.signedUpToken);

    // Contact form (A14), with a challenge solved for real; address, plan and users of an enterprise (A4, A11, A13).
    const challenge = (await call('GET', '/api/contact-us/challenge')).json() as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const sent = await call('POST', '/api/contact-us', undefined, { name: NAME_120, email: emailOf('k'), phone: '(99) 99999-9999', message: MESSAGE_500, altcha });
    expect(sent.statusCode, sent.body).toBe(200);
    await write('POST', '/api/enterprise/address', aurora, {
      cep: '01310-100', number: longText(20), address: longText(200), neighbourhood: longText(120), city: longText(120), uf: 'SP', ibge: '3550308',
    });
    const plans = (await call('GET', '/api/plans')).json() as Array<{ _id: string; cicle: Array<{ id: string }> }>;
    await write('POST', '/api/enterprise/plan', aurora, { plan_id: plans[0]!._id, cicle_id: plans[0]!.cicle[0]!.id });
    const createdUser = await write<{ user: { _id: string } }>('POST', '/api/user/create', aurora, {
      name: NAME_120, username: `n.${'v'.repeat(58)}`, email: emailOf('n'), phone: '(99) 99999-9999', profile: { _id: 5 },
      available_devices: [await deviceId(ctx, MACS.freezer)],
    });
    const auroraEnterprise = (await ctx.db.selectFrom('users').select('enterprise_id').where('username', '=', 'aurora.adm').executeTakeFirstOrThrow()).enterprise_id!;
    await write('POST', `/api/client/link/${auroraEnterprise}`, aurora, { users: [{ id: createdUser.user._id, isOwner: false }] });
    expect((await call('POST', '/api/password/request/reset', undefined, { email: emailOf('s') })).statusCode).toBe(200);
    expect((await call('POST', '/api/password/reset', undefined, { email: emailOf('s'), code: '000000', password: PASSWORD_128 })).statusCode).toBe(400);
    // "Não fui eu" with the longest token a link may carry: not one of ours, refused in pt-BR (ADR 58).
    expect((await call('POST', '/api/account/protect', undefined, { token: 'x'.repeat(200) })).statusCode).toBe(404);

    const gateway = await write('POST', '/api/gateways', aurora, { name: NAME_80 });
    await write('PUT', `/api/gateways/${gateway._id}`, aurora, { name: longText(80, '😀') });
    // The lowest firmware version, the longest notes (HTML of accents, emoji and other scripts), a one-byte file.
    const lowest = await postFirmware(ctx, admin, [firmwareVersion('0.0.0'), firmwareNotes(`<p>${longText(19_993)}</p>`), firmwareFile(image(1), `${longText(100)}.bin`)]);
    record('POST', '/api/firmwares', lowest);
    expect(lowest.statusCode, lowest.body).toBe(201);
    // Beacons (X1) with the longest name and model, by hand and imported, linked to the new enterprise and its admin (M6).
    const beacon = await write('POST', '/api/beacon-device', admin, { mac: 'be-ac-00-00-00-01', name: NAME_80, model: longText(60) });
    const imported = await upload(ctx, '/api/beacon-device/import', [{ filename: 'b.csv', contentType: 'text/csv', data: Buffer.from(`MAC;Nome;Modelo\nBE:AC:00:00:00:02;${NAME_80};${longText(60)}\n`) }], admin);
    record('POST', '/api/beacon-device/import', imported);
    expect(imported.json()).toEqual({ registered: 1, errors: [] });
    const second = (await ctx.db.selectFrom('devices').select('id').where('mac', '=', 'BE:AC:00:00:00:02').executeTakeFirstOrThrow()).id;
    await write('POST', '/api/devices/link/client', admin, { devices: [beacon._id, second], to_update: 0, client_id: state.newEnterprise });
    await write('POST', '/api/devices/link/user', admin, { devices: [beacon._id], to_update: 1, user_id: state.newAdmin });
    // Locais: the longest names and address, at the south pole and the antimeridian; a device placed in its group.
    const location = await write('POST', '/api/locations', aurora, { name: NAME_120, address: ADDRESS_300, latitude: -90, longitude: -180 });
    const group = await write('POST', '/api/devices-groups', aurora, { location_id: location._id, name: NAME_80 });
    await write('PUT', `/api/devices/${await deviceId(ctx, MACS.chamber)}`, aurora, { location_id: location._id, group_id: group._id });
    // Limits just inside the bounds, so readings at the bounds open alarms; another device's limits at the bounds.
    await write('PUT', `/api/devices/${await deviceId(ctx, MACS.freezer)}`, aurora, {
      name: NAME_80,
      config: { temperature: { min: -79.5, max: '149,5' }, humidity: { min: '0.5', max: 99.5 }, out_of_range_minutes: 0, no_data_minutes: 10080 },
    });
    await write('PUT', `/api/devices/${await deviceId(ctx, MACS.chamber)}`, aurora, {
      config: { temperature: { min: -80, max: 150 }, humidity: { min: 0, max: 100 }, out_of_range_minutes: 1440, no_data_minutes: 1 },
    });

    const travel = await write('POST', '/api/travels', aurora, {
      origin: { address: ADDRESS_300, location: [-90, -180] },
      destiny: { address: `${longText(150)} ${longText(149)}`, location: [90, 180] },
      responsible_user_id: await userId(ctx, 'joao.silva'),
      // The travel's own minimum at the bound; its maximum and humidity are the device's (so the readings alarm).
      devices: [{ device_id: await deviceId(ctx, MACS.freezer), name: NAME_80, config: { temperature: { min: -80, max: null } } }],
    });
    state.travels.push(travel._id);
    await write('POST', `/api/travels/${travel._id}/status`, aurora, { status: 1 });

    ctx.clock.advance(2000);
    const ingested = await postReadings(ctx, [...extremeReadings(MACS.freezer, INSTANT_MIN_MS), ...extremeReadings(MACS.chamber, INSTANT_MIN_MS)]);
    record('POST', '/api/ingest/readings', ingested);
    expect(ingested.json()).toMatchObject({ accepted: 10, rejected: [] });
    // A MAC nobody registered, heard at the first instant: listed as discovered (X1).
    const unknown = await postReadings(ctx, extremeReadings('DE:AD:BE:EF:00:01', INSTANT_MIN_MS));
    expect(unknown.json().rejected).toHaveLength(5);

    await exportReport(`/api/beacon-device/history/mac/${MACS.freezer}/pdf?${WHOLE_RANGE}&minTemp=-80&maxTemp=150&minHum=0&maxHum=100`, aurora);
    await exportReport(`/api/beacon-device/history/mac/${MACS.freezer}/excel?${WHOLE_RANGE}`, aurora);
    ctx.clock.advance(1000);
    await write('POST', `/api/travels/${travel._id}/status`, aurora, { status: 2 });
    await exportReport(`/api/travels/${travel._id}/html`, aurora);
    await exportReport(`/api/travels/${travel._id}/devices/${MACS.freezer}/history/pdf`, aurora);
    await exportReport(`/api/travels/${travel._id}/devices/${MACS.freezer}/history/excel`, aurora);
  });

  it('at the last instant the product accepts (2199-12-31T23:59:59.999Z)', async () => {
    ctx.clock.set(new Date(INSTANT_MAX_MS - 60_000));
    await loginAll();
    const { admin, vida } = state.tokens;
    const vidaId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
    await write('POST', '/api/gateways', admin, { name: `עברית ${longText(70)}`, enterprise_id: vidaId });
    const highest = await postFirmware(ctx, admin, [firmwareVersion('9.9.9'), firmwareNotes(`<p>${'😀'.repeat(9_996)}</p>`), firmwareFile(image(64 * 1024), '🚚.bin')]);
    record('POST', '/api/firmwares', highest);
    expect(highest.statusCode, highest.body).toBe(201);
    const vidaLocation = await write('POST', '/api/locations', admin, { name: longText(120, '中文 עברית '), address: null, latitude: 90, longitude: 180, enterprise_id: vidaId });
    await write('POST', '/api/devices-groups', vida, { location_id: vidaLocation._id, name: longText(80, '😀') });
    await write('PUT', `/api/devices/${await deviceId(ctx, MACS.vaccines)}`, vida, { location_id: vidaLocation._id });
    const travel = await write('POST', '/api/travels', admin, {
      enterprise_id: vidaId,
      origin: { address: longText(3), location: [0, 0] },
      destiny: { address: ADDRESS_300, location: [-89.999999, 179.999999] },
      responsible_user_id: await userId(ctx, 'maria.souza'),
      devices: [{ device_id: await deviceId(ctx, MACS.vaccines), name: '   ', config: { temperature: { min: null, max: 150 } } }],
    });
    state.travels.push(travel._id);
    await write('POST', `/api/travels/${travel._id}/status`, vida, { status: 1 });
    ctx.clock.set(new Date(INSTANT_MAX_MS - 1000));
    const ingested = await postReadings(ctx, [
      ...extremeReadings(MACS.vaccines, INSTANT_MAX_MS - 600),
      { mac: MACS.freezer, ts: LAST.toISOString(), temperature: 150, humidity: 100, battery: 100, lat: 90, lng: 180 },
    ]);
    record('POST', '/api/ingest/readings', ingested);
    expect(ingested.json()).toMatchObject({ accepted: 6, rejected: [] });
    // The newest readings of their devices: beyond the limits, they open alarms, opened at the last instant.
    const alarms = (await call('GET', `/api/beacon-device/${MACS.freezer}/notifications`, admin)).json() as Array<{ _id: string; date: string }>;
    expect(alarms.map((a) => a.date)).toContain(LAST.toISOString());
    await write('POST', `/api/alarms/${alarms[0]!._id}/acknowledge`, admin, { message: MESSAGE_500 });
    await exportReport(`/api/travels/${travel._id}/html`, vida);
    await exportReport(`/api/beacon-device/history/mac/${MACS.vaccines}/excel?dateInitUtc=${FIRST.toISOString()}`, vida);
    await write('POST', `/api/travels/${travel._id}/status`, vida, { status: 3 });
    // The billing cycle far in the future: the next periods issued (three at most a run), every open invoice overdue.
    const cycle = await ctx.services.billingCycle.run();
    expect(cycle.issued).toBeGreaterThan(0);
    expect(cycle.overdue).toBeGreaterThan(0);
  });

  it('today, on rows made at both ends of time', async () => {
    ctx.clock.set(today);
    await loginAll();
    const { admin, aurora } = state.tokens;
    const joao = await userId(ctx, 'joao.silva');

    const edited = await write('POST', `/api/user/update/${joao}`, aurora, { name: NAME_120, username: USERNAME_60, email: emailOf('j') });
    // The longest e-mail waits for its link (ADR 82); "Cancelar alteração" ends it.
    expect(edited).toMatchObject({ name: NAME_120, username: USERNAME_60, pending_email: emailOf('j') });
    await write('DELETE', `/api/user/pending-email/${joao}`, aurora);
    state.joaoUsername = USERNAME_60;
    await write('POST', `/api/admin/users/${state.newAdmin}/reset-password`, admin, { password: `Aa1/${'y'.repeat(124)}` });
    await write('POST', '/api/client-active-inactive', aurora, { user_id: joao, status: true });
    await write('POST', '/api/client-active-inactive', aurora, { user_id: joao, status: false });
    await write('POST', '/api/client-active-inactive', admin, { client_id: state.newEnterprise, status: true });
    await write('POST', '/api/client-active-inactive', admin, { client_id: state.newEnterprise, status: false });
    state.tokens.joao = await login(USERNAME_60);

    // Notification channels (A10): on, off and on again, so the reads below meet a stored one; presence on a live screen.
    await write('POST', '/api/me/config/notification-channel', aurora, { channel: 'email' });
    await write('DELETE', '/api/me/config/notification-channel', aurora, { channel: 'email' });
    await write('POST', '/api/me/config/notification-channel', aurora, { channel: 'email' });
    await write('POST', '/api/session/presence', aurora);
    // Reminders and escalation (ADR 24) at their largest: a day between reminders, a day before escalating.
    await write('PUT', '/api/enterprise/alarm-escalation', aurora, { reminder_minutes: 1440, escalation_minutes: 1440 });
    // GxP mode (X11) on and off again with the longest reason, so the writes that follow keep the documents' flows.
    await write('PUT', '/api/enterprise/compliance', aurora, { gxp: true });
    await write('PUT', '/api/enterprise/compliance', aurora, { gxp: false, reason: 'm'.repeat(500) });
    // Retention (ADR 81) at its longest, with the longest legal-hold reason; then back to the default.
    await write('PUT', '/api/enterprise/retention', aurora, { readings_days: 36600, report_files_days: 36600, legal_hold: true, legal_hold_reason: MESSAGE_500 });
    await write('PUT', '/api/enterprise/retention', aurora, { readings_days: 1827, report_files_days: 1827, legal_hold: false });
    // Integrations (X13): a token with the longest name and every scope kept, another revoked; a webhook with every
    // event and the longest description kept (tested and redelivered), another removed.
    const scopes = ['devices:read', 'readings:read', 'alarms:read', 'alarms:write', 'travels:read', 'travels:write', 'reports:read'];
    await write('POST', '/api/api-tokens', aurora, { name: NAME_80, scopes, expires_at: LAST.toISOString() });
    const revokedToken = await write('POST', '/api/api-tokens', aurora, { name: 'revogado', scopes: ['devices:read'] });
    await write('DELETE', `/api/api-tokens/${revokedToken._id}`, aurora);
    const events = ['alarm.opened', 'alarm.ended', 'alarm.acknowledged', 'device.silent', 'travel.status_changed', 'report.ready'];
    const hook = await write('POST', '/api/webhooks', aurora, { url: `https://hooks.example.com/${'p'.repeat(200)}`, events, description: longText(200) });
    await write('PUT', `/api/webhooks/${hook._id}`, aurora, { events: events.slice(0, 1) });
    await write('POST', `/api/webhooks/${hook._id}/test`, aurora);
    const delivery = await ctx.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook._id).executeTakeFirstOrThrow();
    // Still being delivered (no receiver answers here): a pt-BR 409, or accepted once the first attempt ended.
    const redelivered = await call('POST', `/api/webhooks/${hook._id}/deliveries/${delivery.id}/redeliver`, aurora);
    if (redelivered.statusCode === 409) expect(redelivered.json().error).toBe('Esta entrega ainda está em andamento.');
    else expect(redelivered.statusCode, redelivered.body).toBeLessThan(300);
    const removedHook = await write('POST', '/api/webhooks', aurora, { url: 'https://hooks.example.com/x', events: ['alarm.opened'] });
    await write('DELETE', `/api/webhooks/${removedHook._id}`, aurora);
    // A calibration certificate (X12) with the longest laboratory and number, due on the last day accepted.
    await certificate(aurora, await deviceId(ctx, MACS.chamber));
    // A thermal mapping study (X12, ADR 0083) over the first instants, where the extreme readings are: the longest
    // name, the widest range, the longest period; its report is generated with the others below.
    const [studyPlace] = (await call('GET', '/api/locations', aurora)).json() as Array<{ _id: string }>;
    await write('POST', '/api/mapping-studies', aurora, {
      name: NAME_120, location_id: studyPlace!._id, macs: [MACS.chamber, MACS.freezer],
      from: FIRST.toISOString(), to: new Date(INSTANT_MIN_MS + 31 * 86_400_000).toISOString(), min: -80, max: 150,
    });
    // A report approval (a signature) of no report: a 404, never a 5xx (the approval itself is in signatures.test.ts).
    expect((await call('POST', '/api/reports/00000000-0000-4000-8000-000000000000/approve', aurora, { password: 'x'.repeat(200), meaning: 'Responsável' })).statusCode).toBe(404);
    // Telegram (A12): no bot on this server, so linking the largest chat id Telegram uses is refused (4xx, never 5xx);
    // linking with a bot is in notifications.test.ts. Unlinking an account without a chat succeeds.
    const chat = '-1009223372036854775';
    record('POST', `/api/me/telegram/${chat}/link`, await call('POST', `/api/me/telegram/${chat}/link?token=${'t'.repeat(32)}`, aurora));
    await write('DELETE', '/api/me/telegram', aurora);
    // Web push (ADR 22): the longest endpoint taken, with a real browser key; a second browser subscribed and removed.
    const browserKey = createECDH('prime256v1');
    browserKey.generateKeys();
    const keys = { p256dh: browserKey.getPublicKey().toString('base64url'), auth: 'A'.repeat(22) };
    const longest = 'https://push.example.com/';
    await write('POST', '/api/me/push-subscriptions', aurora, { endpoint: `${longest}${'é'.repeat(1000 - longest.length)}`, expirationTime: null, keys });
    await write('POST', '/api/me/push-subscriptions', aurora, { endpoint: `${longest}removed`, keys });
    await write('DELETE', '/api/me/push-subscriptions', aurora, { endpoint: `${longest}removed` });

    // The signed-up account edits its own profile to the longest values and changes its password (A7).
    const own = await login(`s.${'u'.repeat(58)}`, PASSWORD_128);
    const profile = { name: NAME_120, username: `s.${'u'.repeat(58)}`, email: emailOf('s'), phone: '(99) 99999-9999' };
    await write('POST', '/api/profile/', own, profile);
    await write('POST', '/api/profile', own, { ...profile, email: emailOf('t'), phone: '(11) 1234-5678', current_password: PASSWORD_128 });
    await write('DELETE', '/api/profile/pending-email', own);
    await write('POST', '/api/me/change-password', own, { current_password: PASSWORD_128, password: `Zz9#${'q'.repeat(124)}` });

    const renamed = await write<{ name: string }>('POST', `/api/devices/update-name/${MACS.chamber}`, aurora, { name: NAME_80 });
    expect(renamed.name).toBe(NAME_80);
    const notStarted = await travelId(ctx, CODES.auroraNotStarted);
    await write('PUT', `/api/travels/${notStarted}`, aurora, {
      origin: { address: ADDRESS_300, location: [90, -180] },
      responsible_user_id: joao,
      devices: [{ device_id: await deviceId(ctx, MACS.truck2), name: NAME_80, config: { humidity: { min: 0, max: 100 } } }],
    });
    await write('PUT', '/api/travels/edit-travel-device', state.tokens.joao, {
      travel_id: notStarted,
      device_id: await deviceId(ctx, MACS.truck2),
      name: longText(80, '🚚'),
      config: { temperature: { min: -80, max: 150 }, humidity: { min: null } },
    });
    state.travels.push(notStarted);

    // Locais: an edit at the smallest coordinates kept, a group renamed, and a location with a group removed.
    const [kept] = (await call('GET', '/api/locations', aurora)).json() as Array<{ _id: string }>;
    await write('PUT', `/api/locations/${kept!._id}`, aurora, { name: longText(120, '“Ñandú” '), address: ADDRESS_300, latitude: -1e-9, longitude: 1e-9 });
    const [keptGroup] = (await call('GET', `/api/devices-groups/by-location/${kept!._id}`, aurora)).json() as Array<{ _id: string }>;
    await write('PUT', `/api/devices-groups/${keptGroup!._id}`, aurora, { name: longText(80, 'Ação ') });
    const gone = await write('POST', '/api/locations', aurora, { name: 'Removido', latitude: 0, longitude: 0 });
    const goneGroup = await write('POST', '/api/devices-groups', aurora, { location_id: gone._id, name: 'Removido' });
    await write('DELETE', `/api/devices-groups/${goneGroup._id}`, aurora);
    await write('DELETE', `/api/locations/${gone._id}`, aurora);

    const gateways = (await call('GET', '/api/gateways', aurora)).json() as Array<{ _id: string; revoked_at: string | null }>;
    await write('DELETE', `/api/gateways/${gateways.find((g) => !g.revoked_at)!._id}`, aurora);

    // Monitor links (ADR 26): the longest name over every travel and device of the enterprise, for the longest time.
    const auroraId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
    const monitored = {
      device_ids: (await ctx.db.selectFrom('devices').select('id').where('enterprise_id', '=', auroraId).execute()).map((r) => r.id),
      travel_ids: (await ctx.db.selectFrom('travels').select('id').where('enterprise_id', '=', auroraId).execute()).map((r) => r.id),
      expires_at: new Date(ctx.clock.now().getTime() + 365 * 86_400_000).toISOString(),
    };
    state.monitorToken = (await write<{ token: string }>('POST', '/api/monitor-links', aurora, { name: NAME_80, ...monitored })).token;

    // Plans and FAQ (ADR 28): the longest name, features and answers, the largest price and limit; one plan kept
    // offered with them, one retired, one created and deleted; FAQ created, edited, reordered, one deleted.
    const feature = longText(120);
    const plan = await write('POST', '/api/admin/plans', admin, {
      name: longText(60),
      max_devices: 1_000_000,
      features: Array.from({ length: 20 }, (_, i) => longText(120, `Recurso ${i} ção 😀 `)),
      cycles: [{ name: 'Mensal', value: '1000000,00' }, { name: 'Anual', value: 0 }],
    });
    await write('PUT', `/api/admin/plans/${plan._id}`, admin, { name: longText(60, 'Plano ☃ 😀 '), max_devices: null, features: [feature], cycles: [{ name: 'Anual', value: 999999.99 }, { name: 'Mensal', value: 0.01 }] });
    const retired = await write('POST', '/api/admin/plans', admin, { name: NAME_80.slice(0, 59), features: [], cycles: [{ name: 'Mensal', value: 1 }] });
    await write('POST', `/api/admin/plans/${retired._id}/retire`, admin);
    await write('POST', `/api/admin/plans/${retired._id}/restore`, admin);
    await write('POST', `/api/admin/plans/${retired._id}/retire`, admin);
    const dropped = await write('POST', '/api/admin/plans', admin, { name: 'Descartável', features: [], cycles: [{ name: 'Mensal', value: 1 }] });
    await write('DELETE', `/api/admin/plans/${dropped._id}`, admin);
    const question = await write('POST', '/api/admin/faq', admin, { question: longText(200), answer: `${longText(1000)}${MIDDLE}${longText(1000 - MIDDLE.length)}` });
    await write('PUT', `/api/admin/faq/${question._id}`, admin, { question: longText(200, 'Pergunta? 😀 '), answer: longText(2000) });
    const removable = await write('POST', '/api/admin/faq', admin, { question: 'Temporária?', answer: 'Sim.' });
    await write('DELETE', `/api/admin/faq/${removable._id}`, admin);
    const faqIds = (await write<{ _id: string }[]>('PUT', '/api/admin/faq/order', admin, {
      ids: (await ctx.db.selectFrom('faq').select('id').orderBy('position', 'desc').execute()).map((r) => r.id),
    })).map((f) => f._id);
    expect(faqIds[0]).toBe(question._id);
    const revokedLink = await write('POST', '/api/monitor-links', admin, { name: longText(80, '😀'), enterprise_id: auroraId, ...monitored });
    await write('DELETE', `/api/monitor-links/${revokedLink._id}`, aurora);

    // Invoices (ADR 27): one settled by hand with the longest reason; PIX notices with the longest ids, the largest
    // amount the API Pix writes, at both ends of time, one paying an invoice exactly, through both webhook addresses.
    const open = await ctx.db.selectFrom('invoices').select(['id', 'txid', 'amount_cents']).where('status', 'in', ['pending', 'overdue']).orderBy('number').execute();
    expect(open.length).toBeGreaterThan(2);
    await write('POST', `/api/invoices/${open[0]!.id}/mark-paid`, admin, { reason: MESSAGE_500 });
    const valor = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const notice = {
      pix: [
        { endToEndId: 'E'.repeat(35), txid: 'T'.repeat(35), valor: '9999999999.99', horario: FIRST.toISOString(), chave: 'c'.repeat(77), infoPagador: longText(140) },
        { endToEndId: `E${'9'.repeat(34)}`, txid: open[1]!.txid, valor: valor(open[1]!.amount_cents), horario: LAST.toISOString() },
      ],
    };
    for (const url of ['/api/pix/webhook', '/api/pix/webhook/pix']) {
      const res = await ctx.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${PIX_WEBHOOK_TOKEN}` }, payload: notice });
      record('POST', url, res);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await ctx.db.selectFrom('invoices').select('status').where('id', '=', open[1]!.id).executeTakeFirstOrThrow()).status).toBe('paid');

    // Cards (ADR 31): the longest holder name with accents and emoji, the farthest expiry; one made main, one removed.
    const cardToken = async (holder: string, expYear: number) =>
      ((await (await pagarme.token({ number: PAGARME_TEST_CARD, holder_name: holder, exp_month: 12, exp_year: expYear, cvv: '1234' })).json()) as { id: string }).id;
    const longCard = await write<{ id: string }>('POST', '/api/cards', aurora, { token: await cardToken(longText(64, '😀 Ação '), 2199) });
    const otherCard = await write<{ id: string }>('POST', '/api/cards', admin, { token: await cardToken('A', today.getUTCFullYear() + 1), enterprise_id: auroraId });
    await write('POST', `/api/cards/${otherCard.id}/main`, aurora);
    const doomedCard = await write<{ id: string }>('POST', '/api/cards', aurora, { token: await cardToken(longText(64), 2100) });
    await write('DELETE', `/api/cards/${doomedCard.id}`, aurora);
    expect(longCard.id).toBeTruthy();

    // Subscriptions (ADR 32): a change of cycle, recorded for the next period, then cancelled.
    const subscribed = await ctx.db.selectFrom('subscriptions as s').innerJoin('plan_cycles as c', 'c.id', 's.plan_cycle_id').select(['c.plan_id', 'c.id']).where('s.enterprise_id', '=', auroraId).executeTakeFirstOrThrow();
    const otherCycle = await ctx.db.selectFrom('plan_cycles').select('id').where('plan_id', '=', subscribed.plan_id).where('id', '!=', subscribed.id).executeTakeFirstOrThrow();
    await write('PUT', '/api/subscription', aurora, { plan_id: subscribed.plan_id, cicle_id: otherCycle.id });
    await write('DELETE', '/api/subscription/pending-change', aurora);

    // Tracking links (ADR 36): position only until the last instant, revoked, then a new code.
    const tracked = state.travels[0]!;
    await write('PUT', `/api/travels/${tracked}/tracking-link`, aurora, { scope: 'position', expires_at: new Date(Math.min(ctx.clock.now().getTime() + 86_400_000, INSTANT_MAX_MS - 1)).toISOString() });
    await write('POST', `/api/travels/${tracked}/tracking-link/revoke`, aurora);
    await write('POST', `/api/travels/${tracked}/tracking-link/regenerate`, aurora);

    // A Ruuvi Gateway's relay (ADR 33): RAWv2 at the bounds of its fields, at the gateway's coordinates' bounds.
    const relayed = await ctx.app.inject({
      method: 'POST',
      url: '/api/ingest/ruuvi',
      headers: { authorization: `Bearer ${DEMO_GATEWAY_KEY}` },
      payload: {
        data: {
          gw_mac: 'C8:25:2D:8E:9C:2C',
          coordinates: '-90,180',
          timestamp: String(Math.floor(ctx.clock.now().getTime() / 1000)),
          tags: { [MACS.chamber]: { rssi: -127, timestamp: String(Math.floor(ctx.clock.now().getTime() / 1000) - 1), data: rawV2AdvertisementHex({ temperature: -80, humidity: 100, pressure: 50000, accelerationX: -32.767, accelerationY: 32.767, accelerationZ: 0, batteryMv: 3646, txPower: 20, movement: 254, seq: 65534, mac: 'CB:B8:33:4C:88:4F' })} },
        },
      },
    });
    record('POST', '/api/ingest/ruuvi', relayed);
    expect(relayed.json(), relayed.body).toMatchObject({ accepted: 1, rejected: [] });

    // Report periods from a sheet: the first and the last day the product accepts (São Paulo wall clock).
    const sheet = await xlsxWith([
      [MACS.freezer, saoPauloText(FIRST), saoPauloText(new Date(INSTANT_MIN_MS + 86_400_000)), 'PDF'],
      [MACS.freezer, saoPauloText(new Date(INSTANT_MAX_MS - 86_400_000)), saoPauloText(new Date(INSTANT_MAX_MS - 60_000)), 'EXCEL'],
    ]);
    const excel = await upload(ctx, '/api/reports/generate-reports-by-excel', [xlsxPart(sheet)], aurora);
    record('POST', '/api/reports/generate-reports-by-excel', excel);
    expect(excel.json(), excel.body).toEqual({ reportsToProccess: 2, errors: [] });

    // Every report, whatever its values and period, is generated (a renderer that chokes on them would fail it).
    const all = (await call('GET', '/api/reports', admin)).json() as z.infer<typeof Report>[];
    for (const report of all) {
      const done = await waitForReport(ctx, admin, report._id, 60_000);
      expect(done.status.id, `${report.kind} ${report._id}: ${done.error}`).toBe(2);
    }
    const pdf = all.find((r) => r.type === 'pdf' && r.kind !== 'travel')!;
    const file = await call('GET', `/api/report/files/${pdf._id}`, admin);
    const validated = await upload(ctx, '/api/report/validate', [pdfPart(file.rawPayload)]);
    record('POST', '/api/report/validate', validated);
    expect(validated.json()).toMatchObject({ valid: true });
  }, 180_000);
});

/** Values for a read route's path parameters, from what was stored (every combination that makes sense). */
async function pathValues(route: WalkedRoute): Promise<Array<Record<string, string>>> {
  const names = pathParams(route.url);
  if (names.length === 0) return [{}];
  const ids = async (table: 'users' | 'enterprises' | 'devices') => (await ctx.db.selectFrom(table).select('id').execute()).map((r) => r.id);
  const macs = (await ctx.db.selectFrom('devices').select('mac').execute()).map((r) => r.mac);
  const reports = await ctx.db.selectFrom('reports').select(['id', 'kind', 'status', 'link_key']).execute();
  const generated = reports.filter((r) => r.status === 2);
  const travelRows = await ctx.db
    .selectFrom('travels as t')
    .innerJoin('travel_devices as td', 'td.travel_id', 't.id')
    .innerJoin('devices as d', 'd.id', 'td.device_id')
    .select(['t.id', 't.code', 'd.mac'])
    .execute();
  const url = route.url;
  const key = names.join(',');
  if (url.startsWith('/api/travels/:id') && key === 'id,mac') return travelRows.map((t) => ({ id: t.id, mac: t.mac }));
  if (url.startsWith('/api/travels/:id')) return [...new Set(travelRows.map((t) => t.id))].map((id) => ({ id }));
  if (key === 'cod') return travelRows.map((t) => ({ cod: t.code }));
  if (key === 'cod,mac') return travelRows.map((t) => ({ cod: t.code, mac: t.mac }));
  if (key === 'cep') return [{ cep: '01310100' }, { cep: '70040-010' }];
  if (key === 'mac') return macs.map((mac) => ({ mac }));
  if (key === 'locationId') return (await ctx.db.selectFrom('locations').select('id').execute()).map((r) => ({ locationId: r.id }));
  if (key === 'userId') return (await ids('users')).map((userId) => ({ userId }));
  if (key === 'clientId') return (await ids('enterprises')).map((clientId) => ({ clientId }));
  // A report file's link (ADR 0070), as download_url gives it.
  const linked = (r: (typeof generated)[number]) => ({ id: r.id, link: reportLinkCapability(r.id, r.link_key, new Date(ctx.clock.now().getTime() + 3600_000)), name: 'relatorio' });
  if (url.startsWith('/api/travel-report/files/') && key === 'id,link,name') return generated.filter((r) => r.kind === 'travel').map(linked);
  if (url.startsWith('/api/report/files/') && key === 'id,link,name') return generated.filter((r) => r.kind !== 'travel').map(linked);
  if (url.startsWith('/api/travel-report/files/')) return generated.filter((r) => r.kind === 'travel').map((r) => ({ id: r.id }));
  if (url.startsWith('/api/report/files/')) return generated.filter((r) => r.kind !== 'travel').map((r) => ({ id: r.id }));
  if (url.startsWith('/api/reports/')) return reports.map((r) => ({ id: r.id }));
  if (url.startsWith('/api/user/')) return (await ids('users')).map((id) => ({ id }));
  if (url.startsWith('/api/client/')) return (await ids('enterprises')).map((id) => ({ id }));
  // Offered plans: a retired one is not found there (ADR 28); the admin list reads it.
  if (url.startsWith('/api/plans/')) return (await ctx.db.selectFrom('plans').select('id').where('retired_at', 'is', null).execute()).map((r) => ({ id: r.id }));
  if (url.startsWith('/api/monitor/')) return [{ token: state.monitorToken }];
  // The API reference page's files (ADR 34).
  if (url === '/api/docs/:asset') return [{ asset: 'swagger-ui.css' }];
  // Only open invoices have a PIX code; every invoice has its page.
  if (url === '/api/invoices/:id/pix') {
    return (await ctx.db.selectFrom('invoices').select('id').where('status', 'in', ['pending', 'overdue']).execute()).map((r) => ({ id: r.id }));
  }
  if (url.startsWith('/api/invoices/')) return (await ctx.db.selectFrom('invoices').select('id').execute()).map((r) => ({ id: r.id }));
  if (key === 'token') {
    // A confirmation link of an unconfirmed account, made as the sign-up makes it (the e-mailed token is not stored).
    const user = await ctx.db.selectFrom('users').select('id').where('verified', '=', false).executeTakeFirstOrThrow();
    const token = `boundary-${'t'.repeat(40)}`;
    await ctx.db.insertInto('email_verifications').values({ token_hash: sha256(token), user_id: user.id, expires_at: new Date(ctx.clock.now().getTime() + 86_400_000), used_at: null }).execute();
    return [{ token }];
  }
  // The trail's signed exports (X11): each format once.
  if (key === 'format' && url.startsWith('/api/audit-trail/export/')) return [{ format: 'pdf' }, { format: 'csv' }];
  if (url.startsWith('/api/webhooks/')) return (await ctx.db.selectFrom('webhooks').select('id').execute()).map((r) => ({ id: r.id }));
  if (url.startsWith('/api/calibrations/')) return (await ctx.db.selectFrom('calibrations').select('id').execute()).map((r) => ({ id: r.id }));
  if (url.startsWith('/api/alarms/')) return (await ctx.db.selectFrom('alarms').select('id').execute()).map((r) => ({ id: r.id }));
  if (url.startsWith('/api/firmwares/')) return (await ctx.db.selectFrom('firmwares').select('id').execute()).map((r) => ({ id: r.id }));
  if (url.includes('device')) return (await ids('devices')).map((id) => ({ id }));
  throw new Error(`${route.key}: which stored rows fill ${key}? Teach pathValues.`);
}

/** Boundary values of query fields, by name; each route keeps those its own schema accepts. */
function queryBounds(userIds: string[], enterpriseIds: string[]): Record<string, string[]> {
  return {
    // The readings export (X13): a device with the boundary readings; a cursor only comes from a previous page.
    mac: [MACS.chamber],
    cursor: [],
    dateInit: [FIRST.toISOString(), '1970-01-01'],
    dateEnd: [LAST.toISOString(), '2199-12-31'],
    dateInitUtc: [FIRST.toISOString()],
    dateEndUtc: [LAST.toISOString()],
    minTemp: ['-80', '1.1754943508222875e-38'],
    maxTemp: ['150'],
    minHum: ['0'],
    maxHum: ['100'],
    isUtc: ['true'],
    lastTwoDays: ['false', 'true'],
    page: ['1', String(MAX_PAGE)],
    limit: ['1', '200', '1000'],
    points: ['10', '5000'],
    paginate: ['true', 'false'],
    disabled: ['true', 'false'],
    user_id: userIds,
    enterprise_id: enterpriseIds,
    search: ['Profissional', '%_\\', longText(100)],
    status: ['pending', 'paid', 'overdue', 'cancelled'],
    q: ['Rua', longText(200)],
    // The audit trail's filters (X11).
    entity: ['device', 'x'.repeat(40)],
    entity_id: [...userIds.slice(0, 1), longText(100)],
    actor: ['Aurora', '%_\\', longText(100)],
    from: [FIRST.toISOString(), '1970-01-01'],
    to: [LAST.toISOString(), '2199-12-31'],
    // Sealed days (X12): the first and last days a date may name, and yesterday (sealed by the walk's own run).
    date: ['1970-01-01', '2199-12-31', localDay(new Date(Date.now() - 86_400_000), 'America/Sao_Paulo')],
  };
}

/** The names of a route's query fields. */
function queryFields(route: WalkedRoute): string[] {
  const schema = route.options.schema?.querystring as z.ZodObject | undefined;
  return schema ? Object.keys(schema.shape) : [];
}

/** Query strings for a read route: no query, each field at each bound, and all fields at once. */
function queryVariants(route: WalkedRoute, bounds: Record<string, string[]>): string[] {
  const schema = route.options.schema?.querystring as z.ZodObject | undefined;
  if (!schema) return [''];
  const accepted: Record<string, string[]> = {};
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    const values = bounds[field];
    if (!values) throw new Error(`${route.key}: no boundary values for the query field ${field}; teach queryBounds.`);
    accepted[field] = values.filter((v) => (fieldSchema as z.ZodType).safeParse(v).success);
  }
  const variants = new Set<string>();
  if (schema.safeParse({}).success) variants.add('');
  for (const [field, values] of Object.entries(accepted)) for (const v of values) variants.add(`${field}=${encodeURIComponent(v)}`);
  variants.add(
    Object.entries(accepted)
      .filter(([, values]) => values.length > 0)
      .map(([field, values]) => `${field}=${encodeURIComponent(values[0]!)}`)
      .join('&'),
  );
  return [...variants].filter((q) => schema.safeParse(Object.fromEntries(new URLSearchParams(q))).success);
}

/** Exports queue a report: called once per route (their values were exercised above, with their files generated). */
const queuesReport = (route: WalkedRoute) => (route.options.schema?.response as Record<number, unknown> | undefined)?.[200] === Report;

describe('every read route answers the stored values', () => {
  it('no 500 and no serialisation error, for the super admin, an enterprise admin, ordinary users and a visitor', async () => {
    await loginAll();
    // The stored extremes sealed (X12): the seals' reads then answer them (a day of 1970 and the demo's yesterday).
    await ctx.services.rollups.run();
    await ctx.services.seals.run();
    const { admin, aurora, joao, maria } = state.tokens;
    const bounds = queryBounds(
      (await ctx.db.selectFrom('users').select('id').execute()).map((r) => r.id),
      (await ctx.db.selectFrom('enterprises').select('id').execute()).map((r) => r.id),
    );
    let requests = 0;
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const exporting = queuesReport(route) && /(pdf|excel|html)$/.test(route.url);
      const params = await pathValues(route);
      const queries = queryVariants(route, bounds);
      for (const values of exporting ? params.slice(0, 1) : params) {
        for (const query of exporting ? queries.slice(-1) : queries) {
          const url = fillPath(route.url, values) + (query ? `?${query}` : '');
          // An enterprise's integrations (X13) are its own administrators' (the super admin has no enterprise to act in).
          const enterpriseOnly = /^\/api\/(api-tokens|webhooks)(\/|$)/.test(route.url);
          const res = await call('GET', url, enterpriseOnly ? aurora : admin);
          requests += 1;
          // The super admin reaches every row: a read answers it 200 (an export may refuse a travel not started).
          if (enterpriseOnly) expect((await call('GET', url, admin)).statusCode, url).toBe(403);
          // A read of one enterprise's settings asks it which enterprise when the query names none (a pt-BR 400).
          const mustChoose = queryFields(route).includes('enterprise_id') && !new URLSearchParams(query).has('enterprise_id');
          if (!exporting && mustChoose && res.statusCode === 400) expect(res.json().error, url).toMatch(/empresa/);
          // An enterprise that never chose a plan has no subscription to read (ADR 32).
          else if (route.url === '/api/subscription' && res.statusCode === 404) expect(res.json().error, url).toBe('A empresa ainda não tem assinatura.');
          // A day with no seal (X12: days without readings, or not yet behind the roll-up line) is a pt-BR 404.
          else if (route.url.startsWith('/api/seals') && res.statusCode === 404) expect(res.json().error, url).toBe('Nenhum selo para este dia.');
          else if (!exporting) expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
          if (exporting) continue;
          for (const token of [aurora, joao, maria, undefined]) {
            await call('GET', url, token);
            requests += 1;
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(100);
  }, 300_000);

  it('no route was left out', async () => {
    // Logging out, last: a throwaway session.
    const res = await call('POST', '/api/logout', await login('maria.souza'));
    expect(res.statusCode).toBe(200);
    const missed = routes.filter((r) => !called.has(r.key)).map((r) => r.key);
    expect(missed).toEqual([]);
  });
});
