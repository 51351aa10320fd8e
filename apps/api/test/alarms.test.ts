import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlarmChangedEvent } from '../src/realtime/event-bus';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings } from './ingest-helpers';

/** Alarms (D6), server side: one alarm per excursion and type, delays, no data, acknowledgement, tenant scope. */
let ctx: TestContext;
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, 30..90 %, linked to joao.silva, not travelling
const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, 0..8 °C, travelling (AUR7K2M9QX)
const CHAMBER = 'C3:00:00:00:01:03'; // Aurora, -22..-16 °C
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma
let aurora: string;
let joao: string;
let vida: string;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());
// Each test starts a minute after the previous one (past every reading so far), with fresh sessions.
beforeEach(async () => {
  ctx.clock.advance(60_000);
  aurora = (await ctx.login('aurora.adm')).token;
  joao = (await ctx.login('joao.silva')).token;
  vida = (await ctx.login('vida.adm')).token;
});

async function alarmsOf(mac: string) {
  const device = await deviceByMac(ctx, mac);
  return ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', device.id).orderBy('started_at').execute();
}

async function openedEventsOf(mac: string) {
  const device = await deviceByMac(ctx, mac);
  const rows = await ctx.db.selectFrom('domain_events').select(['kind', 'payload']).where('kind', '=', 'alarm.opened').execute();
  return rows.filter((r) => (r.payload as { device_id: string }).device_id === device.id);
}

describe('an excursion above the limit', () => {
  it('opens one alarm, follows the excursion, and closes when back inside', async () => {
    const changes: AlarmChangedEvent[] = [];
    const offOpened = ctx.services.events.on('alarm.opened', (e) => changes.push(e));
    const offClosed = ctx.services.events.on('alarm.closed', (e) => changes.push(e));

    await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -50), temperature: 7.5, humidity: 50 }]);
    expect(await alarmsOf(TRUCK_2)).toHaveLength(0);

    await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -40), temperature: 8.5, humidity: 52 }]);
    await postReadings(ctx, [
      { mac: TRUCK_2, ts: at(ctx, -30), temperature: 9.25, humidity: 48 },
      { mac: TRUCK_2, ts: at(ctx, -20), temperature: 8 }, // equal to the limit: inside, the excursion ends
    ]);
    let alarms = await alarmsOf(TRUCK_2);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      type: 'temperature_high',
      message: 'Temperatura acima do limite máximo (8,00 °C)',
      active: false,
      temperature_min: 8.5,
      temperature_max: 9.25,
      humidity_min: 48,
      humidity_max: 52,
    });
    expect(alarms[0]!.started_at.toISOString()).toBe(at(ctx, -40));
    expect(alarms[0]!.ended_at!.toISOString()).toBe(at(ctx, -20));

    // A new excursion is a new alarm; a reading without temperature neither continues nor ends it.
    await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -10), temperature: 10 }]);
    await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), humidity: 50 }]);
    alarms = await alarmsOf(TRUCK_2);
    expect(alarms.map((a) => [a.type, a.active])).toEqual([['temperature_high', false], ['temperature_high', true]]);

    // Below the minimum: the high alarm closes and a low one opens, in the same reading.
    await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, 0), temperature: -1.5 }]);
    alarms = await alarmsOf(TRUCK_2);
    expect(alarms.map((a) => [a.type, a.active])).toEqual([['temperature_high', false], ['temperature_high', false], ['temperature_low', true]]);
    expect(alarms[2]!.message).toBe('Temperatura abaixo do limite mínimo (0,00 °C)');

    // Every opening is a domain event for the notifications worker.
    const events = await openedEventsOf(TRUCK_2);
    expect(events).toHaveLength(3);
    expect(events[0]!.payload).toMatchObject({ type: 'temperature_high', mac: TRUCK_2, device_name: 'Baú Caminhão 02', message: 'Temperatura acima do limite máximo (8,00 °C)' });

    offOpened();
    offClosed();
    expect(changes.map((c) => [c.type, c.active])).toEqual([
      ['temperature_high', true], ['temperature_high', false], ['temperature_high', true], ['temperature_low', true], ['temperature_high', false],
    ]);
  });

  it('opens and closes within one batch, and ignores late readings', async () => {
    await postReadings(ctx, [
      { mac: CHAMBER, ts: at(ctx, -30), temperature: -19, humidity: 85 },
      { mac: CHAMBER, ts: at(ctx, -20), temperature: -19, humidity: 81 },
      { mac: CHAMBER, ts: at(ctx, -10), temperature: -19, humidity: 60 },
    ]);
    const alarms = await alarmsOf(CHAMBER);
    expect(alarms).toMatchObject([{ type: 'humidity_high', active: false, humidity_min: 81, humidity_max: 85, message: 'Umidade acima do limite máximo (80,00 %)' }]);
    // A reading older than the device's last sync is history, not news: no alarm.
    await postReadings(ctx, [{ mac: CHAMBER, ts: at(ctx, -25), temperature: 30 }]);
    expect(await alarmsOf(CHAMBER)).toHaveLength(1);
  });

  it('announces the alarms one batch opened and closed in this process, with no job on the way (ADR 87)', async () => {
    const sendMany = vi.spyOn(ctx.services.jobs, 'sendMany');
    const send = vi.spyOn(ctx.services.jobs, 'send');
    try {
      await postReadings(ctx, [
        { mac: CHAMBER, ts: at(ctx, -30), temperature: -19, humidity: 85 },
        { mac: CHAMBER, ts: at(ctx, -20), temperature: -19, humidity: 60 },
      ]);
      // Opened and closed by the one batch: both told, the opening first.
      const [alarm] = (await alarmsOf(CHAMBER)).slice(-1);
      expect(alarm).toMatchObject({ type: 'humidity_high', active: false });
      await expect
        .poll(async () => {
          const row = await ctx.db.selectFrom('alarms').select(['notified_opened_at', 'notified_ended_at']).where('id', '=', alarm!.id).executeTakeFirstOrThrow();
          return row.notified_opened_at !== null && row.notified_ended_at !== null;
        }, { timeout: 15_000 })
        .toBe(true);
      // Nothing went through the announcement queue (kept for retries and the sweep).
      const queued = [...send.mock.calls.map((c) => c[0]), ...sendMany.mock.calls.map((c) => c[0])];
      expect(queued.filter((name) => name === 'alarm-notify')).toEqual([]);
      expect(await ctx.services.jobs.jobsFor('alarm-notify', `alarm:${alarm!.id}:opened`)).toEqual([]);
    } finally {
      sendMany.mockRestore();
      send.mockRestore();
    }
  });

  it("uses a travel's own limits while the device travels", async () => {
    const travel = await ctx.db.selectFrom('travels').select('id').where('code', '=', 'AUR7K2M9QX').executeTakeFirstOrThrow();
    const device = await deviceByMac(ctx, TRUCK_1);
    await ctx.db.updateTable('travel_devices').set({ temperature_max: 20 }).where('travel_id', '=', travel.id).where('device_id', '=', device.id).execute();
    await postReadings(ctx, [{ mac: TRUCK_1, ts: at(ctx, -10), temperature: 15 }]);
    expect(await alarmsOf(TRUCK_1)).toHaveLength(0);
    await postReadings(ctx, [{ mac: TRUCK_1, ts: at(ctx, -5), temperature: 21 }]);
    expect(await alarmsOf(TRUCK_1)).toMatchObject([{ type: 'temperature_high', travel_id: travel.id, message: 'Temperatura acima do limite máximo (20,00 °C)' }]);
  });
});

