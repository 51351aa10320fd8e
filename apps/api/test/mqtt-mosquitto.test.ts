import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { readingsOf } from './ingest-helpers';

/**
 * The external-broker path (MQTT_URL) against Debian's Mosquitto: the server subscribes with a persistent
 * session and acknowledges a message only after storing it. A broker that goes away and comes back
 * loses nothing that was acknowledged, and nothing is stored twice.
 */
interface Mosquitto {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

let broker: Mosquitto;
let ctx: TestContext;
const publishers: MqttClient[] = [];
const CHAMBER = 'C3:00:00:00:01:03';
const FREEZER = 'C3:00:00:00:01:04';

/** Polls until `check` holds (the server stores asynchronously from the publisher's point of view). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function publisher(clientId: string) {
  const client = await connectAsync(broker.url, { clientId, clean: false, reconnectPeriod: 100 });
  publishers.push(client);
  return client;
}

beforeAll(async () => {
  // @ts-expect-error plain ESM helper shared with the scripts
  const { startMosquitto } = await import('../../../scripts/lib/mosquitto.mjs');
  broker = (await startMosquitto()) as Mosquitto;
  ctx = await createTestContext({
    demo: true,
    config: { mqttEnabled: true, mqttUrl: broker.url, mqttGatewayKey: DEMO_GATEWAY_KEY, mqttClientId: `sentinela-test-${randomUUID()}` },
  });
  await ctx.app.mqtt!.ready();
  ctx.clock.advance(60_000);
}, 60_000);

afterAll(async () => {
  await Promise.all(publishers.map((p) => p.endAsync(true)));
  await ctx?.close();
  await broker?.dispose();
});

describe('external broker (Mosquitto)', () => {
  it('stores what gateways publish there, attributed to the configured gateway', async () => {
    const gateway = await publisher('gateway-a');
    const base = ctx.clock.now().getTime() - 50_000;
    const from = new Date(base).toISOString();
    const before = (await readingsOf(ctx, FREEZER, from)).length;
    await gateway.publishAsync(`devices/${FREEZER}/readings`, JSON.stringify({ ts: new Date(base + 1).toISOString(), temperature: -18.5 }), { qos: 1 });
    await gateway.publishAsync(`devices/${FREEZER}/readings`, JSON.stringify({ readings: [
      { ts: new Date(base + 2).toISOString(), temperature: -18.25 },
      { ts: new Date(base + 3).toISOString(), temperature: 500 },
    ] }), { qos: 1 });
    await eventually(async () => (await readingsOf(ctx, FREEZER, from)).length === before + 2, 'two readings stored');
    await eventually(async () => !!(await ctx.db.selectFrom('ingest_rejections').select('count').where('reason', '=', 'out_of_range').executeTakeFirst()), 'rejection counted');
  });

  it('survives the broker going away and coming back: nothing acknowledged is lost, nothing stored twice', async () => {
    const gateway = await publisher('gateway-b');
    const total = 600;
    const base = ctx.clock.now().getTime() - 20 * 60_000 + 7; // clear of the demo's whole-minute readings
    const from = new Date(base).toISOString();
    const before = (await readingsOf(ctx, CHAMBER, from)).length;
    const publish = (i: number) =>
      gateway.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts: new Date(base + i * 1000).toISOString(), temperature: -19 - (i % 10) / 10 }), { qos: 1 });

    // A burst, and the broker stops while the server is still working through it (it stores one message
    // per transaction, in order), with messages queued for it, in flight to it, and unsent by the gateway.
    const first = Array.from({ length: total / 2 }, (_, i) => publish(i));
    await eventually(async () => (await readingsOf(ctx, CHAMBER, from)).length > before + 10, 'the burst is being stored');
    await broker.stop();
    // While it is down, the gateway keeps publishing into its own queue.
    const second = Array.from({ length: total / 2 }, (_, i) => publish(total / 2 + i));
    await broker.start();

    await Promise.all([...first, ...second]); // every message acknowledged to the gateway by the broker
    await eventually(async () => (await readingsOf(ctx, CHAMBER, from)).length >= before + total, `${total} readings stored`);
    const stored = await readingsOf(ctx, CHAMBER, from);
    expect(stored).toHaveLength(before + total);
    const mine = stored.filter((r) => (r.ts.getTime() - base) % 1000 === 0).map((r) => (r.ts.getTime() - base) / 1000);
    expect(mine).toEqual(Array.from({ length: total }, (_, i) => i));
  });

  it('stores many messages of one connection in one transaction, acknowledging none before its commit: a failed commit loses nothing', async () => {
    const gateway = await publisher('gateway-c');
    const total = 10;
    const base = ctx.clock.now().getTime() - 40 * 60_000 + 11;
    const from = new Date(base).toISOString();
    const before = (await readingsOf(ctx, FREEZER, from)).length;

    // The first batch waits until the subscriber has read every message, then fails as an outage would: had any
    // message been acknowledged before its commit, the broker would not deliver it again and it would be missing.
    const service = ctx.services.ingest;
    const ingest = service.ingest.bind(service);
    const nowMs = service.nowMs.bind(service);
    let read = 0;
    let allRead!: () => void;
    const everyMessageRead = new Promise<void>((resolve) => (allRead = resolve));
    const batches: number[] = [];
    service.nowMs = () => {
      if (++read === total) allRead();
      return nowMs();
    };
    service.ingest = async (parts) => {
      batches.push(parts.length);
      if (batches.length === 1) {
        await everyMessageRead;
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      }
      return ingest(parts);
    };
    try {
      await Promise.all(Array.from({ length: total }, (_, i) =>
        gateway.publishAsync(`devices/${FREEZER}/readings`, JSON.stringify({ ts: new Date(base + i * 1000).toISOString(), temperature: -18 }), { qos: 1 })));
      await eventually(async () => (await readingsOf(ctx, FREEZER, from)).length >= before + total, `${total} readings stored`);
    } finally {
      service.ingest = ingest;
      service.nowMs = nowMs;
    }
    // All ten were read while the first batch was held: they went into that batch and the one queued behind it,
    // so at least one transaction took half of them (with one message at a time in flight, every batch had one).
    expect(Math.max(...batches)).toBeGreaterThanOrEqual(total / 2);
    const stored = (await readingsOf(ctx, FREEZER, from)).filter((r) => (r.ts.getTime() - base) % 1000 === 0);
    expect(stored.map((r) => (r.ts.getTime() - base) / 1000)).toEqual(Array.from({ length: total }, (_, i) => i));
  });

  it("stores a Ruuvi Gateway's messages published there (ruuvi/{gateway mac}/{tag mac}, ADR 33)", async () => {
    const gateway = await publisher('ruuvi-gateway');
    const ts = String(Math.floor(ctx.clock.now().getTime() / 1000) - 5);
    // The RAWv2 "valid data" vector of ruuvi-sensor-protocols/dataformat_05.md: 24.3 °C.
    const data = '0201061BFF99040512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F';
    await gateway.publishAsync(`ruuvi/C8:25:2D:8E:9C:2C/${FREEZER}`, JSON.stringify({ gw_mac: 'C8:25:2D:8E:9C:2C', rssi: -60, aoa: [], gwts: ts, ts, data, coords: '' }), { qos: 1 });
    const at = new Date(Number(ts) * 1000).toISOString();
    await eventually(async () => (await readingsOf(ctx, FREEZER, at)).some((r) => r.ts.toISOString() === at && r.temperature === 24.3), 'the decoded reading stored');
  });
});
