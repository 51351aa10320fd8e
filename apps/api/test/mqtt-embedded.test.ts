import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { at, readingsOf } from './ingest-helpers';

/** The embedded broker (D5): QoS 1 acknowledged only after the commit, key as password, intake only. */
let ctx: TestContext;
let url: string;
const clients: MqttClient[] = [];
const FREEZER = 'C3:00:00:00:01:04';
const CHAMBER = 'C3:00:00:00:01:03';

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { mqttEnabled: true, mqttPort: 0 } });
  await ctx.app.mqtt!.ready();
  url = `mqtt://127.0.0.1:${ctx.app.mqtt!.port}`;
  ctx.clock.advance(60_000);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await ctx.close();
});

async function gatewayClient(password = DEMO_GATEWAY_KEY, clientId?: string) {
  const client = await connectAsync(url, { username: 'gateway', password, reconnectPeriod: 0, ...(clientId ? { clientId } : {}) });
  clients.push(client);
  return client;
}

describe('embedded MQTT broker', () => {
  it('acknowledges a QoS 1 reading only once it is stored', async () => {
    const client = await gatewayClient();
    const ts = at(ctx, -30);
    await client.publishAsync(`devices/${FREEZER}/readings`, JSON.stringify({ ts, temperature: -18.75, humidity: 61, battery: 88 }), { qos: 1 });
    // The PUBACK has arrived: the reading and the device's last state are already committed.
    expect(await readingsOf(ctx, FREEZER, ts)).toEqual([expect.objectContaining({ temperature: -18.75, humidity: 61, battery: 88 })]);
    const device = await ctx.db.selectFrom('devices').select(['last_sync_at', 'last_temperature']).where('mac', '=', FREEZER).executeTakeFirstOrThrow();
    expect(device.last_sync_at!.toISOString()).toBe(ts);
    expect(device.last_temperature).toBe(-18.75);
  });

  it('takes batches and many messages at once, each stored once', async () => {
    const client = await gatewayClient();
    const base = ctx.clock.now().getTime() - 10 * 60_000;
    const before = (await readingsOf(ctx, CHAMBER, new Date(base).toISOString())).length; // the demo's own readings
    await client.publishAsync(`devices/${CHAMBER.toLowerCase()}/readings`, JSON.stringify({ readings: [
      { ts: new Date(base).toISOString(), temperature: -19 },
      { mac: CHAMBER, ts: new Date(base + 1000).toISOString(), temperature: -19.5 },
    ] }), { qos: 1 });
    const publishes = Array.from({ length: 300 }, (_, i) =>
      client.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts: new Date(base + 2000 + i * 1000).toISOString(), temperature: -20 }), { qos: 1 }),
    );
    await Promise.all(publishes);
    expect(await readingsOf(ctx, CHAMBER, new Date(base).toISOString())).toHaveLength(before + 302);
    // Sent again (a gateway that did not see its acknowledgement): acknowledged, stored once.
    await client.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts: new Date(base + 2000).toISOString(), temperature: -20 }), { qos: 1 });
    expect(await readingsOf(ctx, CHAMBER, new Date(base).toISOString())).toHaveLength(before + 302);
  });

  it('acknowledges and counts what it cannot use, without storing it', async () => {
    const client = await gatewayClient();
    await client.publishAsync(`devices/${FREEZER}/readings`, 'não é json', { qos: 1 });
    await client.publishAsync('devices/xyz/readings', JSON.stringify({ ts: at(ctx, 0) }), { qos: 1 });
    await client.publishAsync(`devices/${FREEZER}/readings`, JSON.stringify({ ts: at(ctx, 0), temperature: 999 }), { qos: 1 });
    await client.publishAsync('devices/C3:00:00:00:02:01/readings', JSON.stringify({ ts: at(ctx, 0), temperature: 5 }), { qos: 1 });
    const counts = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count']).execute();
    expect(Object.fromEntries(counts.map((c) => [c.reason, Number(c.count)]))).toMatchObject({ invalid_payload: 1, invalid_topic: 1, out_of_range: 1 });
  });

  it('refuses a wrong key', async () => {
    await expect(gatewayClient('chave-errada')).rejects.toThrow(/Bad username or password/i);
  });

  it('offers no subscriptions: nobody reads other gateways readings', async () => {
    const client = await gatewayClient();
    // SUBACK 128 (failure), which mqtt.js reports as an error.
    await expect(client.subscribeAsync('devices/#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
  });

  it('drops the connections of a revoked gateway', async () => {
    const { token } = await ctx.login('aurora.adm');
    const created = (await ctx.request('POST', '/api/gateways', token, { name: 'MQTT temporário' })).json();
    const client = await gatewayClient(created.key, 'revoked-gateway');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await ctx.request('DELETE', `/api/gateways/${created._id}`, token);
    await closed;
    await expect(gatewayClient(created.key)).rejects.toThrow(/Bad username or password/i);
  });
});
