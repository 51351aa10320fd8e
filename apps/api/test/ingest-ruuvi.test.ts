import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { createTestContext, type TestContext } from './context';
import { ruuviMqttMessage, ruuviRelayBodies, type BeaconReading } from '../src/simulator/virtual-beacons';
import { readingsOf } from './ingest-helpers';

/**
 * A Ruuvi Gateway posting to Sentinela (ADR 33), over HTTP ("custom HTTP server") and MQTT, with the official test
 * vectors of each format inside real advertisements: the decoded values are read back from the history API.
 * Payload shapes: https://github.com/ruuvi/docs, ruuvi-gateway-firmware/data-formats/.
 */
let ctx: TestContext;
let key: string;
let gatewayId: string;
let token: string;
const clients: MqttClient[] = [];

const TRUCK = 'C3:00:00:00:01:01'; // Aurora, on a travel in progress
const CHAMBER = 'C3:00:00:00:01:03';
const FREEZER = 'C3:00:00:00:01:04';
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma's
const GW_MAC = 'C8:25:2D:8E:9C:2C';

/** Advertisements as a gateway relays them: the AD structures in hex. */
const ADV = {
  // RAWv2 vectors of dataformat_05.md after the flags and the 0x0499 manufacturer header.
  rawV2Valid: '0201061BFF99040512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F',
  rawV2Maximum: '0201061BFF9904057FFFFFFEFFFE7FFF7FFF7FFFFFDEFEFFFECBB8334C884F',
  rawV2Invalid: '0201061BFF9904058000FFFFFFFF800080008000FFFFFFFFFFFFFFFFFFFFFF',
  // RAWv1 "valid data" vector of dataformat_03.md.
  rawV1Valid: '02010611FF990403291A1ECE1EFC18F94202CA0B53',
  // Eddystone-TLM (ble_monitor's captured frame): 3183 mV, 30.0 °C.
  tlm: '0201060303AAFE1116AAFE20000C6F1E000002006D41DB9AB6',
  // Xiaomi LYWSD03MMC, pvvx custom layout (ble_monitor's capture): 20.91 °C, 44.96 %, 2807 mV, counter 32.
  pvvx: '02010612161A18B2188D38C1A42B089011F70A43200F',
};

const seconds = (offset: number) => String(Math.floor(ctx.clock.now().getTime() / 1000) + offset);
const iso = (unix: string) => new Date(Number(unix) * 1000).toISOString();

function relay(tags: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { data: { coordinates: '', timestamp: seconds(0), nonce: '2636366621', gw_mac: GW_MAC, tags, ...extra } };
}

function post(body: unknown, authorization: string | null = `Bearer ${key}`) {
  return ctx.app.inject({ method: 'POST', url: '/api/ingest/ruuvi', headers: authorization ? { authorization } : {}, payload: body as object });
}

/** The reading at `unix` from the history API, as the product shows it. */
async function historyAt(mac: string, unix: string) {
  const at = iso(unix);
  const res = await ctx.request('GET', `/api/beacon-device/history/mac/${mac}/page?dateInitUtc=${at}&dateEndUtc=${at}&isUtc=true`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data as { createdAt: string; temperature: number | null; humidity: number | null; battery: number | null; lat: number | null; lng: number | null }[];
}

async function rejectionCounts() {
  const rows = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count']).where('gateway_id', '=', gatewayId).execute();
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.count)]));
}

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { mqttEnabled: true, mqttPort: 0 } });
  await ctx.app.mqtt!.ready();
  ctx.clock.advance(60_000);
  token = (await ctx.login('aurora.adm')).token;
  const created = await ctx.request('POST', '/api/gateways', token, { name: 'Ruuvi Gateway Doca 1' });
  expect(created.statusCode).toBe(201);
  key = created.json().key;
  gatewayId = created.json()._id;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await ctx.close();
});

