import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings, readingsOf } from './ingest-helpers';

/**
 * Issue 26, D7: a device reports its firmware version (`fw` on ingestion); the device keeps it and each change is a
 * "Firmware" device event. Only a changed version writes anything.
 */
let ctx: TestContext;
let aurora: string;
let mqtt: MqttClient;
const FREEZER = 'C3:00:00:00:01:04'; // Aurora, the demo gateway writes it
const CHAMBER = 'C3:00:00:00:01:03';

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { mqttEnabled: true, mqttPort: 0 } });
  aurora = (await ctx.login('aurora.adm')).token;
  await ctx.app.mqtt!.ready();
  mqtt = await connectAsync(`mqtt://127.0.0.1:${ctx.app.mqtt!.port}`, { username: 'gateway', password: DEMO_GATEWAY_KEY, reconnectPeriod: 0 });
});
afterAll(async () => {
  await mqtt?.endAsync(true);
  await ctx?.close();
});
beforeEach(() => ctx.clock.advance(60_000));

async function firmwareEvents(mac: string) {
  const res = await ctx.request('GET', `/api/beacon-device/${mac}/logs`, aurora);
  expect(res.statusCode).toBe(200);
  return (res.json().content as { type: string; type_formatted: string; message: string; user: unknown; client: string | null }[]).filter((e) => e.type === 'firmware');
}

describe('fw on ingestion', () => {
  it('stores the version a device reports and records it, once, as a Firmware event', async () => {
    const res = await postReadings(ctx, [
      { mac: FREEZER, ts: at(ctx, -20), temperature: -18, fw: '1.4.2' },
      { mac: FREEZER, ts: at(ctx, -10), temperature: -18.1, fw: '1.4.2' },
    ]);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect((await deviceByMac(ctx, FREEZER)).firmware_version).toBe('1.4.2');
    const events = await firmwareEvents(FREEZER);
    expect(events).toEqual([expect.objectContaining({ type_formatted: 'Firmware', message: 'Firmware 1.4.2 informado pelo dispositivo', user: null, client: 'gateway' })]);

    // The same version again, and readings that say nothing: nothing written.
    ctx.clock.advance(60_000);
    await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, -5), temperature: -18.2, fw: '1.4.2' }, { mac: FREEZER, ts: at(ctx, -4), temperature: -18.2 }]);
    expect(await firmwareEvents(FREEZER)).toHaveLength(1);
    expect((await deviceByMac(ctx, FREEZER)).firmware_version).toBe('1.4.2');
  });

  it('records an update with the version before, and the newest reading of a batch wins; a late reading moves nothing back', async () => {
    await postReadings(ctx, [
      { mac: FREEZER, ts: at(ctx, -30), temperature: -18, fw: '1.4.3' },
      { mac: FREEZER, ts: at(ctx, -20), temperature: -18, fw: '1.5.0-rc.1' },
    ]);
    expect((await deviceByMac(ctx, FREEZER)).firmware_version).toBe('1.5.0-rc.1');
    expect((await firmwareEvents(FREEZER))[0]!.message).toBe('Firmware 1.5.0-rc.1 informado pelo dispositivo (antes: 1.4.2)');
    // A reading from an hour ago (stored: readings arrive late) carrying the old version changes nothing.
    const late = await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, -3600), temperature: -18, fw: '1.4.2' }]);
    expect(late.json().accepted).toBe(1);
    expect((await deviceByMac(ctx, FREEZER)).firmware_version).toBe('1.5.0-rc.1');
    expect(await firmwareEvents(FREEZER)).toHaveLength(2);
  });

  it('refuses a version that is not one, that reading alone, with its pt-BR reason', async () => {
    const ts = (s: number) => at(ctx, s);
    const res = await postReadings(ctx, [
      { mac: CHAMBER, ts: ts(-50), temperature: -19, fw: 2 },
      { mac: CHAMBER, ts: ts(-40), temperature: -19, fw: 'x'.repeat(33) },
      { mac: CHAMBER, ts: ts(-30), temperature: -19, fw: '1.0\u0000' },
      { mac: CHAMBER, ts: ts(-20), temperature: -19, fw: ' 1.0' },
      { mac: CHAMBER, ts: ts(-10), temperature: -19.5, fw: '2.0.0' },
    ]);
    const body = res.json();
    expect(body.accepted).toBe(1);
    expect(body.rejected.map((r: { index: number; code: string }) => [r.index, r.code])).toEqual([[0, 'invalid_value'], [1, 'invalid_value'], [2, 'invalid_value'], [3, 'invalid_value']]);
    expect(body.rejected[0].reason).toBe('Versão de firmware inválida: esperado um texto de até 32 letras, dígitos, ".", "-", "_" ou "+", ex.: "1.4.2".');
    expect((await deviceByMac(ctx, CHAMBER)).firmware_version).toBe('2.0.0');
  });

  it('takes fw over MQTT too (devices/{mac}/readings)', async () => {
    const ts = at(ctx, -5);
    await mqtt.publishAsync(`devices/${CHAMBER}/readings`, JSON.stringify({ ts, temperature: -19.25, fw: '2.1.0' }), { qos: 1 });
    expect(await readingsOf(ctx, CHAMBER, ts)).toEqual([expect.objectContaining({ temperature: -19.25 })]);
    expect((await deviceByMac(ctx, CHAMBER)).firmware_version).toBe('2.1.0');
    expect((await firmwareEvents(CHAMBER))[0]!.message).toBe('Firmware 2.1.0 informado pelo dispositivo (antes: 2.0.0)');
  });
});
