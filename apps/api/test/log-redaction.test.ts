import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_VERSION } from '@sentinela/contract';
import { buildApp, type App } from '../src/app';
import { createLogger, redactedUrl, REDACTED } from '../src/lib/log-redaction';
import { openTestDatabase, testConfig } from './context';
import type { DatabaseHandle } from '../src/db/database';
import { ManualClock } from '../src/lib/clock';
import { DEMO_PASSWORD, seedDemoData } from '../src/seed/demo';

/**
 * Secrets stay out of logs (issue 21 item 8, ADR 56): real requests through the server's own logger (the one
 * server.ts makes), its output captured line by line, and the access log's rows.
 */

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let database: DatabaseHandle;
let built: App;
const headers = { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };

beforeAll(async () => {
  database = await openTestDatabase();
  const clock = new ManualClock(new Date());
  await seedDemoData(database.db, clock);
  built = await buildApp({ config: testConfig({ logLevel: 'info' }), db: database.db, clock, logger: createLogger('info', capture) });
  await built.app.ready();
});
afterAll(async () => {
  await built?.app.close();
  await database?.close();
});

const MONITOR_TOKEN = 'mon_9f8e7d6c5b4a39281706f5e4d3c2b1a0ZZ';
const EMAIL_TOKEN = 'Ema1lConfirmTokenQwErTy0123456789abcdef';
const TRACKING_CODE = 'TRK7Q2W9';
const TELEGRAM_TOKEN = 'tgLinkToken_abcdefghijklmnop123456';
const STRAY_TOKEN = 'StrayCapability_0123456789abcdefghij';
const GATEWAY_KEY = 'gw_live_secret_key_0123456789';

describe('the request log', () => {
  it('shows no token, code, capability or credential header of real requests', async () => {
    const login = await built.app.inject({ method: 'POST', url: '/api/authenticate', headers, payload: { username: 'joao.silva', password: DEMO_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const bearer = (login.json() as { token: { token: string } }).token.token;
    const requests: { method: 'GET' | 'POST'; url: string; auth?: string; apikey?: string; payload?: object; expect?: number }[] = [
      { method: 'GET', url: `/api/monitor/${MONITOR_TOKEN}` },
      { method: 'GET', url: `/api/verify-email/${EMAIL_TOKEN}` },
      { method: 'GET', url: `/api/travels/localizator/${TRACKING_CODE}` },
      // Signed in, so the access log records it too (no Telegram bot here: 422, logged all the same).
      { method: 'POST', url: `/api/me/telegram/123456/link?token=${TELEGRAM_TOKEN}&lang=pt`, auth: bearer, expect: 422 },
      { method: 'GET', url: `/api/nao-existe/${STRAY_TOKEN}?api_key=${GATEWAY_KEY}` },
      { method: 'POST', url: '/api/ingest/readings', apikey: GATEWAY_KEY, payload: { readings: [] } },
    ];
    for (const r of requests) {
      const res = await built.app.inject({
        method: r.method,
        url: r.url,
        headers: { ...headers, ...(r.auth ? { authorization: `Bearer ${r.auth}` } : {}), ...(r.apikey ? { apikey: r.apikey, authorization: `ApiKey ${r.apikey}` } : {}) },
        ...(r.payload ? { payload: r.payload } : {}),
      });
      if (r.expect) expect(res.statusCode, res.body).toBe(r.expect);
    }
    const output = lines.join('\n');
    // The requests were logged (Fastify's "incoming request" / "request completed" lines), with their routes.
    expect(output).toContain(`/api/monitor/${REDACTED}`);
    expect(output).toContain(`/api/verify-email/${REDACTED}`);
    expect(output).toContain(`/api/travels/localizator/${REDACTED}`);
    expect(output).toContain(`/api/me/telegram/123456/link?token=${REDACTED}&lang=pt`);
    expect(output).toContain(`/api/nao-existe/${REDACTED}?api_key=${REDACTED}`);
    for (const secret of [MONITOR_TOKEN, EMAIL_TOKEN, TRACKING_CODE, TELEGRAM_TOKEN, STRAY_TOKEN, GATEWAY_KEY, bearer]) {
      expect(output, secret).not.toContain(secret);
    }

    // The access log (M7) keeps route patterns, never a parameter's value.
    // (Recorded after each answer went out, in batches: read until the signed-in request's row is there.)
    const rows = await vi.waitFor(
      async () => {
        await built.services.accessLog.flush();
        const all = await database.db.selectFrom('access_log').select(['path', 'message']).execute();
        expect(all.some((row) => row.path === '/api/me/telegram/:chatId/link')).toBe(true);
        return all;
      },
      { timeout: 20_000, interval: 100 },
    );
    const text = JSON.stringify(rows);
    for (const secret of [TELEGRAM_TOKEN, MONITOR_TOKEN, bearer]) expect(text).not.toContain(secret);
  });

  it('redacts credential headers in anything logged with headers', () => {
    const before = lines.length;
    built.app.log.info({ headers: { authorization: `Bearer ${GATEWAY_KEY}`, apikey: GATEWAY_KEY, accept: 'text/html' } }, 'headers logged by mistake');
    const logged = lines.slice(before).join('\n');
    expect(logged).toContain('text/html');
    expect(logged).not.toContain(GATEWAY_KEY);
  });

  it('keeps ordinary parameters and ids readable', () => {
    const id = '0b9f3a52-6a51-4c38-9c1f-0f0a2b3c4d5e';
    expect(redactedUrl({ url: `/api/devices/${id}?page=2`, routeOptions: { url: '/api/devices/:id' } })).toBe(`/api/devices/${id}?page=2`);
    expect(redactedUrl({ url: '/api/cep/01310100', routeOptions: { url: '/api/cep/:cep' } })).toBe('/api/cep/01310100');
    expect(redactedUrl({ url: `/api/report/files/${id}?key=abc`, routeOptions: { url: '/api/report/files/:id' } })).toBe(`/api/report/files/${id}?key=${REDACTED}`);
  });
});
