import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { connectAsync, type MqttClient } from 'mqtt';
import fc from 'fast-check';
import { fixedHeader, runPoisonGateway } from '../../../bench/lib/poison-gateway';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IngestPart } from '../src/ingest/ingest-service';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { HOSTILE_STRINGS, hostileValue, jsonText, type Pools } from './hostile-values';
import { at, readingsOf } from './ingest-helpers';
import { selfSignedCertificate } from './tls-certificate';

/**
 * The embedded broker against hostile gateways (issue 9, ADR 12): poison messages are acknowledged and counted
 * without costing anyone a connection, oversize packets are refused by their header (before authentication too),
 * a client id cannot be taken over by another key, another enterprise's MAC looks unknown, and MQTT over TLS.
 */
let ctx: TestContext;
let url: string;
let tlsUrl: string;
let certPem: string;
let tmp: string;
const clients: MqttClient[] = [];
const sockets: Socket[] = [];
const CHAMBER = 'C3:00:00:00:01:03'; // Aurora
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma: same micro-batch shard as CHAMBER
const UNKNOWN = 'C3:00:00:00:09:97';
let auroraKey: string;
let auroraGatewayId: string;
let vidaKey: string;
let vidaGatewayId: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sentinela-mqtts-'));
  const { cert, key } = selfSignedCertificate();
  certPem = cert;
  writeFileSync(path.join(tmp, 'cert.pem'), cert);
  writeFileSync(path.join(tmp, 'key.pem'), key);
  ctx = await createTestContext({
    demo: true,
    config: {
      mqttEnabled: true,
      mqttPort: 0,
      mqttConnectTimeoutSeconds: 1,
      mqttTls: { certPath: path.join(tmp, 'cert.pem'), keyPath: path.join(tmp, 'key.pem'), port: 0, host: '127.0.0.1' },
    },
  });
  await ctx.app.mqtt!.ready();
  url = `mqtt://127.0.0.1:${ctx.app.mqtt!.port}`;
  tlsUrl = `mqtts://127.0.0.1:${ctx.app.mqtt!.tlsPort}`;
  ctx.clock.advance(60_000);
  const aurora = (await ctx.request('POST', '/api/gateways', (await ctx.login('aurora.adm')).token, { name: 'Aurora MQTT' })).json();
  const vida = (await ctx.request('POST', '/api/gateways', (await ctx.login('vida.adm')).token, { name: 'Vida MQTT' })).json();
  auroraKey = aurora.key;
  auroraGatewayId = aurora._id;
  vidaKey = vida.key;
  vidaGatewayId = vida._id;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  for (const s of sockets) s.destroy();
  await ctx.close();
  rmSync(tmp, { recursive: true, force: true });
});

// Each test a minute after the previous one, past every reading stored so far.
beforeEach(() => ctx.clock.advance(60_000));

async function gatewayClient(password: string, options: { clientId?: string; url?: string; ca?: string } = {}) {
  const client = await connectAsync(options.url ?? url, {
    username: 'gateway', password, reconnectPeriod: 0,
    ...(options.clientId ? { clientId: options.clientId } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  clients.push(client);
  return client;
}

function closedFlag(client: MqttClient): { closed: boolean } {
  const flag = { closed: false };
  client.on('close', () => (flag.closed = true));
  return flag;
}

/** The readings of a device at exactly these instants (the demo's own readings fall between them). */
async function readingsAt(mac: string, instants: readonly string[]) {
  const wanted = new Set(instants);
  const from = [...instants].sort()[0]!;
  return (await readingsOf(ctx, mac, from)).filter((r) => wanted.has(r.ts.toISOString()));
}

async function countsOf(gatewayId: string): Promise<Record<string, number>> {
  const rows = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count']).where('gateway_id', '=', gatewayId).execute();
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.count)]));
}

/** A raw TCP connection, to send what no MQTT client library would. Resolves `closed` when the server hangs up. */
async function rawConnection(): Promise<{ socket: Socket; closed: Promise<number> }> {
  const socket = connectTcp(ctx.app.mqtt!.port!, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, closed };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms))]);
}

const HUNDRED_MB = 100 * 1024 * 1024;

