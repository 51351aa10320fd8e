import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReadingColumns, travelRouteStats } from '../src/modules/reports/data-repository';
import { unpackReadings } from '../src/modules/reports/render/render-task';
import { createTestContext, type TestContext } from './context';
import { CODES, MACS, travelId } from './travel-helpers';

/** What the report job reads from the database, checked against plain queries on the demo data. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());

async function deviceNum(mac: string): Promise<number> {
  return (await ctx.db.selectFrom('devices').select('num').where('mac', '=', mac).executeTakeFirstOrThrow()).num;
}

describe('readReadingColumns', () => {
  it('reads every reading of the period once, oldest first, slice after slice', async () => {
    const num = await deviceNum(MACS.chamber);
    const window = { from: new Date(ctx.clock.now().getTime() - 7 * 86_400_000), to: ctx.clock.now() };
    const expected = await ctx.db.selectFrom('readings').select(['ts', 'temperature']).where('device_num', '=', num).where('ts', '>=', window.from).where('ts', '<=', window.to).orderBy('ts').execute();
    expect(expected.length).toBeGreaterThan(1500);
    // Slices of 500: the cursor moves four times or more.
    const columns = await readReadingColumns(ctx.db, { deviceNum: num, window, filter: {}, travelId: null }, 100_000, 500);
    const readings = unpackReadings(columns!.pack());
    expect(readings.map((r) => r.ts.getTime())).toEqual(expected.map((r) => r.ts.getTime()));
    expect(readings.map((r) => r.temperature)).toEqual(expected.map((r) => r.temperature));
  });

  it('applies the value filters and stops (null) past the maximum', async () => {
    const num = await deviceNum(MACS.chamber);
    const window = { from: new Date(ctx.clock.now().getTime() - 86_400_000), to: ctx.clock.now() };
    const all = await readReadingColumns(ctx.db, { deviceNum: num, window, filter: {}, travelId: null }, 100_000);
    const cold = await readReadingColumns(ctx.db, { deviceNum: num, window, filter: { maxTemp: -19 }, travelId: null }, 100_000);
    expect(cold!.count).toBeGreaterThan(0);
    expect(cold!.count).toBeLessThan(all!.count);
    expect(unpackReadings(cold!.pack()).every((r) => r.temperature! <= -19)).toBe(true);
    expect(await readReadingColumns(ctx.db, { deviceNum: num, window, filter: {}, travelId: null }, all!.count - 1, 100)).toBeNull();
  });
});

describe('travelRouteStats', () => {
  it('counts the positions of a travel and the distance between them', async () => {
    const id = await travelId(ctx, CODES.auroraFinished);
    const travel = await ctx.db.selectFrom('travels').select(['started_at', 'finished_at']).where('id', '=', id).executeTakeFirstOrThrow();
    const stats = await travelRouteStats(ctx.db, id, { from: travel.started_at!, to: travel.finished_at! });
    const positions = await ctx.db.selectFrom('readings').select((eb) => eb.fn.countAll<number>().as('n')).where('travel_id', '=', id).where('lat', 'is not', null).executeTakeFirstOrThrow();
    expect(stats.positions).toBe(Number(positions.n));
    // São Paulo → Belo Horizonte is about 490 km as the crow flies; the demo's path runs along it.
    expect(stats.distanceKm).toBeGreaterThan(400);
    expect(stats.distanceKm).toBeLessThan(700);
  });
});