describe('POST /api/ingest/ruuvi (X6)', () => {
  it('stores the decoded official vectors of every format, read back from the history API', async () => {
    const t = seconds(-120);
    const res = await post(relay({
      [FREEZER]: { rssi: -71, timestamp: t, data: ADV.rawV2Valid },
      [CHAMBER]: { rssi: -72, timestamp: t, data: ADV.pvvx },
    }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    // RAWv2 "valid data": 24.3 °C, 53.49 %, 2977 mV → 95 % on the CR2477 curve.
    expect(await historyAt(FREEZER, t)).toEqual([expect.objectContaining({ createdAt: iso(t), temperature: 24.3, humidity: 53.49, battery: 95, lat: null, lng: null })]);
    // pvvx: 20.91 °C, 44.96 %, 2807 mV → 76 % on the CR2032 line.
    expect(await historyAt(CHAMBER, t)).toEqual([expect.objectContaining({ temperature: 20.91, humidity: 44.96, battery: 76 })]);

    const t2 = seconds(-110);
    const res2 = await post(relay({
      [FREEZER]: { rssi: -70, timestamp: t2, data: ADV.rawV1Valid },
      [CHAMBER]: { rssi: -70, timestamp: t2, data: ADV.tlm },
    }), `Basic ${Buffer.from(`ruuvi:${key}`).toString('base64')}`);
    expect(res2.json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    // RAWv1 "valid data": 26.3 °C, 20.5 %, 2899 mV → 80 %.
    expect(await historyAt(FREEZER, t2)).toEqual([expect.objectContaining({ temperature: 26.3, humidity: 20.5, battery: 80 })]);
    // Eddystone-TLM: 30 °C, no humidity, 3183 mV → 100 %.
    expect(await historyAt(CHAMBER, t2)).toEqual([expect.objectContaining({ temperature: 30, humidity: null, battery: 100 })]);

    // The sequence counters are stored with the format's own modulus (ADR 35): RAWv2's 205 of 65535, the pvvx
    // counter's 32 of 256; RAWv1 and Eddystone-TLM have none.
    const counters = await ctx.db
      .selectFrom('readings as r')
      .innerJoin('devices as d', 'd.num', 'r.device_num')
      .select(['d.mac', 'r.ts', 'r.seq', 'r.seq_modulo'])
      .where('d.mac', 'in', [FREEZER, CHAMBER])
      .where('r.ts', 'in', [new Date(iso(t)), new Date(iso(t2))])
      .orderBy('r.ts')
      .orderBy('d.mac')
      .execute();
    expect(counters.map((c) => [c.mac, c.seq, c.seq_modulo])).toEqual([
      [CHAMBER, 32, 256],
      [FREEZER, 205, 65535],
      [CHAMBER, null, null],
      [FREEZER, null, null],
    ]);
  });

  it('stores the values RAWv2 marks "not available" as absent, and rejects what no sensor can measure', async () => {
    const t = seconds(-100);
    const res = await post(relay({
      [FREEZER]: { rssi: -71, timestamp: t, data: ADV.rawV2Invalid },
      [CHAMBER]: { rssi: -71, timestamp: t, data: ADV.rawV2Maximum },
    }));
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [expect.objectContaining({ index: 1, mac: CHAMBER, code: 'out_of_range' })] });
    expect(await historyAt(FREEZER, t)).toEqual([expect.objectContaining({ temperature: null, humidity: null, battery: null })]);
    expect(await historyAt(CHAMBER, t)).toEqual([]);
  });

  it("takes the gateway's coordinates as the position of the devices it carries, on their travel too", async () => {
    // Newer than the demo's own readings of the truck (made up to the moment of seeding, the test clock then moved
    // a minute on): only the newest reading moves a device's last position.
    const t = seconds(-1);
    const res = await post(relay({ [TRUCK]: { rssi: -60, timestamp: t, data: ADV.rawV2Valid } }, { coordinates: '-22.9068,-43.1729' }));
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await historyAt(TRUCK, t)).toEqual([expect.objectContaining({ lat: -22.9068, lng: -43.1729, temperature: 24.3 })]);
    const [stored] = await readingsOf(ctx, TRUCK, iso(t));
    expect(stored!.travel_id).not.toBeNull();
    const device = await ctx.db.selectFrom('devices').select(['last_lat', 'last_lng']).where('mac', '=', TRUCK).executeTakeFirstOrThrow();
    expect([device.last_lat, device.last_lng]).toEqual([-22.9068, -43.1729]);
  });

  it('is idempotent: the same relay posted again stores nothing twice', async () => {
    const t = seconds(-80);
    const body = relay({ [FREEZER]: { rssi: -71, timestamp: t, data: ADV.rawV2Valid } });
    expect((await post(body)).json()).toMatchObject({ accepted: 1, duplicates: 0 });
    expect((await post(body)).json()).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await historyAt(FREEZER, t)).toHaveLength(1);
  });

  it('rejects each bad tag with a counted reason and stores the others of the same post', async () => {
    const before = await rejectionCounts();
    const t = seconds(-70);
    const res = await post(relay({
      [FREEZER]: { rssi: -71, timestamp: t, data: ADV.rawV2Valid },
      [CHAMBER]: { rssi: -71, timestamp: t, data: '0201061BFF9904GG' },
      'C3:00:00:00:01:05': { rssi: -71, timestamp: t, data: ADV.rawV2Valid.slice(0, 40) },
      'C3:00:00:00:01:06': { rssi: -71, timestamp: t, data: '0201061BFF4C000512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F' },
      [VACCINES]: { rssi: -71, timestamp: t, data: ADV.rawV2Valid },
      'C3:00:00:00:01:07': { rssi: -71, timestamp: 'ontem', data: ADV.rawV2Valid },
      'não-é-mac': { rssi: -71, timestamp: t, data: ADV.rawV2Valid },
      'C3:00:00:00:01:08': 'texto',
      'C3:00:00:00:01:09': { rssi: -71, timestamp: t, data: '0201060303AAFE0B16AAFE10F8037275757669' },
    }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accepted).toBe(1);
    expect(body.rejected.map((r: { index: number; code: string }) => [r.index, r.code])).toEqual([
      [1, 'malformed_hex'],
      [2, 'truncated_advertisement'],
      [3, 'unknown_manufacturer'],
      [5, 'invalid_ts'],
      [6, 'invalid_mac'],
      [7, 'invalid_reading'],
      [8, 'unsupported_format'],
      // Another enterprise's tag answers exactly like an unknown one (no oracle of MACs registered elsewhere).
      [4, 'unknown_device'],
    ]);
    for (const r of body.rejected) expect(r.reason).toMatch(/\S/);
    expect(await historyAt(FREEZER, t)).toHaveLength(1);
    const vidaToken = (await ctx.login('vida.adm')).token;
    const vida = await ctx.request('GET', `/api/beacon-device/history/mac/${VACCINES}/page?dateInitUtc=${iso(t)}&dateEndUtc=${iso(t)}&isUtc=true`, vidaToken);
    expect(vida.json().data).toEqual([]);
    const after = await rejectionCounts();
    const added = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(['malformed_hex', 'truncated_advertisement', 'unknown_manufacturer', 'unknown_device', 'invalid_ts', 'invalid_mac', 'invalid_reading', 'unsupported_format'].map(added)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('rejects the tags of a post with absurd coordinates, counted', async () => {
    const before = await rejectionCounts();
    for (const coordinates of ['91,10', '-23.5,200', 'Rua Augusta, 100', 42]) {
      const t = seconds(-60);
      const res = await post(relay({ [FREEZER]: { rssi: -71, timestamp: t, data: ADV.rawV2Valid } }, { coordinates }));
      expect(res.json()).toEqual({ accepted: 0, duplicates: 0, rejected: [expect.objectContaining({ index: 0, mac: FREEZER, code: 'invalid_coordinates' })] });
    }
    expect((await rejectionCounts()).invalid_coordinates).toBe((before.invalid_coordinates ?? 0) + 4);
  });

  it("takes the relay's time, or the server's, for tags without a timestamp (a gateway without NTP)", async () => {
    const relayTime = seconds(-50);
    await post(relay({ [FREEZER]: { rssi: -71, data: ADV.rawV2Valid } }, { timestamp: relayTime }));
    expect(await historyAt(FREEZER, relayTime)).toHaveLength(1);
    await post({ data: { nonce: '1', gw_mac: GW_MAC, tags: { [CHAMBER]: { rssi: -71, data: ADV.pvvx } } } });
    const device = await ctx.db.selectFrom('devices').select(['last_sync_at', 'last_temperature']).where('mac', '=', CHAMBER).executeTakeFirstOrThrow();
    expect([device.last_sync_at!.getTime(), device.last_temperature]).toEqual([ctx.clock.now().getTime(), 20.91]);
  });

  it('refuses a body that is not a relay, too many tags, and an oversized body', async () => {
    for (const body of [{}, { data: {} }, { data: { tags: [] } }, [], { readings: [] }]) {
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/Ruuvi Gateway/);
    }
    const many = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`C3:00:00:${String(Math.floor(i / 256) % 100).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')}:00`, {}]));
    expect((await post(relay(many))).statusCode).toBe(413);
    const huge = await ctx.app.inject({
      method: 'POST', url: '/api/ingest/ruuvi', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(relay({ [FREEZER]: { data: 'AB'.repeat(9 * 1024 * 1024) } })),
    });
    expect(huge.statusCode).toBe(413);
  });

  it('authenticates by the gateway key only: missing, wrong and revoked keys get 401 and store nothing', async () => {
    const t = seconds(-40);
    const body = relay({ [FREEZER]: { rssi: -71, timestamp: t, data: ADV.rawV2Valid } });
    expect((await post(body, null)).statusCode).toBe(401);
    expect((await post(body, 'Bearer chave-errada')).statusCode).toBe(401);
    expect((await post(body, `Basic ${Buffer.from(`${key}:`).toString('base64')}`)).statusCode).toBe(401);
    const temp = (await ctx.request('POST', '/api/gateways', token, { name: 'Temporário' })).json();
    await ctx.request('DELETE', `/api/gateways/${temp._id}`, token);
    const revoked = await post(body, `Bearer ${temp.key}`);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toBe('Chave de gateway inválida ou revogada.');
    expect(await historyAt(FREEZER, t)).toEqual([]);
    // The other forms the gateway's settings offer: "Token" and the bare key.
    expect((await post(body, `Token ${key}`)).json()).toMatchObject({ accepted: 1 });
    expect((await post(body, key)).json()).toMatchObject({ duplicates: 1 });
  });
});