describe('embedded MQTT broker under hostile gateways', () => {
  it('acknowledges and counts poison messages, keeps their connection, and never fails an innocent gateway of the same batch', async () => {
    const batches: string[][] = [];
    const ingest = ctx.services.ingest;
    const original = ingest.ingest.bind(ingest);
    ingest.ingest = (parts: readonly IngestPart[]) => {
      batches.push(parts.map((p) => p.gateway.id));
      return original(parts);
    };
    // A value validation lets through but the database refuses, as a gap in validation would.
    await sql`ALTER TABLE readings ADD CONSTRAINT test_refuses_42_5 CHECK (temperature IS DISTINCT FROM 42.5)`.execute(ctx.db);
    try {
      const poison = await gatewayClient(auroraKey);
      const innocent = await gatewayClient(vidaKey);
      const poisonState = closedFlag(poison);
      const innocentState = closedFlag(innocent);
      const base = ctx.clock.now().getTime() - 300_000;
      const ts = (i: number) => new Date(base + i * 1000).toISOString();
      const topic = `devices/${CHAMBER}/readings`;
      // Each round at its own instants, so that no reading repeats another (a repeat would count as a duplicate).
      const poisonMessages = (t: number) => [
        'não é json',
        JSON.stringify({ mac: 'AA\u0000BB', ts: ts(t), temperature: 1 }),
        JSON.stringify({ ts: ts(t + 1), temperature: 1e-50 }),
        JSON.stringify({ ts: ts(t + 2), temperature: 1e300 }),
        JSON.stringify({ ts: ts(t + 3), temperature: 42.5 }),
        JSON.stringify({ readings: [{ ts: ts(t + 4), temperature: 42.5 }, { ts: ts(t + 5), temperature: -20 }] }),
        '\u0000'.repeat(1000),
      ];
      const sent: Promise<unknown>[] = [];
      for (let round = 0; round < 5; round++) {
        for (const m of poisonMessages(round * 10)) sent.push(poison.publishAsync(topic, m, { qos: 1 }));
        for (let k = 0; k < 4; k++) {
          const i = round * 4 + k;
          sent.push(innocent.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: ts(100 + i), temperature: 4 + i / 10 }), { qos: 1 }));
        }
      }
      // Every message acknowledged (PUBACK), poison or not.
      await within(Promise.all(sent), 20_000, 'every PUBACK');
      expect(batches.some((gateways) => gateways.includes(auroraGatewayId) && gateways.includes(vidaGatewayId))).toBe(true);
      expect(await readingsAt(VACCINES, Array.from({ length: 20 }, (_, i) => ts(100 + i)))).toHaveLength(20);
      const chamberInstants = Array.from({ length: 50 }, (_, i) => ts(i));
      expect((await readingsAt(CHAMBER, chamberInstants)).map((r) => [r.ts.toISOString(), r.temperature])).toEqual([0, 1, 2, 3, 4].map((round) => [ts(round * 10 + 5), -20]));
      // Each poison reading counted under its reason.
      expect(await countsOf(auroraGatewayId)).toEqual({ invalid_payload: 10, invalid_mac: 5, invalid_value: 5, out_of_range: 5, not_stored: 10 });
      expect(await countsOf(vidaGatewayId)).toEqual({});
      // Both still connected and in use.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(poisonState.closed).toBe(false);
      expect(innocentState.closed).toBe(false);
      await innocent.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: ts(200), temperature: 5 }), { qos: 1 });
      expect(await readingsAt(VACCINES, [ts(200)])).toHaveLength(1);
    } finally {
      ingest.ingest = original;
      await sql`ALTER TABLE readings DROP CONSTRAINT test_refuses_42_5`.execute(ctx.db);
    }
  });

  it("answers another enterprise's device exactly like an unknown one", async () => {
    const client = await gatewayClient(auroraKey);
    const before = await countsOf(auroraGatewayId);
    await client.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: at(ctx, -5), temperature: 5 }), { qos: 1 });
    const afterForeign = await countsOf(auroraGatewayId);
    await client.publishAsync(`devices/${UNKNOWN}/readings`, JSON.stringify({ ts: at(ctx, -5), temperature: 5 }), { qos: 1 });
    const afterUnknown = await countsOf(auroraGatewayId);
    expect(afterForeign).toEqual({ ...before, unknown_device: (before.unknown_device ?? 0) + 1 });
    expect(afterUnknown).toEqual({ ...before, unknown_device: (before.unknown_device ?? 0) + 2 });
    expect(await readingsAt(VACCINES, [at(ctx, -5)])).toHaveLength(0);
  });

  it('refuses a 100 MB CONNECT by its header, before authentication, without reading the payload', async () => {
    // Only the five header bytes: a broker that waited for the payload would never hang up, and only the CONNECT
    // timeout would. A silent connection opened just before is the control: its timeout runs out first unless the
    // header's refusal comes at once.
    const closedFirst = async (write: (socket: Socket) => void) => {
      const silent = await rawConnection();
      const refused = await rawConnection();
      write(refused.socket);
      return within(Promise.race([refused.closed.then(() => 'refused by its header'), silent.closed.then(() => 'CONNECT timeout')]), 5000, 'connection closed');
    };
    expect(await closedFirst((socket) => socket.write(fixedHeader(0x10, HUNDRED_MB)))).toBe('refused by its header');
    // Above the 16 KiB cap before authentication, even far below the 1 MiB one.
    expect(await closedFirst((socket) => socket.write(Buffer.concat([fixedHeader(0x10, 20_000), Buffer.alloc(1000)])))).toBe('refused by its header');
    // Measured: a client that goes on streaming the 100 MB gets only what the sockets' buffers hold through.
    const third = await rawConnection();
    let open = true;
    void third.closed.then(() => (open = false));
    let written = 0;
    const chunk = Buffer.alloc(1024 * 1024);
    third.socket.write(fixedHeader(0x10, HUNDRED_MB));
    while (open && written < HUNDRED_MB) {
      written += chunk.length;
      if (!third.socket.write(chunk)) await Promise.race([new Promise((resolve) => third.socket.once('drain', resolve)), third.closed]);
    }
    await within(third.closed, 2000, 'connection closed');
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('refuses a 100 MB PUBLISH of an authenticated gateway by its header, and keeps serving the others', async () => {
    const attacker = await gatewayClient(auroraKey);
    const bystander = await gatewayClient(vidaKey);
    const bystanderState = closedFlag(bystander);
    const closed = new Promise<void>((resolve) => attacker.once('close', () => resolve()));
    attacker.stream.write(fixedHeader(0x32, HUNDRED_MB));
    await within(closed, 2000, 'attacker disconnected');
    // 2 MB of real payload, above MQTT_MAX_PACKET_BYTES (1 MiB): refused as well, nothing stored.
    const second = await gatewayClient(auroraKey);
    const secondClosed = new Promise<void>((resolve) => second.once('close', () => resolve()));
    second.publish(`devices/${CHAMBER}/readings`, JSON.stringify({ readings: [{ ts: at(ctx, -7), temperature: 1 }], pad: 'x'.repeat(2 * 1024 * 1024) }), { qos: 1 });
    await within(secondClosed, 5000, 'oversize publisher disconnected');
    expect(await readingsAt(CHAMBER, [at(ctx, -7)])).toHaveLength(0);
    // The other gateway never noticed.
    await bystander.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: at(ctx, -6), temperature: 6 }), { qos: 1 });
    expect(await readingsAt(VACCINES, [at(ctx, -6)])).toHaveLength(1);
    expect(bystanderState.closed).toBe(false);
  });

  it('closes a connection that sends no CONNECT within MQTT_CONNECT_TIMEOUT_SECONDS', async () => {
    const { closed } = await rawConnection();
    const after = await within(closed, 3000, 'idle connection closed');
    expect(after).toBeGreaterThanOrEqual(900);
  });

  it("never lets another gateway's key take over a connected gateway's client id", async () => {
    const owner = await gatewayClient(DEMO_GATEWAY_KEY, { clientId: 'doca-1' });
    const ownerState = closedFlag(owner);
    const intruder = await gatewayClient(vidaKey, { clientId: 'doca-1' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ownerState.closed).toBe(false);
    // Both are served, each as itself.
    await owner.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts: at(ctx, -9), temperature: -19 }), { qos: 1 });
    await intruder.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: at(ctx, -9), temperature: 5 }), { qos: 1 });
    expect(await readingsAt(CHAMBER, [at(ctx, -9)])).toHaveLength(1);
    expect(await readingsAt(VACCINES, [at(ctx, -9)])).toHaveLength(1);
    // The gateway itself reconnecting with its id replaces its own stale connection, as MQTT requires.
    const closed = new Promise<void>((resolve) => owner.once('close', () => resolve()));
    await gatewayClient(DEMO_GATEWAY_KEY, { clientId: 'doca-1' });
    await within(closed, 2000, 'stale connection replaced');
  });

  it('takes readings over TLS (mqtts) with the configured certificate', async () => {
    const client = await gatewayClient(auroraKey, { url: tlsUrl, ca: certPem });
    const ts = at(ctx, -11);
    await client.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts, temperature: -18.5 }), { qos: 1 });
    expect(await readingsAt(CHAMBER, [ts])).toEqual([expect.objectContaining({ temperature: -18.5 })]);
    // The same guard stands in front of TLS connections.
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.stream.write(fixedHeader(0x32, HUNDRED_MB));
    await within(closed, 2000, 'TLS attacker disconnected');
  });

  it("the abuse bench's poison gateway: every poison message acknowledged, every oversize packet refused, no disconnect", async () => {
    const result = await runPoisonGateway({ mqttUrl: url, password: auroraKey, clientId: 'poison-bench', durationMs: 1500, ratePerSecond: 40, mac: CHAMBER, oversizeEvery: 10 });
    expect(result.sent).toBeGreaterThan(40);
    expect(result.oversizeSent).toBeGreaterThan(3);
    expect(result.acked).toBe(result.sent - result.oversizeSent);
    expect(result.unacked).toBe(0);
    expect(result.disconnects).toBe(0);
    expect(result.oversizeRefused).toBe(result.oversizeSent);
    // Refused by the header: a few socket buffers' worth per attempt at most, never the 100 MB.
    expect(result.oversizeBytesWritten / result.oversizeSent).toBeLessThan(16 * 1024 * 1024);
  });

  it('a message that makes storing fail (a defect, not bad data) fails alone: its batch neighbours are stored and keep their connection', async () => {
    const batches: string[][] = [];
    const ingest = ctx.services.ingest;
    const original = ingest.ingest.bind(ingest);
    ingest.ingest = (parts: readonly IngestPart[]) => {
      batches.push(parts.map((p) => p.gateway.id));
      return original(parts);
    };
    await sql`CREATE FUNCTION test_defect() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.temperature = 43.5 THEN RAISE EXCEPTION 'test defect' USING ERRCODE = 'P0001'; END IF; RETURN NEW; END $$`.execute(ctx.db);
    await sql`CREATE TRIGGER test_defect BEFORE INSERT ON readings FOR EACH ROW EXECUTE FUNCTION test_defect()`.execute(ctx.db);
    try {
      const poison = await gatewayClient(auroraKey);
      const innocent = await gatewayClient(vidaKey);
      const innocentState = closedFlag(innocent);
      const poisonClosed = new Promise<void>((resolve) => poison.once('close', () => resolve()));
      const base = ctx.clock.now().getTime() - 120_000;
      const ts = (i: number) => new Date(base + i * 1000).toISOString();
      const acked: Promise<unknown>[] = [];
      for (let i = 0; i < 10; i++) {
        if (i === 5) poison.publish(`devices/${CHAMBER}/readings`, JSON.stringify({ ts: ts(50), temperature: 43.5 }), { qos: 1 });
        acked.push(innocent.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: ts(i), temperature: 5 }), { qos: 1 }));
      }
      await within(Promise.all(acked), 10_000, 'innocent PUBACKs');
      await within(poisonClosed, 5000, 'the unacknowledged sender disconnected, to resend');
      expect(batches.some((gateways) => gateways.includes(auroraGatewayId) && gateways.includes(vidaGatewayId))).toBe(true);
      expect(await readingsAt(VACCINES, Array.from({ length: 10 }, (_, i) => ts(i)))).toHaveLength(10);
      expect(await readingsAt(CHAMBER, [ts(50)])).toHaveLength(0);
      expect(innocentState.closed).toBe(false);
    } finally {
      ingest.ingest = original;
      await sql`DROP TRIGGER test_defect ON readings`.execute(ctx.db);
      await sql`DROP FUNCTION test_defect()`.execute(ctx.db);
    }
  });

  it('while the database is unavailable nothing is acknowledged; the gateway resends and nothing is lost nor doubled', async () => {
    // An error of class 57 (operator intervention), as a database going down reports it.
    await sql`CREATE FUNCTION test_outage() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test outage' USING ERRCODE = '57P01'; END $$`.execute(ctx.db);
    await sql`CREATE TRIGGER test_outage BEFORE INSERT ON readings FOR EACH ROW EXECUTE FUNCTION test_outage()`.execute(ctx.db);
    let dropped = false;
    const dropTrigger = async () => {
      if (dropped) return;
      dropped = true;
      await sql`DROP TRIGGER test_outage ON readings`.execute(ctx.db);
      await sql`DROP FUNCTION test_outage()`.execute(ctx.db);
    };
    try {
      const client = await connectAsync(url, { username: 'gateway', password: auroraKey, clientId: 'outage-gateway', reconnectPeriod: 300 });
      clients.push(client);
      const ts = at(ctx, -13);
      let ackedAt = 0;
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      const published = client.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts, temperature: -17.25 }), { qos: 1 }).then(() => (ackedAt = Date.now()));
      await within(closed, 5000, 'disconnected without PUBACK');
      expect(ackedAt).toBe(0);
      expect(await readingsAt(CHAMBER, [ts])).toHaveLength(0);
      await dropTrigger();
      await within(published, 10_000, 'PUBACK after the resend');
      expect(await readingsAt(CHAMBER, [ts])).toEqual([expect.objectContaining({ temperature: -17.25 })]);
    } finally {
      await dropTrigger();
    }
  });

  it('generated hostile payloads (fixed seed): every message acknowledged, no connection dropped, valid readings beside them stored', async () => {
    const instants = [at(ctx, -40), at(ctx, -39), at(ctx, 3600), '1970-01-01T00:00:00Z', '2026-02-30T00:00:00Z'];
    const pools: Pools = { uuids: [auroraGatewayId, vidaGatewayId], macs: [CHAMBER, VACCINES, UNKNOWN], codes: ['AUR7K2M9QX'], instants };
    const field = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: hostileValue(pools) });
    const reading = fc.record(
      {
        mac: field(fc.constantFrom(CHAMBER, VACCINES, UNKNOWN, CHAMBER.toLowerCase())),
        ts: field(fc.constantFrom(...instants)),
        temperature: field(fc.double({ min: -100, max: 200 })),
        humidity: field(fc.double({ min: -10, max: 110 })),
        battery: field(fc.integer({ min: -5, max: 105 })),
        lat: field(fc.double({ min: -91, max: 91 })),
        lng: field(fc.double({ min: -181, max: 181 })),
      },
      { requiredKeys: [] },
    );
    const payload = fc.oneof(
      { weight: 3, arbitrary: reading.map(jsonText) },
      { weight: 2, arbitrary: fc.array(reading, { maxLength: 6 }).map((readings) => jsonText({ readings })) },
      { weight: 1, arbitrary: hostileValue(pools).map((v) => jsonText({ readings: v })) },
      { weight: 1, arbitrary: hostileValue(pools).map(jsonText) },
      { weight: 1, arbitrary: fc.constantFrom('{"ts":', '', '\u0000', '\uD800', 'null', '[]', '{"readings":[' + '['.repeat(5000)) },
    );
    // Topics a client library will send (no NUL nor wildcards: those are protocol errors, which close the sender).
    // eslint-disable-next-line no-control-regex -- NUL is what is filtered out
    const topicMacs = HOSTILE_STRINGS.filter((t) => t.length < 200 && !/[\u0000+#/\uD800-\uDFFF]/.test(t));
    const topic = fc.oneof({ weight: 4, arbitrary: fc.constant(CHAMBER) }, { weight: 1, arbitrary: fc.constantFrom(...topicMacs) }).map((mac) => `devices/${mac}/readings`);
    const messages = fc.sample(fc.record({ topic, payload }), { seed: 20261125, numRuns: 200 });

    const hostile = await gatewayClient(auroraKey);
    const innocent = await gatewayClient(vidaKey);
    const hostileState = closedFlag(hostile);
    const innocentState = closedFlag(innocent);
    const base = ctx.clock.now().getTime() - 200_000;
    const innocentInstants = Array.from({ length: 40 }, (_, i) => new Date(base + i * 1000).toISOString());
    const sent: Promise<unknown>[] = [];
    messages.forEach((m, i) => {
      sent.push(hostile.publishAsync(m.topic, m.payload, { qos: 1 }));
      if (i % 5 === 0) sent.push(innocent.publishAsync(`devices/${VACCINES}/readings`, JSON.stringify({ ts: innocentInstants[i / 5], temperature: 3 }), { qos: 1 }));
    });
    await within(Promise.all(sent), 20_000, 'every PUBACK');
    expect(hostileState.closed).toBe(false);
    expect(innocentState.closed).toBe(false);
    expect(await readingsAt(VACCINES, innocentInstants)).toHaveLength(40);
    const ts = at(ctx, -1);
    await hostile.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts, temperature: -18 }), { qos: 1 });
    expect(await readingsAt(CHAMBER, [ts])).toHaveLength(1);
  });
});
