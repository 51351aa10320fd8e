import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistorySeries } from '@sentinela/contract';
import { up as migrateRollups } from '../src/db/migrations/2026-11-26T2100-reading-rollups';
import { insertReadingColumns } from '../src/modules/readings/repository';
import { hoursOf, markRollupHours } from '../src/modules/readings/rollups';
import { chooseBucketSeconds } from '../src/modules/readings/series-buckets';
import { createTestContext, type TestContext } from './context';
import { declareReadingsRemoval } from '../src/modules/audit-trail/repository';
import { deviceByMac, postReadings } from './ingest-helpers';

/**
 * Hourly roll-ups of readings maintained off the ingestion hot path, and the chart series built on them (issue 15
 * item 3, ADR 0045). Every series is compared with the same series computed straight from readings, before and
 * after the job runs; the job runs when a test says so, under the test's clock.
 */

let ctx: TestContext;
const tokens: Record<string, string> = {};
const CHAMBER = 'C3:00:00:00:01:03'; // Aurora: a week of demo readings every 5 minutes
const FREEZER = 'C3:00:00:00:01:04'; // Aurora: readings posted here, weeks before the demo's
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma's
const HOUR = 3_600_000;
const MIN = 60_000;
const isPglite = process.env.TEST_DB === 'pglite';

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

/** Moves the test clock forward; sessions are opened again (they expire on a clock moved hours ahead). */
async function moveClock(ms: number) {
  ctx.clock.advance(ms);
  for (const username of Object.keys(tokens)) tokens[username] = (await ctx.login(username)).token;
}

async function state() {
  return ctx.db.selectFrom('reading_rollup_state').selectAll().executeTakeFirstOrThrow();
}

