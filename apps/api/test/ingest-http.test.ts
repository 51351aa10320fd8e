import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MSG } from '@sentinela/contract';
import type { ReadingsStoredEvent } from '../src/realtime/event-bus';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings, readingsOf, rejectionCounts } from './ingest-helpers';

/** HTTP ingestion (D5): validation with reasons, idempotence, last state, travels, one transaction per batch. */
let ctx: TestContext;
const TRUCK = 'C3:00:00:00:01:01'; // Aurora, in travel AUR7K2M9QX (in progress), linked to the demo gateway
const FREEZER = 'C3:00:00:00:01:04'; // Aurora
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma
const UNKNOWN = 'C3:00:00:00:09:98';

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());
// Each test starts a minute after the previous one, past every reading stored so far.
beforeEach(() => ctx.clock.advance(60_000));

describe('POST /api/ingest/readings', () => {
  it('stores a batch and updates the last state from the newest reading of each device', async () => {
    const events: ReadingsStoredEvent[] = [];
    const off = ctx.services.events.on('readings.stored', (e) => events.push(e));
    const from = at(ctx, -30);
    const res = await postReadings(ctx, [
      { mac: FREEZER, ts: at(ctx, -20), temperature: -18.25, humidity: 55.5, battery: 77 },
      { mac: FREEZER, ts: at(ctx, -10), temperature: -18.5 }, // newest, without humidity nor battery
      { mac: TRUCK.toLowerCase(), ts: at(ctx, -15), temperature: 4.5, humidity: 60, battery: 90, lat: -23.1, lng: -46.2 },
    ]);
    off();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });

    const freezer = await deviceByMac(ctx, FREEZER);
    expect(freezer.last_sync_at!.toISOString()).toBe(at(ctx, -10));
    expect(freezer).toMatchObject({ last_temperature: -18.5, last_humidity: 55.5, last_battery: 77 });
    expect((await readingsOf(ctx, FREEZER, from)).map((r) => r.temperature)).toEqual([-18.25, -18.5]);

    // The device list shows it.
    const admin = await ctx.login('aurora.adm');
    const listed = (await ctx.request('GET', '/api/beacon-device/all', admin.token)).json().find((d: { mac: string }) => d.mac === FREEZER);
    expect(listed).toMatchObject({ lastSyncDate: at(ctx, -10), temperature: -18.5, humidity: 55.5, battery: 77 });

    // The truck travels: its reading belongs to the travel, which moves on the map.
    const travel = await ctx.db.selectFrom('travels').select(['id', 'last_lat', 'last_lng']).where('code', '=', 'AUR7K2M9QX').executeTakeFirstOrThrow();
    expect(await readingsOf(ctx, TRUCK, from)).toEqual([expect.objectContaining({ temperature: 4.5, lat: -23.1, lng: -46.2, travel_id: travel.id })]);
    expect(travel).toMatchObject({ last_lat: -23.1, last_lng: -46.2 });

    // The live event carries the devices, their travel and latest values.
    expect(events).toHaveLength(1);
    expect(events[0]!.travelIds).toEqual([travel.id]);
    expect(events[0]!.devices.find((d) => d.mac === FREEZER)).toMatchObject({ deviceId: freezer.id, temperature: -18.5, humidity: 55.5, battery: 77, stored: 2, travelId: null });
  });

  it('never moves the last state back in time', async () => {
    await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, 0), temperature: -19 }]);
    const res = await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, -40), temperature: -10 }]);
    expect(res.json()).toMatchObject({ accepted: 1, duplicates: 0 });
    const freezer = await deviceByMac(ctx, FREEZER);
    expect(freezer.last_sync_at!.toISOString()).toBe(at(ctx, 0));
    expect(freezer.last_temperature).toBe(-19);
  });

  it('stores a reading once, however often it is sent', async () => {
    const batch = [
      { mac: FREEZER, ts: at(ctx, -5), temperature: -17 },
      { mac: FREEZER, ts: at(ctx, -4), temperature: -17.5 },
    ];
    expect((await postReadings(ctx, batch)).json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect((await postReadings(ctx, batch)).json()).toEqual({ accepted: 0, duplicates: 2, rejected: [] });
    // Repeated within one batch, and the same instant written differently.
    const again = await postReadings(ctx, [
      { mac: FREEZER, ts: at(ctx, -3), temperature: -16 },
      { mac: FREEZER, ts: at(ctx, -3).replace('Z', '+00:00'), temperature: -16 },
    ]);
    expect(again.json()).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
    expect(await readingsOf(ctx, FREEZER, at(ctx, -5))).toHaveLength(3);
  });

  it('rejects bad readings with a reason, counts them, and stores the rest', async () => {
    const res = await postReadings(ctx, [
      { mac: FREEZER, ts: at(ctx, -1), temperature: -18 },
      { mac: 'C3:00:00:00:09:99', ts: at(ctx, -1), temperature: 5 },
      { mac: FREEZER, ts: at(ctx, 6 * 60), temperature: -18 },
      { mac: FREEZER, ts: at(ctx, -2), temperature: 200 },
      { mac: FREEZER, ts: at(ctx, -3), humidity: -1 },
      { mac: 'not-a-mac', ts: at(ctx, -1) },
      { mac: FREEZER, temperature: 1 },
      { mac: FREEZER, ts: '22/11/2026 09:00', temperature: 1 },
      { mac: FREEZER, ts: at(ctx, -4), temperature: '5' },
      { mac: FREEZER, ts: at(ctx, -5), lat: -23 },
      'lixo',
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accepted).toBe(1);
    expect(body.rejected).toEqual([
      { index: 2, mac: FREEZER, code: 'future_ts', reason: 'Data/hora mais de 5 minutos no futuro.' },
      { index: 3, mac: FREEZER, code: 'out_of_range', reason: 'Temperatura fora da faixa física (-80 a 150 °C).' },
      { index: 4, mac: FREEZER, code: 'out_of_range', reason: 'Umidade fora da faixa física (0 a 100 %).' },
      { index: 5, mac: 'not-a-mac', code: 'invalid_mac', reason: 'Endereço MAC ausente ou inválido.' },
      { index: 6, mac: FREEZER, code: 'invalid_ts', reason: 'Data/hora da leitura ausente.' },
      { index: 7, mac: FREEZER, code: 'invalid_ts', reason: expect.stringMatching(/^Data\/hora inválida/) },
      { index: 8, mac: FREEZER, code: 'invalid_value', reason: 'Temperatura inválida: esperado um número.' },
      { index: 9, mac: FREEZER, code: 'invalid_value', reason: 'Posição incompleta: envie lat e lng juntas.' },
      { index: 10, mac: null, code: 'invalid_reading', reason: 'Leitura inválida: esperado um objeto JSON.' },
      { index: 1, mac: 'C3:00:00:00:09:99', code: 'unknown_device', reason: 'Dispositivo não cadastrado.' },
    ]);
    const counts = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count', 'last_mac']).execute();
    const byReason = Object.fromEntries(counts.map((c) => [c.reason, Number(c.count)]));
    expect(byReason).toEqual({ future_ts: 1, out_of_range: 2, invalid_mac: 1, invalid_ts: 2, invalid_value: 2, invalid_reading: 1, unknown_device: 1 });
  });

  it("answers another enterprise's device exactly like an unknown one, and stores its own", async () => {
    const admin = await ctx.login('aurora.adm');
    const created = await ctx.request('POST', '/api/gateways', admin.token, { name: 'Gateway Doca 3' });
    expect(created.statusCode).toBe(201);
    const key = created.json().key as string;
    const foreign = await postReadings(ctx, [
      { mac: VACCINES, ts: at(ctx, -1), temperature: 5 },
      { mac: FREEZER, ts: at(ctx, -1), temperature: -18 },
    ], key);
    const unknown = await postReadings(ctx, [
      { mac: UNKNOWN, ts: at(ctx, -1), temperature: 5 },
      { mac: FREEZER, ts: at(ctx, -2), temperature: -18 },
    ], key);
    expect(foreign.statusCode).toBe(unknown.statusCode);
    expect(foreign.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [{ index: 0, mac: VACCINES, code: 'unknown_device', reason: 'Dispositivo não cadastrado.' }] });
    // Byte for byte the same answer, but for the MAC it echoes.
    expect(unknown.body).toBe(foreign.body.replace(VACCINES, UNKNOWN));
    expect(await readingsOf(ctx, VACCINES, at(ctx, -1))).toHaveLength(0);
    // Counted under the same reason: the gateway's counters tell nothing either.
    const counts = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count']).where('gateway_id', '=', created.json()._id).execute();
    expect(counts.map((c) => [c.reason, Number(c.count)])).toEqual([['unknown_device', 2]]);
  });

  it('a gateway with neither links nor enterprise may write nothing, and learns nothing', async () => {
    const { token } = await ctx.login('admin');
    const key = (await ctx.request('POST', '/api/gateways', token, { name: 'Sem vínculo' })).json().key as string;
    const res = await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, -1), temperature: -18 }], key);
    expect(res.json()).toEqual({ accepted: 0, duplicates: 0, rejected: [{ index: 0, mac: FREEZER, code: 'unknown_device', reason: 'Dispositivo não cadastrado.' }] });
  });

  it('stores the valid readings of a batch mixed with values no column can hold', async () => {
    const before = await rejectionCounts(ctx);
    const res = await postReadings(ctx, [
      { mac: FREEZER, ts: at(ctx, -9), temperature: 1e-50 },
      { mac: FREEZER, ts: at(ctx, -8), humidity: 1e-45 },
      { mac: FREEZER, ts: at(ctx, -7), battery: 1e300 },
      { mac: FREEZER, ts: at(ctx, -6), lat: 1e-300, lng: -46 },
      { mac: 'AA\u0000BB', ts: at(ctx, -5), temperature: 1 },
      { mac: 'x'.repeat(10_000), ts: at(ctx, -5), temperature: 1 },
      { mac: '\uD800', ts: at(ctx, -5), temperature: 1 },
      { mac: FREEZER, ts: `${at(ctx, -4)}\u0000`, temperature: 1 },
      { mac: FREEZER, ts: at(ctx, -3), temperature: -18.5, humidity: 0, lat: 0, lng: 0 },
      { mac: FREEZER, ts: at(ctx, -2), temperature: -19 },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accepted).toBe(2);
    expect(body.rejected.map((r: { index: number; code: string; mac: string | null }) => [r.index, r.code, r.mac])).toEqual([
      [0, 'invalid_value', FREEZER],
      [1, 'invalid_value', FREEZER],
      [2, 'out_of_range', FREEZER],
      [3, 'invalid_value', FREEZER],
      // Not echoed (nor kept in the counters): text the database cannot hold, or too long to be a MAC.
      [4, 'invalid_mac', null],
      [5, 'invalid_mac', null],
      [6, 'invalid_mac', null],
      [7, 'invalid_ts', FREEZER],
    ]);
    expect((await readingsOf(ctx, FREEZER, at(ctx, -9))).map((r) => r.temperature)).toEqual([-18.5, -19]);
    const after = await rejectionCounts(ctx);
    const added = Object.fromEntries(Object.entries(after).map(([reason, n]) => [reason, n - (before[reason] ?? 0)]).filter(([, n]) => n !== 0));
    expect(added).toEqual({ invalid_value: 3, out_of_range: 1, invalid_mac: 3, invalid_ts: 1 });
  });

  it('stores a batch the database refuses part by part: only the refused readings are rejected', async () => {
    // A value validation lets through but the database refuses: what a gap in validation would look like.
    await sql`ALTER TABLE readings ADD CONSTRAINT test_refuses_42_5 CHECK (temperature IS DISTINCT FROM 42.5)`.execute(ctx.db);
    try {
      const readings = Array.from({ length: 11 }, (_, i) => ({ mac: i % 2 ? TRUCK : FREEZER, ts: at(ctx, -20 + i), temperature: i === 3 || i === 8 ? 42.5 : -10 - i }));
      const res = await postReadings(ctx, readings);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.accepted).toBe(9);
      expect(body.duplicates).toBe(0);
      expect(body.rejected).toEqual([
        { index: 8, mac: FREEZER, code: 'not_stored', reason: 'Leitura recusada pelo banco de dados; as demais leituras do lote foram armazenadas.' },
        { index: 3, mac: TRUCK, code: 'not_stored', reason: 'Leitura recusada pelo banco de dados; as demais leituras do lote foram armazenadas.' },
      ].sort((a, b) => (a.mac === b.mac ? 0 : a.mac < b.mac ? -1 : 1)).map((r) => expect.objectContaining(r)));
      expect((await readingsOf(ctx, FREEZER, at(ctx, -20))).map((r) => r.temperature)).toEqual([-10, -12, -14, -16, -20]);
      expect((await readingsOf(ctx, TRUCK, at(ctx, -20))).map((r) => r.temperature)).toEqual([-11, -15, -17, -19]);
      expect(await deviceByMac(ctx, FREEZER)).toMatchObject({ last_temperature: -20 });
      expect(await deviceByMac(ctx, TRUCK)).toMatchObject({ last_temperature: -19 });
      const counts = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count']).where('reason', '=', 'not_stored').execute();
      expect(counts.map((c) => Number(c.count))).toEqual([2]);
    } finally {
      await sql`ALTER TABLE readings DROP CONSTRAINT test_refuses_42_5`.execute(ctx.db);
    }
  });

  it('refuses a missing, unknown or revoked key with 401', async () => {
    const reading = [{ mac: FREEZER, ts: at(ctx, -1), temperature: -18 }];
    const missing = await postReadings(ctx, reading, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('Chave de gateway ausente: envie o cabeçalho Authorization: ApiKey <chave>.');
    const unknown = await postReadings(ctx, reading, 'sgw_nao-existe');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('Chave de gateway inválida ou revogada.');
    const bearer = await ctx.app.inject({ method: 'POST', url: '/api/ingest/readings', headers: { authorization: 'Bearer demo-gateway-key' }, payload: { readings: reading } });
    expect(bearer.statusCode).toBe(401);

    const admin = await ctx.login('aurora.adm');
    const created = (await ctx.request('POST', '/api/gateways', admin.token, { name: 'Temporário' })).json();
    expect((await postReadings(ctx, reading, created.key)).statusCode).toBe(200);
    expect((await ctx.request('DELETE', `/api/gateways/${created._id}`, admin.token)).statusCode).toBe(200);
    const revoked = await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, -2), temperature: -18 }], created.key);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toBe('Chave de gateway inválida ou revogada.');
    expect(await readingsOf(ctx, FREEZER, at(ctx, -2))).toHaveLength(1);
  });

  it('refuses a batch above 5,000 readings whole, storing nothing', async () => {
    const readings = Array.from({ length: 5001 }, (_, i) => ({ mac: FREEZER, ts: new Date(ctx.clock.now().getTime() - (i + 1) * 1000).toISOString(), temperature: -18 }));
    const before = (await readingsOf(ctx, FREEZER, readings[5000]!.ts)).length;
    const res = await postReadings(ctx, readings);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: 'O lote excede o máximo de 5.000 leituras por requisição.' });
    expect(await readingsOf(ctx, FREEZER, readings[5000]!.ts)).toHaveLength(before);
    // 5,000 is fine (the demo's own readings every 5 minutes fall among them as duplicates).
    const ok = (await postReadings(ctx, readings.slice(0, 5000))).json();
    expect(ok.rejected).toEqual([]);
    expect(ok.accepted + ok.duplicates).toBe(5000);
    expect(await readingsOf(ctx, FREEZER, readings[4999]!.ts)).toHaveLength(before + ok.accepted);
  });

  it('answers malformed bodies with 400', async () => {
    const headers = { authorization: 'ApiKey demo-gateway-key', 'content-type': 'application/json' };
    const broken = await ctx.app.inject({ method: 'POST', url: '/api/ingest/readings', headers, payload: '{"readings": [' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe(MSG.invalidJson);
    for (const payload of ['{"leituras": []}', '[]', '{"readings": {}}']) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/ingest/readings', headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('O corpo deve ser um objeto JSON com "readings": uma lista de leituras.');
    }
  });

  it.runIf(inject('postgres'))('carries on when PostgreSQL drops the pool\'s idle connections', async () => {
    // Several connections open and idle in the pool, then ended by the server as a restart or failover would.
    await Promise.all([1, 2, 3].map(() => sql`SELECT pg_sleep(0.05)`.execute(ctx.db)));
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(ctx.db);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const res = await postReadings(ctx, [{ mac: FREEZER, ts: at(ctx, -1), temperature: -18 }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 1 });
  });
});
