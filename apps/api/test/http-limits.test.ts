import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '@sentinela/contract';
import { loadConfig } from '../src/config/config';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { MACS, userId } from './travel-helpers';

/**
 * HTTP abuse limits and safe defaults (issue 9, items 4, 6 and 7): the per-user budget, failed logins per address,
 * load shedding, security headers, no-store on the API, and demo data off in production unless asked for.
 */

describe('the per-user request budget', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { userMaxRequestsPerMinute: 5 } });
  });
  afterAll(() => ctx.close());

  it('answers 429 with Retry-After once a user spent it, and another user of the same address is untouched', async () => {
    const joao = await ctx.login('joao.silva');
    const maria = await ctx.login('maria.souza');
    for (let i = 0; i < 5; i++) expect((await ctx.request('GET', '/api/me', joao.token)).statusCode).toBe(200);
    const over = await ctx.request('GET', '/api/me', joao.token);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS', error: MSG.tooManyRequests });
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Every signed-in route counts, not only the one that was hammered.
    expect((await ctx.request('GET', '/api/travels', joao.token)).statusCode).toBe(429);

    const mariaMe = await ctx.request('GET', '/api/me', maria.token);
    expect(mariaMe.statusCode).toBe(200);
    expect(mariaMe.json()).toMatchObject({ username: 'maria.souza' });
    // Public routes are not signed-in routes.
    expect((await ctx.request('GET', '/api/health')).statusCode).toBe(200);
  });
});

describe('failed logins per address, across usernames (issue 21 item 9)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { loginFailuresPerAddressPerMinute: 5, loginSlowdownSeconds: 1 } });
  });
  afterAll(() => ctx.close());

  const from = (address: string, username: string, password: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/authenticate', remoteAddress: address, payload: { username, password } });

  it('slows password spraying down without locking out the people behind the address', async () => {
    const office = '203.0.113.10';
    // Successful logins do not count: a company behind one address signing in at once is not an attack.
    for (let i = 0; i < 6; i++) expect((await from(office, i % 2 ? 'joao.silva' : 'vida.adm', 'Sentinela@2026')).statusCode).toBe(200);
    for (const username of ['admin', 'aurora.adm', 'vida.adm', 'joao.silva', 'ninguem']) {
      expect((await from(office, username, 'Primavera@2026')).statusCode).toBe(401);
    }
    // The budget is spent: the spray goes on one attempt a second at most, each answered like any other…
    expect((await from(office, 'maria.souza', 'Primavera@2026')).statusCode).toBe(401);
    // …and a colleague with the right password still gets in (after their turn), where it used to be 429.
    const right = await from(office, 'maria.souza', 'Sentinela@2026');
    expect(right.statusCode, right.body).toBe(200);

    // A burst beyond what may wait is told to come back, in pt-BR with Retry-After; nothing gets in by waiting.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => from(office, `spray${i}`, 'Primavera@2026')));
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const refused = burst.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS', error: MSG.tooManyLoginAttempts });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Another address is not slowed by this one: its own burst is answered, none refused.
    const elsewhere = await Promise.all(Array.from({ length: 4 }, (_, i) => from('198.51.100.20', `outro${i}`, 'Primavera@2026')));
    expect(elsewhere.map((r) => r.statusCode)).toEqual([401, 401, 401, 401]);
  });

  it('bounds guessing of one username from one address: that pair waits for the minute, others do not', async () => {
    const cfg = ctx.services.config.loginMaxPerMinute;
    const attacker = '192.0.2.99';
    const statuses: number[] = [];
    for (let i = 0; i < cfg + 2; i++) statuses.push((await from(attacker, 'aurora.adm', `Errada@${i}`)).statusCode);
    expect(statuses.slice(0, cfg).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(cfg)).toEqual([429, 429]);
    // Right password or not, from that address: the pair's minute is spent.
    expect((await from(attacker, 'aurora.adm', 'Sentinela@2026')).statusCode).toBe(429);
    // The owner, from their own address, signs in.
    expect((await from('203.0.113.50', 'aurora.adm', 'Sentinela@2026')).statusCode).toBe(200);
  });
});

