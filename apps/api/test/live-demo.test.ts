import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { distanceKm, type LatLng } from '../src/simulator/road-path';
import { DRIFT, type TickReport } from '../src/simulator/live-demo';
import { ROADS } from '../src/simulator/brazilian-roads';
import { createTestContext, type TestContext } from './context';
import { deviceByMac } from './ingest-helpers';

/**
 * The live demo (issue 14 item 5, ADR 38): on a demo database the demo beacons keep reporting through the ingestion
 * endpoints. The test drives its ticks with the test clock (its own timer is set an hour apart and never fires).
 */
const MAC = {
  truck1: 'C3:00:00:00:01:01', // on travel AUR7K2M9QX, São Paulo → Rio, in progress
  chamber: 'C3:00:00:00:01:03', // Câmara Fria Matriz, -22…-16 °C: the first fixed-site device to drift
  freezer: 'C3:00:00:00:01:04',
  vaccines: 'C3:00:00:00:02:01', // Geladeira Vacinas: a RuuviTag behind a Ruuvi Gateway in the demo
  box2: 'C3:00:00:00:02:03', // on travel VDF8M2X5KS, Belo Horizonte → Rio, in progress
};
const TICK_MS = 15_000;

interface Alarm {
  type: string;
  active: boolean;
}

describe('the live demo on a demo database (DEMO_LIVE=1)', () => {
  let ctx: TestContext;
  let closed = false;
  let aurora: string;
  let joao: string;
  let vida: string;
  let started: Date;
  const reports: TickReport[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { demoLive: true, demoLiveIntervalSeconds: 3600 } });
    aurora = (await ctx.login('aurora.adm')).token;
    joao = (await ctx.login('joao.silva')).token;
    vida = (await ctx.login('vida.adm')).token;
    started = ctx.clock.now();
  });
  afterAll(async () => {
    if (!closed) await ctx.close();
  });

  const travel = async (code: string, token: string) => {
    const list = (await ctx.request('GET', '/api/travels?paginate=false', token)).json().data.data as { _id: string; code: string; last_position: LatLng | null }[];
    return list.find((t) => t.code === code)!;
  };
  const alarmsOf = async (mac: string, token: string) => {
    const res = await ctx.request('GET', `/api/beacon-device/${mac}/notifications`, token);
    expect(res.statusCode).toBe(200);
    return res.json() as Alarm[];
  };
  /** Alarms of the chamber opened since the demo started (the seed's week holds older ones). */
  const chamberAlarms = () =>
    ctx.db
      .selectFrom('alarms as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .select(['a.id', 'a.type', 'a.active', 'a.ended_at'])
      .where('d.mac', '=', MAC.chamber)
      .where('a.started_at', '>=', started)
      .execute();

  it('runs on its timer once the app is ready', () => {
    expect(ctx.app.liveDemo).not.toBeNull();
    expect(ctx.app.liveDemo!.running).toBe(true);
  });

  it('sends a reading of every demo device per tick through ingestion: the history API shows them, JSON and Ruuvi alike', async () => {
    const before = await travel('AUR7K2M9QX', joao);
    let openSeen = false;
    // Seven minutes of ticks, 15 s apart: the chamber's excursion starts at 1 min and is over at 5 min.
    for (let i = 1; i <= 28; i++) {
      ctx.clock.advance(TICK_MS);
      const report = (await ctx.app.liveDemo!.tick())!;
      reports.push(report);
      expect(report).toMatchObject({ sent: 8, accepted: 8, duplicates: 0, rejected: 0, failed: 0 });
      const elapsed = i * TICK_MS;
      if (elapsed === DRIFT.firstAfterMs + DRIFT.rampMs + DRIFT.holdMs / 2) {
        // Mid-excursion: the chamber is past its maximum and its alarm is open.
        const open = (await alarmsOf(MAC.chamber, aurora)).filter((a) => a.type === 'temperature_high' && a.active);
        expect(open).toHaveLength(1);
        openSeen = true;
      }
    }
    expect(openSeen).toBe(true);
    // Sessions idle for the whole run have expired with the clock: sign in again.
    [aurora, joao, vida] = [(await ctx.login('aurora.adm')).token, (await ctx.login('joao.silva')).token, (await ctx.login('vida.adm')).token];

    const window = `dateInitUtc=${new Date(started.getTime() + 1).toISOString()}&dateEndUtc=${ctx.clock.now().toISOString()}&isUtc=true&limit=1000`;
    const history = async (mac: string, token: string) => {
      const res = await ctx.request('GET', `/api/beacon-device/history/mac/${mac}/page?${window}`, token);
      expect(res.statusCode).toBe(200);
      return res.json().data as { createdAt: string; temperature: number | null }[];
    };
    const chamber = await history(MAC.chamber, aurora);
    expect(chamber).toHaveLength(28);
    expect(Math.max(...chamber.map((r) => r.temperature!))).toBeCloseTo(-16 + DRIFT.overLimit, 1);
    expect(chamber.filter((r) => r.temperature! > -16).length).toBeGreaterThan(4);
    // Vida Farma's devices come as RuuviTag advertisements (whole-second times, RAWv2's sequence counter stored).
    const vaccines = await history(MAC.vaccines, vida);
    expect(vaccines).toHaveLength(28);
    for (const r of vaccines) expect(r.createdAt).toMatch(/:\d\d\.000Z$/);
    const device = await deviceByMac(ctx, MAC.vaccines);
    const seqs = await ctx.db.selectFrom('readings').select(['seq', 'seq_modulo']).where('device_num', '=', device.num).where('ts', '>', started).orderBy('ts').execute();
    expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: 28 }, (_, i) => i));
    expect(new Set(seqs.map((r) => r.seq_modulo))).toEqual(new Set([65535]));
    // Aurora's come in Sentinela's JSON: no sequence counter.
    const chamberRow = await deviceByMac(ctx, MAC.chamber);
    const jsonSeqs = await ctx.db.selectFrom('readings').select('seq').where('device_num', '=', chamberRow.num).where('ts', '>', started).execute();
    expect(jsonSeqs.every((r) => r.seq === null)).toBe(true);

    // The travel moved along the Via Dutra, its devices' temperatures inside their limits.
    const after = await travel('AUR7K2M9QX', joao);
    expect(before.last_position).not.toBeNull();
    // It went on from where the seed's readings left it (on the same road), without a jump.
    expect(distanceKm(before.last_position!, reports[0]!.travels.find((t) => t.code === 'AUR7K2M9QX')!.position)).toBeLessThan(2);
    const moved = distanceKm(before.last_position!, after.last_position!);
    expect(moved).toBeGreaterThan(20);
    const last = reports[reports.length - 1]!.travels.find((t) => t.code === 'AUR7K2M9QX')!;
    expect(last.road).toBe('Via Dutra (BR-116)');
    expect(after.last_position![0]).toBeCloseTo(last.position[0], 5);
    expect(after.last_position![1]).toBeCloseTo(last.position[1], 5);
    const dutra = ROADS.find((r) => r.name === last.road)!;
    expect(Math.min(...dutra.points.map((p) => distanceKm(p, after.last_position!)))).toBeLessThan(40);
    const truck = await history(MAC.truck1, joao);
    expect(truck).toHaveLength(28);
    expect(Math.min(...truck.map((r) => r.temperature!))).toBeGreaterThanOrEqual(0);
    expect(Math.max(...truck.map((r) => r.temperature!))).toBeLessThanOrEqual(8);
    // The other travel in progress (a Ruuvi device, its gateway's coordinates) took the BR-040.
    expect(reports[reports.length - 1]!.travels.find((t) => t.code === 'VDF8M2X5KS')!.road).toBe('BR-040');
    const box = (await travel('VDF8M2X5KS', vida)).last_position!;
    expect(Math.min(...ROADS.find((r) => r.name === 'BR-040')!.points.map((p) => distanceKm(p, box)))).toBeLessThan(40);
  }, 120_000); // 28 ticks of 8 devices through ingestion, then the checks: long on PGlite on a loaded machine

  it("opened the chamber's alarm when it drifted past its maximum, and ended it when it came back", async () => {
    const all = await chamberAlarms();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ type: 'temperature_high', active: false, ended_at: expect.any(Date) });
    const listed = (await alarmsOf(MAC.chamber, aurora)).filter((a) => a.type === 'temperature_high');
    expect(listed[0]).toMatchObject({ active: false });
    // The freezer's turn comes later (its slot starts 6 minutes after the chamber's).
    expect(reports.some((r) => r.drifting.includes(MAC.freezer))).toBe(false);
    expect(reports.filter((r) => r.drifting.includes(MAC.chamber)).length).toBeGreaterThan(10);
    // The other devices stayed inside their limits: no new alarm anywhere else.
    const others = await ctx.db
      .selectFrom('alarms as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .select('d.mac')
      .where('a.started_at', '>=', started)
      .where('d.mac', '!=', MAC.chamber)
      .execute();
    expect(others).toEqual([]);
  });

  it('stops with the server: no timer left, and a tick after close sends nothing', async () => {
    const demo = ctx.app.liveDemo!;
    closed = true;
    await ctx.close();
    expect(demo.running).toBe(false);
    expect(await demo.tick()).toBeNull();
  });
});