async function markCount(): Promise<number> {
  return Number((await ctx.db.selectFrom('reading_rollup_marks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

/**
 * Roll-up rows readers would trust (hours behind the trusted line, not marked) that differ from an aggregate straight
 * over readings: missing, extra or other values. Sums compared to a millionth. Must be empty at every moment.
 */
async function trustedMismatches(): Promise<unknown[]> {
  const { rows } = await sql`
    WITH line AS (SELECT trusted_before AS at FROM reading_rollup_state),
    direct AS (
      SELECT device_num, date_bin('1 hour', ts, timestamptz 'epoch') AS bucket, count(*)::int AS n,
        count(temperature)::int AS t_n, min(temperature) AS t_min, max(temperature) AS t_max, coalesce(sum(temperature::float8), 0) AS t_sum,
        count(humidity)::int AS h_n, min(humidity) AS h_min, max(humidity) AS h_max, coalesce(sum(humidity::float8), 0) AS h_sum,
        count(battery)::int AS b_n, min(battery) AS b_min, max(battery) AS b_max, coalesce(sum(battery::float8), 0) AS b_sum
      FROM readings WHERE ts < (SELECT at FROM line) GROUP BY 1, 2
    ),
    trusted AS (SELECT * FROM reading_rollups WHERE bucket < (SELECT at FROM line))
    SELECT d.device_num AS direct_device, r.device_num AS rollup_device, coalesce(d.bucket, r.bucket) AS bucket
    FROM direct d FULL JOIN trusted r ON r.device_num = d.device_num AND r.bucket = d.bucket
    WHERE (d.device_num IS NULL OR r.device_num IS NULL
      OR (d.n, d.t_n, d.h_n, d.b_n) IS DISTINCT FROM (r.n, r.t_n, r.h_n, r.b_n)
      OR (d.t_min, d.t_max, d.h_min, d.h_max, d.b_min, d.b_max) IS DISTINCT FROM (r.t_min, r.t_max, r.h_min, r.h_max, r.b_min, r.b_max)
      OR abs(d.t_sum - r.t_sum) > 1e-6 OR abs(d.h_sum - r.h_sum) > 1e-6 OR abs(d.b_sum - r.b_sum) > 1e-6)
      AND NOT EXISTS (SELECT 1 FROM reading_rollup_marks m WHERE m.device_num = coalesce(d.device_num, r.device_num) AND m.bucket = coalesce(d.bucket, r.bucket))
    LIMIT 5`.execute(ctx.db);
  return rows;
}

async function runJob() {
  const result = await ctx.services.rollups.run();
  expect(await trustedMismatches()).toEqual([]);
  return result;
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

/** The chart series the route answers equals the one computed from readings, for this window and bucket size. */
async function expectExactSeries(mac: string, from: number, to: number, points: number, bucketSeconds: number) {
  const res = await series(mac, from, to, `&points=${points}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as HistorySeries;
  expect(body.bucketSeconds).toBe(bucketSeconds);
  const direct = await directSeries(mac, from, to, bucketSeconds);
  expect({ count: body.count, t: body.t, temperature: body.temperature, humidity: body.humidity }).toEqual(direct);
  return body;
}

describe('roll-up maintenance', () => {
  it('the seed marks the hours it wrote; charts are exact before and after the job rolls them up', async () => {
    expect(await markCount()).toBeGreaterThan(100);
    const from = hoursAgo(6 * 24) + 17 * MIN;
    const to = ctx.clock.now().getTime() - 41 * MIN;
    await expectExactSeries(CHAMBER, from, to, 60, 10_800);
    const run = await runJob();
    expect(run.marks).toBeGreaterThan(100);
    expect(await markCount()).toBe(0);
    // The line stops where hours end ROLLUP_DELAY_MINUTES (180) before the clock.
    expect(run.trustedBefore.getTime()).toBe(hoursAgo(3));
    expect(run.publishedBefore.getTime()).toBe(hoursAgo(3));
    await expectExactSeries(CHAMBER, from, to, 60, 10_800);
  });

  it('current readings mark nothing; the job rolls their hours up once they are behind the line', async () => {
    const device = await deviceByMac(ctx, FREEZER);
    // The last half hour, seconds off the demo's 5-minute grid: none of these repeats a demo reading.
    const base = ctx.clock.now().getTime() - 30 * MIN + 7_000;
    const batch = Array.from({ length: 30 }, (_, i) => ({ mac: FREEZER, ts: iso(base + i * MIN), temperature: -18 + (i % 5) / 4, humidity: 40 + (i % 3), battery: 90 }));
    expect((await post(batch)).accepted).toBe(30);
    expect(await markCount()).toBe(0);
    await runJob();
    expect((await state()).trusted_before.getTime()).toBeLessThanOrEqual(base);
    await expectExactSeries(FREEZER, base - 7 * HOUR, base + HOUR, 10, 3600);

    await moveClock(5 * HOUR);
    await runJob();
    expect((await state()).trusted_before.getTime()).toBeGreaterThan(base + 30 * MIN);
    expect(await markCount()).toBe(0);
    const hour = new Date(base - (base % HOUR));
    const rolled = await ctx.db.selectFrom('reading_rollups').select(['n', 't_min']).where('device_num', '=', device.num).where('bucket', '=', hour).executeTakeFirstOrThrow();
    expect(rolled.n).toBeGreaterThan(0);
    await expectExactSeries(FREEZER, base - 7 * HOUR, base + HOUR, 10, 3600);
  });

  it('a late reading marks its hour: exact before the job (read from readings) and after it (recomputed)', async () => {
    const base = hoursAgo(30 * 24); // an hour's start thirty days ago, long behind the line
    const batch = [
      { mac: FREEZER, ts: iso(base - 2 * MIN), temperature: -18, humidity: 40, battery: 90 },
      { mac: FREEZER, ts: iso(base - MIN), temperature: -17.5, humidity: 41, battery: 90 },
      { mac: FREEZER, ts: iso(base), temperature: -16, humidity: 42, battery: 89 },
      { mac: FREEZER, ts: iso(base + MIN), temperature: -19.25, humidity: null, battery: 89 },
    ];
    expect((await post(batch)).accepted).toBe(4);
    expect(await markCount()).toBe(2);
    expect(await trustedMismatches()).toEqual([]);
    await expectExactSeries(FREEZER, base - 3 * HOUR - 7 * MIN, base + 5 * HOUR + 13 * MIN, 10, 3600);

    // Sent again whole, and again with one new reading among the old ones: each reading counts once.
    expect(await post(batch)).toMatchObject({ accepted: 0, duplicates: 4 });
    expect(await post([...batch.slice(2), { mac: FREEZER, ts: iso(base + 2 * MIN), temperature: -20, humidity: 43, battery: 88 }])).toMatchObject({ accepted: 1, duplicates: 2 });
    await expectExactSeries(FREEZER, base - 3 * HOUR - 7 * MIN, base + 5 * HOUR + 13 * MIN, 10, 3600);

    await runJob();
    expect(await markCount()).toBe(0);
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
    await expectExactSeries(FREEZER, base - 3 * HOUR - 7 * MIN, base + 5 * HOUR + 13 * MIN, 10, 3600);
  });

  it('a beacon that buffered hours: many late hours of two devices in one batch, then the same batch again', async () => {
    const base = hoursAgo(20 * 24);
    const readings = [];
    for (let i = 0; i < 180; i++) {
      readings.push({ mac: FREEZER, ts: iso(base + i * MIN + 7_000), temperature: -18 + (i % 7) / 4, humidity: 40 + (i % 5) });
      readings.push({ mac: CHAMBER, ts: iso(base + i * MIN + 13_000), temperature: 4 + (i % 3) / 10, battery: 70 - i / 100 });
    }
    expect((await post(readings.filter((_, i) => i % 3 === 0))).accepted).toBe(120);
    await expectExactSeries(FREEZER, base - 30 * MIN, base + 8 * HOUR, 10, 3600);
    await runJob();
    expect((await post(readings.filter((_, i) => i % 3 !== 0))).accepted).toBe(240);
    expect(await markCount()).toBe(6); // three hours of each device
    await expectExactSeries(FREEZER, base - 30 * MIN, base + 8 * HOUR, 10, 3600);
    await expectExactSeries(CHAMBER, base + 10 * MIN, base + 9 * HOUR + 1, 10, 3600);
    await runJob();
    expect(await post(readings)).toMatchObject({ accepted: 0, duplicates: 360 });
    await runJob();
    await expectExactSeries(FREEZER, base - 30 * MIN, base + 8 * HOUR, 10, 3600);
    await expectExactSeries(CHAMBER, base + 10 * MIN, base + 9 * HOUR + 1, 10, 3600);
  });

  it('stays exact when overlapping late batches of the same device and hours arrive at once', async () => {
    const base = hoursAgo(25 * 24) + 40 * MIN;
    const reading = (i: number) => ({ mac: FREEZER, ts: iso(base + i * MIN), temperature: -18 - (i % 4) / 2, humidity: 50 + (i % 3) });
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => reading(from + k));
    const results = await Promise.all([post(range(0, 40)), post(range(20, 60)), post(range(10, 50))]);
    expect(results.reduce((n, r) => n + r.accepted, 0)).toBe(60);
    expect(await trustedMismatches()).toEqual([]);
    await runJob();
    await expectExactSeries(FREEZER, base - 4 * HOUR, base + 5 * HOUR, 10, 3600);
  });

  it("another enterprise's device in the same hours changes nothing of this one's roll-ups or series", async () => {
    const base = hoursAgo(22 * 24);
    const before = await expectExactSeries(FREEZER, base - 5 * HOUR, base + 4 * HOUR, 10, 3600);
    const accepted = await post(Array.from({ length: 90 }, (_, i) => ({ mac: VACCINES, ts: iso(base + i * MIN), temperature: 5 + (i % 3), humidity: 50 })));
    expect(accepted.accepted).toBe(90);
    await runJob();
    expect(await expectExactSeries(FREEZER, base - 5 * HOUR, base + 4 * HOUR, 10, 3600)).toEqual(before);
    const vida = await series(VACCINES, base - 5 * HOUR, base + 4 * HOUR, '&points=10', tokens['vida.adm']);
    expect((vida.json() as HistorySeries).count).toBe(90);
    // Aurora's admin cannot chart Vida Farma's device, whatever the range.
    const foreign = await series(VACCINES, base - 5 * HOUR, base + 4 * HOUR, '&points=10');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Dispositivo não encontrado.');
  });

  it('removed readings: their hours, once marked, are read from readings and then recounted, an emptied hour dropped', async () => {
    const device = await deviceByMac(ctx, FREEZER);
    const base = hoursAgo(20 * 24);
    const cut = { from: new Date(base + 30 * MIN), to: new Date(base + 2 * HOUR) };
    await ctx.db.transaction().execute(async (trx) => {
      // Readings refuse DELETE but through the declared, audited removal path (ADR 0060).
      await declareReadingsRemoval(trx, { enterpriseId: null, reason: 'teste de roll-ups', details: { device_num: device.num } });
      const gone = await trx.deleteFrom('readings').where('device_num', '=', device.num).where('ts', '>=', cut.from).where('ts', '<', cut.to).returning('ts').execute();
      expect(gone.length).toBeGreaterThan(0);
      await markRollupHours(trx, hoursOf(gone.map(() => device.num), gone.map((r) => r.ts.getTime())));
    });
    await expectExactSeries(FREEZER, base - 6 * HOUR, base + 6 * HOUR, 12, 3600);
    await runJob();
    const hour2 = await ctx.db.selectFrom('reading_rollups').select('n').where('device_num', '=', device.num).where('bucket', '=', new Date(base + HOUR)).executeTakeFirst();
    expect(hour2).toBeUndefined();
    // Gaps stay gaps: hours without readings have no bucket.
    const body = await expectExactSeries(FREEZER, base - 6 * HOUR, base + 6 * HOUR, 12, 3600);
    expect(body.t).toEqual([base / 1000, (base + 2 * HOUR) / 1000]);
  });

  it.skipIf(isPglite)('does not move the line while a batch that read the old line may still commit', async () => {
    const device = await deviceByMac(ctx, CHAMBER);
    const line = (await state()).trusted_before.getTime();
    const ts = line + 20 * MIN + 7_000; // just ahead of the line (a batch that read it marks nothing), off the demo's grid
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const inFlight = new Promise<void>((resolve) => (written = resolve));
    const batch = ctx.db.transaction().execute(async (trx) => {
      await insertReadingColumns(trx, {
        deviceNum: [device.num], tsMs: [ts], temperature: [-30], humidity: [55], battery: [80],
        lat: [null], lng: [null], travelId: [null], seq: [null], seqModulo: [null],
      });
      written();
      await held;
    });
    await inFlight;
    await moveClock(2 * HOUR);
    const during = await ctx.services.rollups.run();
    // Published, but not trusted: the open batch could still add readings behind the new line.
    try {
      expect(during.publishedBefore.getTime()).toBeGreaterThan(ts);
      expect(during.trustedBefore.getTime()).toBe(line);
    } finally {
      release();
      await batch;
    }
    const after = await runJob();
    expect(after.trustedBefore.getTime()).toBeGreaterThan(ts);
    const rolled = await ctx.db.selectFrom('reading_rollups').select(['t_min']).where('device_num', '=', device.num).where('bucket', '=', new Date(line)).executeTakeFirstOrThrow();
    expect(rolled.t_min).toBe(-30);
  });

  it('the migration rolls up the readings stored before it', async () => {
    await runJob();
    const count = async () => Number((await ctx.db.selectFrom('reading_rollups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await sql`DROP TABLE reading_rollups, reading_rollup_marks, reading_rollup_state`.execute(ctx.db);
    await migrateRollups(ctx.db as unknown as Kysely<unknown>);
    expect(await count()).toBeGreaterThanOrEqual(before);
    expect(await trustedMismatches()).toEqual([]);
    expect(await markCount()).toBe(0);
  });
});

describe('chart series over roll-ups', () => {
  beforeAll(async () => {
    await runJob();
  });

  it('chooses bucket sizes from the ladder, never more than the points asked (+1)', () => {
    expect(chooseBucketSeconds(365 * 86_400, 1000)).toBe(43_200);
    expect(chooseBucketSeconds(90 * 86_400, 1000)).toBe(10_800);
    expect(chooseBucketSeconds(2 * 86_400, 1000)).toBe(300);
    expect(chooseBucketSeconds(3 * 365 * 86_400, 100)).toBe(11 * 86_400);
    for (const [range, points] of [[365 * 86_400, 1000], [7 * 86_400, 100], [3600, 10], [230 * 365 * 86_400, 5000]] as const) {
      expect(Math.ceil(range / chooseBucketSeconds(range, points)) + 1).toBeLessThanOrEqual(points + 1);
    }
  });

  it('answers exactly what an aggregate over readings gives, for windows that are and are not whole hours', async () => {
    const body = await expectExactSeries(CHAMBER, hoursAgo(5 * 24) + 17 * MIN + 30_000, hoursAgo(12) + 41 * MIN, 60, 7200);
    expect(body.count).toBeGreaterThan(1000);
    expect(body.stats.temperature.max).toBe(Math.max(...body.temperature.max.filter((v): v is number => v !== null)));
    await expectExactSeries(CHAMBER, hoursAgo(4 * 24), hoursAgo(24), 36, 7200);
    // Across the line: whole hours behind it from roll-ups, current readings ahead of it from readings.
    const now = ctx.clock.now().getTime();
    expect((await post(Array.from({ length: 24 }, (_, i) => ({ mac: CHAMBER, ts: iso(now - i * 5 * MIN), temperature: -20 + i / 10, humidity: 60 })))).accepted).toBe(24);
    const line = (await state()).trusted_before.getTime();
    expect(line).toBeGreaterThan(hoursAgo(30));
    expect(line).toBeLessThan(now - 2 * HOUR);
    await expectExactSeries(CHAMBER, hoursAgo(30) + 1_000, hoursAgo(0) + 10 * MIN, 32, 3600);
  });

  it('reads the whole trusted hours from the roll-ups and the partial hours at the edges from readings', async () => {
    const device = await deviceByMac(ctx, CHAMBER);
    const from = hoursAgo(48) + 20 * MIN;
    const to = hoursAgo(24) + 50 * MIN;
    const whole = new Date(hoursAgo(36)); // a whole hour in the middle
    const edge = new Date(hoursAgo(48)); // the hour `from` falls in: only partly in the window
    const mark = async (bucket: Date, tMax: number) => ctx.db.updateTable('reading_rollups').set({ t_max: tMax }).where('device_num', '=', device.num).where('bucket', '=', bucket).execute();
    await mark(whole, 99);
    await mark(edge, 98);
    let body = (await series(CHAMBER, from, to, '&points=13')).json() as HistorySeries;
    expect(body.bucketSeconds).toBe(7200);
    expect(body.temperature.max).toContain(99);
    expect(body.temperature.max).not.toContain(98);
    // A marked hour is read from readings, whatever its roll-up says; the job then recomputes it.
    await markRollupHours(ctx.db, [{ deviceNum: device.num, hourMs: whole.getTime() }, { deviceNum: device.num, hourMs: edge.getTime() }]);
    body = (await series(CHAMBER, from, to, '&points=13')).json() as HistorySeries;
    expect(body.temperature.max).not.toContain(99);
    await runJob();
    await expectExactSeries(CHAMBER, from, to, 13, 7200);
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