describe('out of range for N minutes', () => {
  it('opens only once the excursion has lasted that long, from when it started', async () => {
    const device = await deviceByMac(ctx, CHAMBER);
    const res = await ctx.request('PUT', `/api/devices/${device.id}`, aurora, { config: { out_of_range_minutes: 10 } });
    expect(res.statusCode).toBe(200);
    const start = ctx.clock.now().getTime();
    const ts = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

    ctx.clock.set(new Date(start + 60 * 60_000));
    await postReadings(ctx, [{ mac: CHAMBER, ts: ts(0), temperature: -10 }]);
    await postReadings(ctx, [{ mac: CHAMBER, ts: ts(5), temperature: -12 }]);
    expect((await alarmsOf(CHAMBER)).filter((a) => a.type === 'temperature_high')).toHaveLength(0);
    // Back inside before 10 minutes: forgotten.
    await postReadings(ctx, [{ mac: CHAMBER, ts: ts(6), temperature: -18 }]);
    await postReadings(ctx, [{ mac: CHAMBER, ts: ts(7), temperature: -11 }, { mac: CHAMBER, ts: ts(16), temperature: -13 }]);
    expect((await alarmsOf(CHAMBER)).filter((a) => a.type === 'temperature_high')).toHaveLength(0);
    await postReadings(ctx, [{ mac: CHAMBER, ts: ts(17), temperature: -9 }]);
    const high = (await alarmsOf(CHAMBER)).filter((a) => a.type === 'temperature_high');
    expect(high).toMatchObject([{ active: true, temperature_min: -13, temperature_max: -9 }]);
    expect(high[0]!.started_at.toISOString()).toBe(ts(7));
    await ctx.request('PUT', `/api/devices/${device.id}`, aurora, { config: { out_of_range_minutes: 0 } });
  });
});