// Contexts are made in hooks: seeding the demo's week of readings takes a while on PGlite.
describe('with DEMO_LIVE=0 on a demo database', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { demoLive: false } });
  });
  afterAll(() => ctx.close());

  it('starts nothing', () => {
    expect(ctx.app.liveDemo).toBeNull();
  });
});

describe('with DEMO_LIVE=1 on a database without the demo gateway', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { demoLive: true } });
  });
  afterAll(() => ctx.close());

  it('never runs, even when asked to', () => {
    expect(ctx.app.liveDemo).toBeNull();
  });
});

describe('the DEMO_LIVE settings', () => {
  it('DEMO_LIVE follows DEMO unless set', () => {
    expect(loadConfig({ DEMO: '1' }).demoLive).toBe(true);
    expect(loadConfig({ DEMO: '1', DEMO_LIVE: '0' }).demoLive).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://sentinela.example.com' }).demoLive).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '1' }).demoLive).toBe(true);
    expect(loadConfig({ DEMO: '0', DEMO_LIVE: '1' }).demoLive).toBe(true);
    expect(loadConfig({ DEMO: '1' }).demoLiveIntervalSeconds).toBe(15);
    expect(() => loadConfig({ DEMO_LIVE_INTERVAL_SECONDS: '0' })).toThrow(/DEMO_LIVE_INTERVAL_SECONDS/);
  });
});
