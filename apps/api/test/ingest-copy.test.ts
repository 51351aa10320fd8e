import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { copyIn, supportsCopyIn } from '../src/db/copy-in';
import { copyReadingColumns, READINGS_COPY } from '../src/modules/readings/copy-readings';
import { ensureReadingPartitions } from '../src/modules/readings/partitions';
import type { ReadingsStoredEvent } from '../src/realtime/event-bus';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings, readingsOf, rejectionCounts } from './ingest-helpers';

/**
 * The batch write of ADR 42: binary COPY on PostgreSQL, the insert on PGlite, and the conflict-skipping insert when a
 * batch repeats stored readings. The same expectations hold on both databases.
 */
let ctx: TestContext;
const FREEZER = 'C3:00:00:00:01:04'; // Aurora
const FRIDGE = 'C3:00:00:00:01:02'; // Aurora
const UNKNOWN = 'C3:00:00:00:09:97';
const onPostgres = Boolean(inject('postgres'));

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60_000));

describe('the batch write (ADR 42)', () => {
  it('copies on PostgreSQL and inserts on PGlite', () => {
    expect(supportsCopyIn(ctx.db)).toBe(onPostgres);
  });

  it('stores every value as sent: fractions, positions, milliseconds, counters, a travel', async () => {
    const travel = await ctx.db.selectFrom('travels').select('id').where('code', '=', 'AUR7K2M9QX').executeTakeFirstOrThrow();
    const truck = 'C3:00:00:00:01:01'; // in that travel
    const ts = new Date(ctx.clock.now().getTime() - 12_345).toISOString(); // …:ss.655Z
    const res = await postReadings(ctx, [
      { mac: truck, ts, temperature: -18.25, humidity: 55.5, battery: 3, lat: -23.550520, lng: -46.633308, seq: 65535 },
      { mac: FREEZER, ts, temperature: null },
    ]);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    const stored = await ctx.db
      .selectFrom('readings')
      .select(['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng', 'travel_id', 'seq', 'seq_modulo'])
      .where('device_num', '=', (await deviceByMac(ctx, truck)).num)
      .where('ts', '=', new Date(ts))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      ts: new Date(ts), temperature: -18.25, humidity: 55.5, battery: 3, lat: -23.55052, lng: -46.633308, travel_id: travel.id, seq: 65535, seq_modulo: 65536,
    });
    expect(await readingsOf(ctx, FREEZER, ts)).toEqual([expect.objectContaining({ temperature: null, humidity: null, lat: null, travel_id: null })]);
  });

  it('stores one batch across two monthly partitions', async () => {
    const old = new Date(ctx.clock.now().getTime() - 40 * 86_400_000).toISOString();
    const res = await postReadings(ctx, [
      { mac: FRIDGE, ts: old, temperature: 3 },
      { mac: FRIDGE, ts: at(ctx, -1), temperature: 4 },
    ]);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect((await readingsOf(ctx, FRIDGE, old)).map((r) => r.temperature)).toContain(3);
  });

  it('counts a repeat inside one batch as a duplicate and keeps the first', async () => {
    const ts = at(ctx, -5);
    const res = await postReadings(ctx, [
      { mac: FREEZER, ts, temperature: -20 },
      { mac: FREEZER.toLowerCase(), ts, temperature: -21 }, // the same device and time, written another way
      { mac: FREEZER, ts: at(ctx, -4), temperature: -22 },
    ]);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 1, rejected: [] });
    expect((await readingsOf(ctx, FREEZER, ts)).map((r) => r.temperature)).toEqual([-20, -22]);
  });

  it('stores only the new readings of a batch that repeats stored ones (the conflict path), and moves the state once', async () => {
    const first = [at(ctx, -30), at(ctx, -20)].map((ts, i) => ({ mac: FREEZER, ts, temperature: -10 - i }));
    expect((await postReadings(ctx, first)).json()).toEqual({ accepted: 2, duplicates: 0, rejected: [] });

    const events: ReadingsStoredEvent[] = [];
    const off = ctx.services.events.on('readings.stored', (e) => events.push(e));
    // The stored readings again, with other values (a resend never overwrites), between new ones.
    const again = [
      { mac: FREEZER, ts: at(ctx, -40), temperature: -30 },
      { mac: FREEZER, ts: at(ctx, -30), temperature: 99 },
      { mac: FREEZER, ts: at(ctx, -20), temperature: 99 },
      { mac: FREEZER, ts: at(ctx, -10), temperature: -31 },
      { mac: FRIDGE, ts: at(ctx, -10), temperature: 5 },
    ];
    const res = await postReadings(ctx, again);
    off();
    expect(res.json()).toEqual({ accepted: 3, duplicates: 2, rejected: [] });
    expect((await readingsOf(ctx, FREEZER, at(ctx, -40))).map((r) => r.temperature)).toEqual([-30, -10, -11, -31]);
    expect(await deviceByMac(ctx, FREEZER)).toMatchObject({ last_temperature: -31 });
    expect(events).toHaveLength(1);
    expect(events[0]!.devices.map((d) => d.mac).sort()).toEqual([FRIDGE, FREEZER].sort());

    // Wholly stored already: nothing new, nothing moves.
    expect((await postReadings(ctx, again)).json()).toEqual({ accepted: 0, duplicates: 5, rejected: [] });
  });

  it('still counts each rejected reading beside a batch that repeats stored ones', async () => {
    const before = await rejectionCounts(ctx);
    const ts = at(ctx, -15);
    expect((await postReadings(ctx, [{ mac: FREEZER, ts, temperature: -18 }])).json()).toMatchObject({ accepted: 1 });
    const res = await postReadings(ctx, [
      { mac: FREEZER, ts, temperature: -18 }, // stored
      { mac: FREEZER, ts: at(ctx, -14), temperature: 400 }, // out of range
      { mac: UNKNOWN, ts: at(ctx, -14), temperature: 1 }, // no such device
      { mac: FREEZER, ts: 'ontem', temperature: 1 }, // no time
      { mac: FREEZER, ts: at(ctx, -13), temperature: -17 }, // new
    ]);
    expect(res.json()).toMatchObject({
      accepted: 1,
      duplicates: 1,
      rejected: [
        expect.objectContaining({ index: 1, code: 'out_of_range' }),
        expect.objectContaining({ index: 3, code: 'invalid_ts' }),
        expect.objectContaining({ index: 2, code: 'unknown_device' }),
      ],
    });
    const after = await rejectionCounts(ctx);
    expect((after.out_of_range ?? 0) - (before.out_of_range ?? 0)).toBe(1);
    expect((after.unknown_device ?? 0) - (before.unknown_device ?? 0)).toBe(1);
    expect((after.invalid_ts ?? 0) - (before.invalid_ts ?? 0)).toBe(1);
    expect(await ctx.db.selectFrom('discovered_devices').select('reading_count').where('mac', '=', UNKNOWN).executeTakeFirst()).toBeDefined();
  });

  it.runIf(onPostgres)('a COPY that meets a stored reading fails whole with a unique violation, inside its transaction', async () => {
    const num = (await deviceByMac(ctx, FRIDGE)).num;
    const ms = Date.parse(at(ctx, -3));
    const columns = (tsMs: number[]) => ({
      deviceNum: tsMs.map(() => num), tsMs, temperature: tsMs.map(() => 2), humidity: tsMs.map(() => null), battery: tsMs.map(() => null),
      lat: tsMs.map(() => null), lng: tsMs.map(() => null), travelId: tsMs.map(() => null), seq: tsMs.map(() => null), seqModulo: tsMs.map(() => null),
    });
    await ensureReadingPartitions(ctx.db, [new Date(ms)]);
    expect(await ctx.db.transaction().execute((trx) => copyReadingColumns(trx, columns([ms])))).toBe(1);
    const failed = ctx.db.transaction().execute((trx) => copyReadingColumns(trx, columns([ms - 1000, ms])));
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    // Rolled back: the new row of the failed COPY is not there, and the connection serves the next statement.
    expect((await readingsOf(ctx, FRIDGE, new Date(ms - 1000).toISOString())).map((r) => r.ts.getTime())).toEqual([ms]);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(ctx.db);
    expect(rows).toEqual([{ one: 1 }]);
    // Bad data is refused by the server, not half stored.
    await expect(ctx.db.transaction().execute((trx) => copyIn(trx, READINGS_COPY, Buffer.from('not binary')))).rejects.toMatchObject({ code: '22P04' });
  });
});
