import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { readingsIn, type IngestPart } from '../src/ingest/ingest-service';
import { sharedFilter } from '../src/ingest/mqtt-subscriber';
import type { AppServices } from '../src/services';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { createTestContext, testConfig, type TestContext } from './context';
import { readingsOf } from './ingest-helpers';

/**
 * Two API processes behind one external broker (docs/scaling.md, ADR 44): both subscribe in one shared-subscription
 * group (MQTT_SHARE_GROUP), each with two sessions (MQTT_SUBSCRIBER_CONNECTIONS), against Debian's Mosquitto. The
 * broker hands each message to one session: every reading is stored, and each message is ingested once (not once per
 * server, which the (device, time) key would hide in the table but not in the work), by both servers between them.
 */
interface Mosquitto {
  url: string;
  dispose(): Promise<void>;
}

let broker: Mosquitto;
let ctx: TestContext;
let second: { app: FastifyInstance; services: AppServices };
let gateway: MqttClient | undefined;
const FREEZER = 'C3:00:00:00:01:04';
const GROUP = 'sentinela-test';

/** Readings each server handed to its ingestion (counted around the real call). */
const handled = { first: 0, second: 0 };
function countIngested(services: AppServices, server: keyof typeof handled) {
  const ingest = services.ingest.ingest.bind(services.ingest);
  services.ingest.ingest = (parts: IngestPart[]) => {
    for (const part of parts) handled[server] += readingsIn(part);
    return ingest(parts);
  };
}

/** Polls until `check` holds (the servers store asynchronously from the publisher's point of view). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sharedConfig = (clientId: string) => ({
  mqttEnabled: true,
  mqttUrl: broker.url,
  mqttGatewayKey: DEMO_GATEWAY_KEY,
  mqttClientId: clientId,
  mqttShareGroup: GROUP,
  mqttSubscriberConnections: 2,
});

beforeAll(async () => {
  // @ts-expect-error plain ESM helper shared with the scripts
  const { startMosquitto } = await import('../../../scripts/lib/mosquitto.mjs');
  broker = (await startMosquitto()) as Mosquitto;
  ctx = await createTestContext({ demo: true, config: sharedConfig(`sentinela-a-${randomUUID()}`) });
  second = await buildApp({ config: testConfig(sharedConfig(`sentinela-b-${randomUUID()}`)), db: ctx.db, clock: ctx.clock, logger: false });
  await second.app.ready();
  await Promise.all([ctx.app.mqtt!.ready(), second.app.mqtt!.ready()]);
  countIngested(ctx.services, 'first');
  countIngested(second.services, 'second');
  ctx.clock.advance(60_000);
}, 60_000);

afterAll(async () => {
  await gateway?.endAsync(true);
  await second?.app.close();
  await ctx?.close();
  await broker?.dispose();
});

describe('several servers behind one external broker (shared subscriptions)', () => {
  it('stores every reading once, each message ingested by one server only, both servers taking a share', async () => {
    gateway = await connectAsync(broker.url, { clientId: `gateway-${randomUUID()}`, clean: true });
    const total = 200;
    const base = ctx.clock.now().getTime() - 30 * 60_000 + 7; // clear of the demo's whole-minute readings
    const from = new Date(base).toISOString();
    const before = (await readingsOf(ctx, FREEZER, from)).length;
    await Promise.all(
      Array.from({ length: total }, (_, i) =>
        gateway!.publishAsync(`devices/${FREEZER}/readings`, JSON.stringify({ ts: new Date(base + i * 1000).toISOString(), temperature: -18 - (i % 10) / 10 }), { qos: 1 }),
      ),
    );
    await eventually(async () => (await readingsOf(ctx, FREEZER, from)).length >= before + total, `${total} readings stored`);
    const mine = (await readingsOf(ctx, FREEZER, from)).filter((r) => (r.ts.getTime() - base) % 1000 === 0).map((r) => (r.ts.getTime() - base) / 1000);
    expect(mine).toEqual(Array.from({ length: total }, (_, i) => i));
    // Each message reached one session of one server: without the group, each of the four sessions would get all.
    expect(handled.first + handled.second).toBe(total);
    expect(handled.first).toBeGreaterThan(0);
    expect(handled.second).toBeGreaterThan(0);
  });

  it('subscribes in the group only when one is set', () => {
    expect(sharedFilter('devices/+/readings', GROUP)).toBe('$share/sentinela-test/devices/+/readings');
    expect(sharedFilter('devices/+/readings', undefined)).toBe('devices/+/readings');
  });

  it('refuses several connections without a share group, and a group name a topic filter cannot hold', () => {
    const env = { MQTT_URL: 'mqtt://127.0.0.1:1883', MQTT_GATEWAY_KEY: 'sgw_x' };
    expect(() => loadConfig({ ...env, MQTT_SUBSCRIBER_CONNECTIONS: '4' })).toThrow(/MQTT_SUBSCRIBER_CONNECTIONS/);
    expect(() => loadConfig({ ...env, MQTT_SHARE_GROUP: 'a/b' })).toThrow(/MQTT_SHARE_GROUP/);
    expect(() => loadConfig({ ...env, MQTT_SHARE_GROUP: '#' })).toThrow(/MQTT_SHARE_GROUP/);
    const config = loadConfig({ ...env, MQTT_SHARE_GROUP: 'sentinela', MQTT_SUBSCRIBER_CONNECTIONS: '4' });
    expect(config.mqttShareGroup).toBe('sentinela');
    expect(config.mqttSubscriberConnections).toBe(4);
    expect(loadConfig({}).mqttShareGroup).toBeUndefined();
  });
});