describe('failed logins per username, across addresses (issue 21 item 9)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { loginFailuresPerUsernamePerHour: 3, loginSlowdownSeconds: 1 } });
  });
  afterAll(() => ctx.close());

  const from = (address: string, username: string, password: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/authenticate', remoteAddress: address, payload: { username, password } });

  it('slows a guessing botnet on one account down, and the owner still signs in', async () => {
    for (let i = 0; i < 3; i++) expect((await from(`198.51.100.${i + 1}`, 'maria.souza', `Errada@${i}`)).statusCode).toBe(401);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => from(`198.51.100.${i + 10}`, 'maria.souza', `Errada@${i}`)));
    const statuses = burst.map((r) => r.statusCode);
    // Guesses from many addresses wait in one line for this username; beyond it they are refused.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const owner = await from('203.0.113.77', 'maria.souza', 'Sentinela@2026');
    expect(owner.statusCode, owner.body).toBe(200);
    // Other accounts are not slowed by it.
    expect((await from('198.51.100.10', 'joao.silva', 'Sentinela@2026')).statusCode).toBe(200);
  });
});

/** Keeps the event loop busy for `ms`, in slices (the loop turns between them, so its delay is sampled). */
async function lag(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const slice = performance.now() + 300;
    while (performance.now() < slice) {
      // busy: the loop is lagging
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('load shedding', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { overloadEventLoopDelayMs: 100, overloadRetryAfterSeconds: 7 } });
  });
  afterAll(() => ctx.close());

  it('answers 503 with Retry-After while the loop lags, and keeps health and ingestion answering', async () => {
    // Setting up the database (PGlite runs in this process) lags the loop too: start from a quiet loop.
    const served = () => vi.waitFor(async () => expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(200), { timeout: 10_000, interval: 500 });
    const { token } = await ctx.services.sessions.create(await userId(ctx, 'aurora.adm'), { client: 'web', clientVersion: null, clientOs: null, ip: '127.0.0.1' });
    await served();

    await lag(2500);
    const [me, login, health, ingest] = await Promise.all([
      ctx.request('GET', '/api/me', token),
      ctx.request('POST', '/api/authenticate', undefined, { username: 'joao.silva', password: 'Sentinela@2026' }),
      ctx.request('GET', '/api/health'),
      postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 4.5 }]),
    ]);
    for (const shed of [me, login]) {
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('7');
      expect(shed.json()).toEqual({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', error: MSG.overloaded });
    }
    expect(health.statusCode).toBe(200);
    expect(health.json().load.eventLoopDelayMs).toBeGreaterThan(100);
    expect(ingest.statusCode).toBe(200);
    expect(ingest.json()).toMatchObject({ accepted: 1 });

    // Once the loop is quiet again (the next samples), requests are served.
    await served();
  });
});

describe('security headers and caching', () => {
  let ctx: TestContext;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'sentinela-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Sentinela</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    ctx = await createTestContext({
      config: { webDist, webRuntimeConfig: { tileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png', routingUrl: 'http://osrm.example.net:5000/route' } },
    });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends a CSP that allows only the site and the configured map servers, with the other headers', async () => {
    for (const url of ['/', '/api/health', '/assets/app-1234.js', '/api/me']) {
      const res = await ctx.request('GET', url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/\*\.tiles\.example\.org(;|$)/);
      expect(csp).toMatch(/connect-src 'self' http:\/\/osrm\.example\.net:5000(;|$)/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('marks API answers no-store (errors included) and leaves static files to their own caching', async () => {
    expect((await ctx.request('GET', '/api/health')).headers['cache-control']).toBe('no-store');
    expect((await ctx.request('GET', '/api/me')).headers['cache-control']).toBe('no-store');
    expect((await ctx.request('GET', '/api/nothing-here')).headers['cache-control']).toBe('no-store');
    expect((await ctx.request('GET', '/assets/app-1234.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await ctx.request('GET', '/')).headers['cache-control']).toBe('no-cache');
  });

  it('falls back to the default tile server without settings', async () => {
    const plain = await createTestContext();
    try {
      const csp = String((await plain.request('GET', '/api/health')).headers['content-security-policy']);
      expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/tile\.openstreetmap\.org(;|$)/);
      expect(csp).toMatch(/connect-src 'self'(;|$)/);
    } finally {
      await plain.close();
    }
  });
});

describe('demo data in production', () => {
  it('is off with NODE_ENV=production unless DEMO=1 asks for it, and on elsewhere by default', () => {
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://sentinela.example.com' }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).demo).toBe(true);
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });
});
