import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistorySeries } from '@sentinela/contract';
import { up as migrateRollups } from '../src/db/migrations/2026-11-26T1900-reading-rollups';
import { refreshRollups } from '../src/modules/readings/rollups';
import { chooseBucketSeconds } from '../src/modules/readings/series-buckets';
import { createTestContext, type TestContext } from './context';
import { deviceByMac, postReadings } from './ingest-helpers';

/** Hourly roll-ups of readings and the chart series built on them (issue 15 item 3, ADR 0041). */

let ctx: TestContext;
const tokens: Record<string, string> = {};
const CHAMBER = 'C3:00:00:00:01:03'; // Aurora: a week of demo readings every 5 minutes
const FREEZER = 'C3:00:00:00:01:04'; // Aurora: readings posted here, weeks before the demo's
const HOUR = 3_600_000;
const MIN = 60_000;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['aurora.adm', 'vida.adm']) tokens[username] = (await ctx.login(username)).token;
}, 180_000);
afterAll(() => ctx?.close());

const iso = (ms: number) => new Date(ms).toISOString();

/** The start of the hour `hours` before the test clock's. */
function hoursAgo(hours: number): number {
  const t = ctx.clock.now().getTime() - hours * HOUR;
  return t - (t % HOUR);
}

/**
 * Roll-up rows that differ from what an aggregate straight over readings gives (missing, extra or other values);
 * sums compared to a millionth, since adding batch by batch rounds in another order than one aggregate.
 */
async function rollupMismatches(): Promise<unknown[]> {
  const { rows } = await sql`
    WITH direct AS (
      SELECT device_num, date_bin('1 hour', ts, timestamptz 'epoch') AS bucket, count(*)::int AS n,
        count(temperature)::int AS t_n, min(temperature) AS t_min, max(temperature) AS t_max, coalesce(sum(temperature::float8), 0) AS t_sum,
        count(humidity)::int AS h_n, min(humidity) AS h_min, max(humidity) AS h_max, coalesce(sum(humidity::float8), 0) AS h_sum,
        count(battery)::int AS b_n, min(battery) AS b_min, max(battery) AS b_max, coalesce(sum(battery::float8), 0) AS b_sum
      FROM readings GROUP BY 1, 2
    )
    SELECT d.device_num AS direct_device, r.device_num AS rollup_device, coalesce(d.bucket, r.bucket) AS bucket
    FROM direct d FULL JOIN reading_rollups r ON r.device_num = d.device_num AND r.bucket = d.bucket
    WHERE d.device_num IS NULL OR r.device_num IS NULL
      OR (d.n, d.t_n, d.h_n, d.b_n) IS DISTINCT FROM (r.n, r.t_n, r.h_n, r.b_n)
      OR (d.t_min, d.t_max, d.h_min, d.h_max, d.b_min, d.b_max) IS DISTINCT FROM (r.t_min, r.t_max, r.h_min, r.h_max, r.b_min, r.b_max)
      OR abs(d.t_sum - r.t_sum) > 1e-6 OR abs(d.h_sum - r.h_sum) > 1e-6 OR abs(d.b_sum - r.b_sum) > 1e-6
    LIMIT 5`.execute(ctx.db);
  return rows;
}

