import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_VERSION, MSG } from '@sentinela/contract';
import { buildApp } from '../src/app';
import type { AppConfig } from '../src/config/config';
import type { AppServices } from '../src/services';
import { RateLimits } from '../src/lib/rate-limits/rate-limits';
import { createTestContext, testConfig, type TestContext } from './context';
import { startFakeGeocoder, type FakeGeocoder } from './fake-geocoder';

/**
 * Shared rate limits (issue 26 item 3, ADR 54): every limit is counted in one store that all API processes share —
 * the database (PostgreSQL or PGlite) or Redis with REDIS_URL. Two apps on one database stand for two processes.
 */

const headers = { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };

async function secondApp(ctx: TestContext, overrides: Partial<AppConfig>): Promise<{ app: FastifyInstance; services: AppServices }> {
  const built = await buildApp({ config: testConfig(overrides), db: ctx.db, clock: ctx.clock, logger: false });
  await built.app.ready();
  return built;
}

const get = (app: FastifyInstance, url: string, token: string) => app.inject({ method: 'GET', url, headers: { ...headers, authorization: `Bearer ${token}` } });
const login = (app: FastifyInstance, username: string, password: string) => app.inject({ method: 'POST', url: '/api/authenticate', headers, payload: { username, password } });

function sharedLimitTests(store: 'database' | 'redis') {
  let redis: { url: string; stop(): Promise<void> } | undefined;
  let ctx: TestContext;
  let other: { app: FastifyInstance; services: AppServices };

  beforeAll(async () => {
    if (store === 'redis') {
      // @ts-expect-error plain ESM helper shared with the scripts
      const { startRedis } = await import('../../../scripts/lib/redis.mjs');
      redis = (await startRedis()) as { url: string; stop(): Promise<void> };
    }
    const limits: Partial<AppConfig> = { userMaxRequestsPerMinute: 5, loginMaxPerMinute: 3, redisUrl: redis?.url };
    ctx = await createTestContext({ demo: true, config: limits });
    other = await secondApp(ctx, limits);
  });
  afterAll(async () => {
    await other?.app.close();
    await ctx?.close();
    await redis?.stop();
  });

  it('a signed-in user’s request budget is one for both processes, and no request waits for the store', async () => {
    const { token } = await ctx.login('joao.silva');
    for (let i = 0; i < 5; i++) expect((await get(ctx.app, '/api/me', token)).statusCode).toBe(200);
    // The first process sends its counts (it does every second; a test does not wait for the clock).
    await ctx.services.rateLimits.flush();
    const refused = await get(other.app, '/api/me', token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS', error: MSG.tooManyRequests });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another user of the same address is untouched on either process.
    const maria = await ctx.login('maria.souza');
    expect((await get(other.app, '/api/me', maria.token)).statusCode).toBe(200);
    expect((await get(ctx.app, '/api/me', maria.token)).statusCode).toBe(200);
    // Counted where the settings say: with REDIS_URL nothing is written to the database.
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM rate_limits`.execute(ctx.db);
    if (store === 'redis') expect(rows[0]!.n).toBe(0);
    else expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it('login attempts on one username from one address are counted once across processes', async () => {
    for (const app of [ctx.app, other.app, ctx.app]) expect((await login(app, 'aurora.adm', 'Errada@2026')).statusCode).toBe(401);
    const fourth = await login(other.app, 'aurora.adm', 'Errada@2026');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error).toBe(MSG.tooManyLoginAttempts);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
}

describe('limits shared through the database', () => sharedLimitTests('database'));
describe('limits shared through Redis (REDIS_URL)', () => sharedLimitTests('redis'));

describe('the store itself', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('keeps its counters in the rate_limits table, long keys hashed to fit, and forgets a key on reset', async () => {
    const limit = ctx.services.rateLimits.limit({ name: 'test-store', points: 2, windowSeconds: 60 });
    const longKey = `203.0.113.7|${'u'.repeat(5000)}`;
    expect((await limit.consume(longKey)).allowed).toBe(true);
    expect((await limit.consume(longKey)).allowed).toBe(true);
    const third = await limit.consume(longKey);
    expect(third).toMatchObject({ allowed: false });
    expect(third.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const { rows: stored } = await sql<{ key: string; points: number }>`SELECT key, points FROM rate_limits`.execute(ctx.db);
    const mine = stored.filter((r) => r.key.startsWith('test-store:'));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.key.length).toBeLessThanOrEqual(255);
    expect(mine[0]!.points).toBeGreaterThanOrEqual(2);
    await limit.reset(longKey);
    expect((await limit.consume(longKey)).allowed).toBe(true);
  });

  it('a penalty spends the budget that a check then sees, without refusing the penalty itself', async () => {
    const limit = ctx.services.rateLimits.limit({ name: 'test-penalty', points: 2, windowSeconds: 60 });
    expect((await limit.check('k')).allowed).toBe(true);
    await limit.penalty('k');
    await limit.penalty('k');
    expect((await limit.check('k')).allowed).toBe(false);
  });

  it('refuses to declare one limit twice with different rules', () => {
    ctx.services.rateLimits.limit({ name: 'test-twice', points: 2, windowSeconds: 60 });
    expect(ctx.services.rateLimits.limit({ name: 'test-twice', points: 2, windowSeconds: 60 })).toBeDefined();
    expect(() => ctx.services.rateLimits.limit({ name: 'test-twice', points: 3, windowSeconds: 60 })).toThrow(/different rules/);
  });

  it('a queue paces turns across processes: 6 turns from two of them take at least 5 windows', async () => {
    const a = ctx.services.rateLimits.queue({ name: 'test-pace', points: 1, windowSeconds: 1 }, 5);
    const otherLimits = new RateLimits({ db: ctx.db, log: { warn() {}, error() {} } });
    try {
      const b = otherLimits.queue({ name: 'test-pace', points: 1, windowSeconds: 1 }, 5);
      const start = Date.now();
      const turns = await Promise.all([a, b, a, b, a, b].map((q) => q.turn().then((ok) => ({ ok, at: Date.now() }))));
      expect(turns.every((t) => t.ok)).toBe(true);
      // Each window (1 s) admits one turn, and a window starts only when the previous one ended.
      expect(Math.max(...turns.map((t) => t.at)) - start).toBeGreaterThanOrEqual(5000);
    } finally {
      await otherLimits.close();
    }
  });

  it('a full queue refuses at once instead of making callers wait for ever', async () => {
    // A window long enough that a loaded machine cannot reach the next one between these calls.
    const q = ctx.services.rateLimits.queue({ name: 'test-full', points: 1, windowSeconds: 5 }, 1);
    expect(await q.turn()).toBe(true);
    // Two more in the same window, one place in the line: one waits and gets its turn in the next window, the other
    // is refused at once (which one depends on which store answer comes back first).
    const [second, third] = await Promise.all([q.turn(), q.turn()]);
    expect([second, third].sort()).toEqual([false, true]);
  });
});

describe('the geocoder’s pace (GEOCODER_MAX_PER_MINUTE as one search a second, across processes)', () => {
  let geocoder: FakeGeocoder;
  let ctx: TestContext;
  let other: { app: FastifyInstance; services: AppServices };

  beforeAll(async () => {
    geocoder = await startFakeGeocoder();
    const config: Partial<AppConfig> = { geocoderUrl: geocoder.url, geocoderMaxPerMinute: 60, geocoderTimeoutMs: 2000 };
    ctx = await createTestContext({ demo: true, config });
    other = await secondApp(ctx, config);
  });
  afterAll(async () => {
    await other?.app.close();
    await ctx?.close();
    await geocoder?.close();
  });

  it('sends searches from both processes one a second, each waiting its turn, none refused', async () => {
    geocoder.answer = { kind: 'places', places: [] };
    const { token } = await ctx.login('aurora.adm');
    const start = Date.now();
    const answers = await Promise.all(
      ['Rua A', 'Rua B', 'Rua C', 'Rua D'].map((q, i) => get(i % 2 ? other.app : ctx.app, `/api/geocoder/search?q=${encodeURIComponent(q)}`, token)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(geocoder.requests).toHaveLength(4);
    // The fourth search could not leave before three windows of one second had passed.
    expect(Date.now() - start).toBeGreaterThanOrEqual(3000);
  });
});