describe('Ruuvi Gateway over MQTT (ruuvi/{gateway mac}/{tag mac}, X6)', () => {
  async function gatewayClient() {
    const client = await connectAsync(`mqtt://127.0.0.1:${ctx.app.mqtt!.port}`, { username: 'ruuvi', password: key, reconnectPeriod: 0 });
    clients.push(client);
    return client;
  }
  const message = (ts: string, data: string, coords = '') => JSON.stringify({ gw_mac: GW_MAC, rssi: -26, aoa: [], gwts: ts, ts, data, coords });

  it('stores the decoded vectors once acknowledged, read back from the history API', async () => {
    const client = await gatewayClient();
    const t = seconds(-30);
    await client.publishAsync(`ruuvi/${GW_MAC}/${FREEZER}`, message(t, ADV.rawV2Valid, '-23.5505, -46.6333'), { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/${CHAMBER}`, message(t, ADV.rawV1Valid), { qos: 1 });
    expect(await historyAt(FREEZER, t)).toEqual([expect.objectContaining({ temperature: 24.3, humidity: 53.49, battery: 95, lat: -23.5505, lng: -46.6333 })]);
    expect(await historyAt(CHAMBER, t)).toEqual([expect.objectContaining({ temperature: 26.3, humidity: 20.5, battery: 80 })]);
    const t2 = seconds(-29);
    await client.publishAsync(`ruuvi/${GW_MAC}/${FREEZER}`, message(t2, ADV.tlm), { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/${CHAMBER}`, message(t2, ADV.rawV2Invalid), { qos: 1 });
    expect(await historyAt(FREEZER, t2)).toEqual([expect.objectContaining({ temperature: 30, humidity: null, battery: 100 })]);
    expect(await historyAt(CHAMBER, t2)).toEqual([expect.objectContaining({ temperature: null, humidity: null, battery: null })]);
  });

  it('acknowledges and counts what it cannot use, per message', async () => {
    const client = await gatewayClient();
    const before = await rejectionCounts();
    const t = seconds(-20);
    await client.publishAsync(`ruuvi/${GW_MAC}/${FREEZER}`, 'não é json', { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/xyz`, message(t, ADV.rawV2Valid), { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/${FREEZER}`, message(t, '0201061BFF99'), { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/${FREEZER}`, message(t, ADV.rawV2Valid, '999,999'), { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/${VACCINES}`, message(t, ADV.rawV2Valid), { qos: 1 });
    await client.publishAsync(`ruuvi/${GW_MAC}/${CHAMBER}`, message(t, ADV.pvvx), { qos: 1 });
    const after = await rejectionCounts();
    const added = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(['invalid_payload', 'invalid_topic', 'truncated_advertisement', 'invalid_coordinates', 'unknown_device'].map(added)).toEqual([1, 1, 1, 1, 1]);
    expect(await historyAt(FREEZER, t)).toEqual([]);
    expect(await historyAt(CHAMBER, t)).toEqual([expect.objectContaining({ temperature: 20.91 })]);
  });
});

describe("the simulator's virtual Ruuvi Gateway (apps/api/src/simulator/virtual-beacons)", () => {
  it('sends readings that come back as they were, over HTTP and MQTT', async () => {
    const t = iso(seconds(-15));
    const t2 = iso(seconds(-14));
    const readings: BeaconReading[] = [
      { mac: FREEZER, ts: t, temperature: -18.37, humidity: 61.2, battery: 87 },
      { mac: CHAMBER, ts: t, temperature: -19.91, humidity: 48.05, battery: 40 },
      { mac: FREEZER, ts: t2, temperature: -18.4, humidity: 61, battery: 87, lat: -23.5, lng: -46.6 },
    ];
    const relays = ruuviRelayBodies(readings, (_, i) => 65534 + i);
    // One advertisement per tag and place in a post, as a gateway relays them.
    expect(relays.map((r) => r.count)).toEqual([2, 1]);
    for (const relay of relays) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/ingest/ruuvi', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: relay.body });
      expect(res.json()).toMatchObject({ rejected: [] });
    }
    const unix = (at: string) => String(Date.parse(at) / 1000);
    expect(await historyAt(FREEZER, unix(t))).toEqual([expect.objectContaining({ temperature: -18.37, humidity: 61.2, battery: 87, lat: null })]);
    expect(await historyAt(CHAMBER, unix(t))).toEqual([expect.objectContaining({ temperature: -19.91, humidity: 48.05, battery: 40 })]);
    expect(await historyAt(FREEZER, unix(t2))).toEqual([expect.objectContaining({ temperature: -18.4, lat: -23.5, lng: -46.6 })]);

    const client = await connectAsync(`mqtt://127.0.0.1:${ctx.app.mqtt!.port}`, { username: 'ruuvi', password: key, reconnectPeriod: 0 });
    clients.push(client);
    const t3 = iso(seconds(-13));
    const { topic, payload } = ruuviMqttMessage({ mac: CHAMBER, ts: t3, temperature: 3.25, humidity: 70, battery: 100 }, 12);
    await client.publishAsync(topic, payload, { qos: 1 });
    expect(await historyAt(CHAMBER, unix(t3))).toEqual([expect.objectContaining({ temperature: 3.25, humidity: 70, battery: 100 })]);
  });
});