async function rollupCount(): Promise<number> {
  return Number((await ctx.db.selectFrom('reading_rollups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

async function post(readings: unknown[]) {
  const res = await postReadings(ctx, readings);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { accepted: number; duplicates: number };
}

async function series(mac: string, from: number, to: number, extra = '', token = tokens['aurora.adm']) {
  return ctx.request('GET', `/api/beacon-device/history/mac/${mac}/series?dateInitUtc=${iso(from)}&dateEndUtc=${iso(to)}&isUtc=true${extra}`, token);
}

const r2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);

/** The series a chart should get, computed straight from readings (what the route answered before roll-ups). */
async function directSeries(mac: string, from: number, to: number, bucketSeconds: number, where = sql``) {
  const device = await deviceByMac(ctx, mac);
  const { rows } = await sql<{ t: number; n: number; tMin: number | null; tMax: number | null; tAvg: number | null; hMin: number | null; hMax: number | null; hAvg: number | null }>`
    SELECT (floor(extract(epoch from ts) / ${bucketSeconds}) * ${bucketSeconds})::float8 AS "t", count(*)::int AS "n",
      min(temperature)::float8 AS "tMin", max(temperature)::float8 AS "tMax", avg(temperature)::float8 AS "tAvg",
      min(humidity)::float8 AS "hMin", max(humidity)::float8 AS "hMax", avg(humidity)::float8 AS "hAvg"
    FROM readings WHERE device_num = ${device.num} AND ts >= ${iso(from)}::timestamptz AND ts <= ${iso(to)}::timestamptz ${where}
    GROUP BY 1 ORDER BY 1`.execute(ctx.db);
  return {
    count: rows.reduce((n, r) => n + Number(r.n), 0),
    t: rows.map((r) => Number(r.t)),
    temperature: { min: rows.map((r) => r2(r.tMin)), max: rows.map((r) => r2(r.tMax)), mean: rows.map((r) => r2(r.tAvg)) },
    humidity: { min: rows.map((r) => r2(r.hMin)), max: rows.map((r) => r2(r.hMax)), mean: rows.map((r) => r2(r.hAvg)) },
  };
}

describe('roll-up maintenance', () => {
  it('rolls up the demo readings the seed stored', async () => {
    expect(await rollupCount()).toBeGreaterThan(100);
    expect(await rollupMismatches()).toEqual([]);
  });

  it('adds a batch across an hour edge, and counts a re-delivered reading once', async () => {
    const base = hoursAgo(30 * 24); // an hour's start thirty days ago, before the demo's week
    const batch = [
      { mac: FREEZER, ts: iso(base - 2 * MIN), temperature: -18, humidity: 40, battery: 90 },
      { mac: FREEZER, ts: iso(base - MIN), temperature: -17.5, humidity: 41, battery: 90 },
      { mac: FREEZER, ts: iso(base), temperature: -16, humidity: 42, battery: 89 },
      { mac: FREEZER, ts: iso(base + MIN), temperature: -19.25, humidity: null, battery: 89 },
    ];
    expect((await post(batch)).accepted).toBe(4);
    // Sent again whole, and again with one new reading among the old ones.
    expect(await post(batch)).toMatchObject({ accepted: 0, duplicates: 4 });
    expect(await post([...batch.slice(2), { mac: FREEZER, ts: iso(base + 2 * MIN), temperature: -20, humidity: 43, battery: 88 }])).toMatchObject({ accepted: 1, duplicates: 2 });

    const device = await deviceByMac(ctx, FREEZER);
    const rows = await ctx.db
      .selectFrom('reading_rollups')
      .select(['bucket', 'n', 't_n', 't_min', 't_max', 't_sum', 'h_n', 'h_min', 'h_max', 'b_n', 'b_min', 'b_max'])
      .where('device_num', '=', device.num)
      .where('bucket', '>=', new Date(base - HOUR))
      .where('bucket', '<=', new Date(base))
      .orderBy('bucket')
      .execute();
    expect(rows.map((r) => ({ ...r, bucket: r.bucket.toISOString() }))).toEqual([
      { bucket: iso(base - HOUR), n: 2, t_n: 2, t_min: -18, t_max: -17.5, t_sum: -35.5, h_n: 2, h_min: 40, h_max: 41, b_n: 2, b_min: 90, b_max: 90 },
      { bucket: iso(base), n: 3, t_n: 3, t_min: -20, t_max: -16, t_sum: -55.25, h_n: 2, h_min: 42, h_max: 43, b_n: 3, b_min: 88, b_max: 89 },
    ]);
    expect(await rollupMismatches()).toEqual([]);
  });

  it('rolls up a batch of many devices and hours in one go, new readings added to existing hours', async () => {
    const base = hoursAgo(20 * 24);
    const readings = [];
    for (let i = 0; i < 180; i++) {
      readings.push({ mac: FREEZER, ts: iso(base + i * MIN + 7_000), temperature: -18 + (i % 7) / 4, humidity: 40 + (i % 5) });
      readings.push({ mac: CHAMBER, ts: iso(base + i * MIN + 13_000), temperature: 4 + (i % 3) / 10, battery: 70 - i / 100 });
    }
    // A third first, then the rest (all new, added to the hours already rolled up), then everything again.
    expect((await post(readings.filter((_, i) => i % 3 === 0))).accepted).toBe(120);
    expect(await rollupMismatches()).toEqual([]);
    expect((await post(readings.filter((_, i) => i % 3 !== 0))).accepted).toBe(240);
    expect(await rollupMismatches()).toEqual([]);
    expect(await post(readings)).toMatchObject({ accepted: 0, duplicates: 360 });
    expect(await rollupMismatches()).toEqual([]);
  });

  it('stays exact when overlapping batches of the same device and hours arrive at once', async () => {
    const base = hoursAgo(25 * 24) + 40 * MIN;
    const reading = (i: number) => ({ mac: FREEZER, ts: iso(base + i * MIN), temperature: -18 - (i % 4) / 2, humidity: 50 + (i % 3) });
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => reading(from + k));
    const results = await Promise.all([post(range(0, 40)), post(range(20, 60)), post(range(10, 50))]);
    expect(results.reduce((n, r) => n + r.accepted, 0)).toBe(60);
    expect(await rollupMismatches()).toEqual([]);
  });

  it('the migration rolls up the readings stored before it', async () => {
    const before = await rollupCount();
    await sql`DROP TABLE reading_rollups`.execute(ctx.db);
    await migrateRollups(ctx.db as unknown as Kysely<unknown>);
    expect(await rollupCount()).toBe(before);
    expect(await rollupMismatches()).toEqual([]);
  });

  it('rolls up hours again after readings are removed, dropping hours left empty', async () => {
    const device = await deviceByMac(ctx, FREEZER);
    const base = hoursAgo(20 * 24);
    await ctx.db.deleteFrom('readings').where('device_num', '=', device.num).where('ts', '>=', new Date(base + 30 * MIN)).where('ts', '<', new Date(base + 2 * HOUR)).execute();
    expect(await rollupMismatches()).not.toEqual([]);
    await refreshRollups(ctx.db, { deviceNums: [device.num], from: new Date(base + 30 * MIN), to: new Date(base + 2 * HOUR) });
    expect(await rollupMismatches()).toEqual([]);
    const hour2 = await ctx.db.selectFrom('reading_rollups').select('n').where('device_num', '=', device.num).where('bucket', '=', new Date(base + HOUR)).executeTakeFirst();
    expect(hour2).toBeUndefined();
  });
});

describe('chart series over roll-ups', () => {
  it('chooses bucket sizes from the ladder, never more than the points asked (+1)', () => {
    expect(chooseBucketSeconds(365 * 86_400, 1000)).toBe(43_200);
    expect(chooseBucketSeconds(90 * 86_400, 1000)).toBe(10_800);
    expect(chooseBucketSeconds(2 * 86_400, 1000)).toBe(300);
    expect(chooseBucketSeconds(3 * 365 * 86_400, 100)).toBe(11 * 86_400);
    for (const [range, points] of [[365 * 86_400, 1000], [7 * 86_400, 100], [3600, 10], [230 * 365 * 86_400, 5000]] as const) {
      expect(Math.ceil(range / chooseBucketSeconds(range, points)) + 1).toBeLessThanOrEqual(points + 1);
    }
  });

  it('answers exactly what an aggregate over readings gives, for a window that starts and ends inside hours', async () => {
    // Five days of the demo's readings: 2-hour buckets, the first and last hours partial.
    const from = hoursAgo(5 * 24) + 17 * MIN + 30_000;
    const to = hoursAgo(12) + 41 * MIN;
    const res = await series(CHAMBER, from, to, '&points=60');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as HistorySeries;
    expect(body.bucketSeconds).toBe(7200);
    const direct = await directSeries(CHAMBER, from, to, 7200);
    expect(body.count).toBeGreaterThan(1000);
    expect({ count: body.count, t: body.t, temperature: body.temperature, humidity: body.humidity }).toEqual(direct);
    const all = direct.temperature.max.filter((v): v is number => v !== null);
    expect(body.stats.temperature.max).toBe(Math.max(...all));
  });

  it('reads the whole hours from the roll-ups and the partial hours at the edges from readings', async () => {
    const device = await deviceByMac(ctx, CHAMBER);
    const from = hoursAgo(48) + 20 * MIN;
    const to = hoursAgo(24) + 50 * MIN;
    const whole = new Date(hoursAgo(36)); // a whole hour in the middle
    const edge = new Date(hoursAgo(48)); // the hour `from` falls in: only partly in the window
    const mark = async (bucket: Date, tMax: number) => ctx.db.updateTable('reading_rollups').set({ t_max: tMax }).where('device_num', '=', device.num).where('bucket', '=', bucket).execute();
    try {
      await mark(whole, 99);
      await mark(edge, 98);
      const body = (await series(CHAMBER, from, to, '&points=13')).json() as HistorySeries;
      expect(body.bucketSeconds).toBe(7200);
      expect(body.temperature.max).toContain(99);
      expect(body.temperature.max).not.toContain(98);
    } finally {
      await refreshRollups(ctx.db, { deviceNums: [device.num], from: edge, to: new Date(whole.getTime() + HOUR) });
    }
    expect(await rollupMismatches()).toEqual([]);
  });

  it('keeps gaps: hours without readings have no bucket', async () => {
    const base = hoursAgo(20 * 24); // the freezer's three hours of the tests above, the second one emptied
    const body = (await series(FREEZER, base - 6 * HOUR, base + 6 * HOUR, '&points=12')).json() as HistorySeries;
    expect(body.bucketSeconds).toBe(3600);
    expect(body.t).toEqual([base / 1000, (base + 2 * HOUR) / 1000]);
    expect(body).toMatchObject(await directSeries(FREEZER, base - 6 * HOUR, base + 6 * HOUR, 3600));
  });

  it('with value filters, reads the readings that pass them', async () => {
    const from = hoursAgo(3 * 24);
    const to = hoursAgo(0);
    const body = (await series(CHAMBER, from, to, '&points=36&minTemp=-19')).json() as HistorySeries;
    expect(body.bucketSeconds).toBe(7200);
    const direct = await directSeries(CHAMBER, from, to, 7200, sql`AND temperature >= -19`);
    expect(direct.count).toBeGreaterThan(0);
    expect({ count: body.count, t: body.t, temperature: body.temperature, humidity: body.humidity }).toEqual(direct);
  });

  it("keeps the caller's enterprise: another enterprise's device is not found, whatever the range", async () => {
    const from = hoursAgo(365 * 24);
    const res = await series(CHAMBER, from, hoursAgo(0), '&points=1000', tokens['vida.adm']);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Dispositivo não encontrado.');
    const own = await series(CHAMBER, from, hoursAgo(0), '&points=1000');
    expect(own.statusCode).toBe(200);
    expect((own.json() as HistorySeries).bucketSeconds).toBe(43_200);
  });
});