describe('no data', () => {
  it('opens for a device silent longer than its no_data_minutes and closes with its next reading', async () => {
    const device = await deviceByMac(ctx, VACCINES); // no_data_minutes 60 in the demo
    ctx.clock.set(new Date(device.last_sync_at!.getTime() + 59 * 60_000));
    await ctx.services.alarms.checkNoData();
    expect(await alarmsOf(VACCINES)).toHaveLength(0);

    ctx.clock.set(new Date(device.last_sync_at!.getTime() + 61 * 60_000));
    expect(await ctx.services.alarms.checkNoData()).toBeGreaterThan(0);
    await ctx.services.alarms.checkNoData(); // never twice
    let alarms = await alarmsOf(VACCINES);
    expect(alarms).toMatchObject([{ type: 'no_data', active: true, message: 'Sem dados há mais de 60 minutos' }]);
    expect(alarms[0]!.started_at.getTime()).toBe(device.last_sync_at!.getTime() + 60 * 60_000);
    expect(await openedEventsOf(VACCINES)).toHaveLength(1);

    await postReadings(ctx, [{ mac: VACCINES, ts: at(ctx, 0), temperature: 5 }]);
    alarms = await alarmsOf(VACCINES);
    expect(alarms).toMatchObject([{ type: 'no_data', active: false }]);
    expect(alarms[0]!.ended_at!.toISOString()).toBe(at(ctx, 0));
  });
});

describe('GET /api/beacon-device/{mac}/notifications and acknowledgement', () => {
  it('lists the alarms in the documents shape, and records who acknowledged, when and why', async () => {
    const list = await ctx.request('GET', `/api/beacon-device/${TRUCK_2}/notifications`, joao);
    expect(list.statusCode).toBe(200);
    const alarms = list.json();
    expect(alarms).toHaveLength(3);
    const first = alarms[2]; // newest first
    expect(first).toMatchObject({
      type: 'temperature_high',
      type_formatted: 'Temperatura alta',
      message: 'Temperatura acima do limite máximo (8,00 °C)',
      temperature_formatted: '8,50 a 9,25 °C',
      humidity_formatted: '48,00 a 52,00 %',
      active: false,
      active_formatted: 'Não',
      acknowledge: null,
      acknowledge_formatted: 'Não',
    });
    expect(alarms[0]).toMatchObject({ type: 'temperature_low', active: true, active_formatted: 'Sim', humidity_formatted: '--' });

    const ack = await ctx.request('POST', `/api/alarms/${first._id}/acknowledge`, joao, { message: 'Porta do baú aberta na descarga.' });
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({
      _id: first._id,
      acknowledge: { message: 'Porta do baú aberta na descarga.', date: ctx.clock.now().toISOString(), user: { name: 'João Silva' } },
      acknowledge_formatted: 'Sim',
    });
    const again = await ctx.request('POST', `/api/alarms/${first._id}/acknowledge`, aurora, { message: 'De novo' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Este alarme já foi reconhecido.');
    const blank = await ctx.request('POST', `/api/alarms/${alarms[0]._id}/acknowledge`, joao, { message: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toMatch(/^Informe a mensagem de reconhecimento\./);
  });

  it("is closed to another enterprise: it can neither read nor acknowledge the alarms", async () => {
    const alarms = (await ctx.request('GET', `/api/beacon-device/${TRUCK_2}/notifications`, aurora)).json();
    const list = await ctx.request('GET', `/api/beacon-device/${TRUCK_2}/notifications`, vida);
    expect(list.statusCode).toBe(404);
    expect(list.json().error).toBe('Dispositivo não encontrado.');
    const ack = await ctx.request('POST', `/api/alarms/${alarms[0]._id}/acknowledge`, vida, { message: 'Intruso' });
    expect(ack.statusCode).toBe(404);
    expect(ack.json().error).toBe('Alarme não encontrado.');
    const row = await ctx.db.selectFrom('alarms').select('acknowledged_at').where('id', '=', alarms[0]._id).executeTakeFirstOrThrow();
    expect(row.acknowledged_at).toBeNull();
    // An ordinary user reaches only the devices linked to it.
    const maria = (await ctx.login('maria.souza')).token;
    expect((await ctx.request('GET', `/api/beacon-device/${VACCINES}/notifications`, maria)).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/beacon-device/${VACCINES}/notifications`, vida)).statusCode).toBe(200);
  });
});
