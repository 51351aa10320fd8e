import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { waitForDeliveries } from './delivery-log';

/**
 * X14 Operations, metrics (ADR 67): GET /metrics in the Prometheus text format, guarded by METRICS_TOKEN or served
 * only on METRICS_PORT; the counters move where the events happen, and no label carries tenant data.
 */
const TOKEN = 'metrics-token-0123456789';
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva

/** The value of one series in a Prometheus text exposition (labels given in any order), or undefined. */
export function seriesValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) present[pair[1]!] = pair[2]!;
    if (Object.entries(labels).every(([k, v]) => present[k] === v)) return Number(match[3]);
  }
  return undefined;
}

function scrape(ctx: TestContext, token: string | null = TOKEN) {
  return ctx.app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });
}

async function metricsText(ctx: TestContext): Promise<string> {
  const res = await scrape(ctx);
  expect(res.statusCode).toBe(200);
  return res.body;
}

describe('X14 metrics without a setting', () => {
  it('serves nothing: /metrics is an unknown route', async () => {
    const ctx = await createTestContext();
    try {
      expect((await scrape(ctx)).statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });
});

describe('X14 metrics behind METRICS_TOKEN', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { metrics: { token: TOKEN, port: undefined, host: '127.0.0.1' } } });
  });
  afterAll(async () => ctx?.close());

  it('answers 401 without the token or with another one, and the text format with it', async () => {
    for (const token of [null, 'wrong-token-0123456789', `${TOKEN}x`]) {
      const res = await scrape(ctx, token);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('sentinela_');
    }
    const res = await scrape(ctx);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // prom-client's default process and Node metrics.
    expect(res.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(res.body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(res.body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  });

  it('counts accepted and rejected readings per batch, and the batch duration', async () => {
    const before = await metricsText(ctx);
    const accepted0 = seriesValue(before, 'sentinela_readings_accepted_total') ?? 0;
    const batches0 = seriesValue(before, 'sentinela_ingest_batch_duration_seconds_count') ?? 0;
    const res = await postReadings(ctx, [
      { mac: TRUCK_2, ts: at(ctx, -30), temperature: 4.5 },
      { mac: TRUCK_2, ts: at(ctx, -20), temperature: 4.6 },
      { mac: 'AA:BB:CC:DD:EE:01', ts: at(ctx, -20), temperature: 4.6 },
      { mac: TRUCK_2, ts: 'yesterday', temperature: 4.6 },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 2 });
    // The same readings again: duplicates, not accepted twice.
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -30), temperature: 4.5 }])).json()).toMatchObject({ accepted: 0, duplicates: 1 });

    const after = await metricsText(ctx);
    expect(seriesValue(after, 'sentinela_readings_accepted_total')).toBe(accepted0 + 2);
    expect(seriesValue(after, 'sentinela_readings_duplicate_total')).toBeGreaterThanOrEqual(1);
    expect(seriesValue(after, 'sentinela_readings_rejected_total', { reason: 'unknown_device' })).toBe(1);
    expect(seriesValue(after, 'sentinela_readings_rejected_total', { reason: 'invalid_ts' })).toBe(1);
    expect(seriesValue(after, 'sentinela_ingest_batch_duration_seconds_count')).toBe(batches0 + 2);
    expect(seriesValue(after, 'sentinela_ingest_batch_duration_seconds_bucket', { le: '+Inf' })).toBe(batches0 + 2);
  });

  it('observes HTTP durations by route pattern and status, never the raw URL nor tenant data', async () => {
    const { token, user } = await ctx.login('aurora.adm');
    const device = await deviceByMac(ctx, TRUCK_2);
    expect((await ctx.request('GET', `/api/show-beacon-device/${device.id}`, token)).statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/beacon-device/${encodeURIComponent(TRUCK_2)}/historic-count`, token)).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/no-such-route/123', token)).statusCode).toBe(404);

    const text = await metricsText(ctx);
    expect(seriesValue(text, 'sentinela_http_request_duration_seconds_count', { method: 'GET', route: '/api/show-beacon-device/:id', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'sentinela_http_request_duration_seconds_count', { method: 'GET', route: '/api/beacon-device/:mac/historic-count', status_code: '200' })).toBe(1);
    expect(seriesValue(text, 'sentinela_http_request_duration_seconds_count', { method: 'POST', route: '/api/ingest/readings', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'sentinela_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
    // No id, MAC, enterprise or token anywhere in a label.
    for (const secret of [device.id, TRUCK_2, encodeURIComponent(TRUCK_2), user.enterprise!._id, user._id, token, '/api/no-such-route/123']) expect(text).not.toContain(secret);
  });

  it('shows the job queues with their depth and the live connections open', async () => {
    const text = await metricsText(ctx);
    for (const queue of ['report.generate', 'alarm-deliver']) {
      const depth = seriesValue(text, 'sentinela_job_queue_depth', { queue });
      expect(depth, `queue ${queue}`).toBeGreaterThanOrEqual(0);
    }
    expect(seriesValue(text, 'sentinela_socket_connections')).toBe(0);

    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const socket = connectSocket(address, { path: '/socket.io', transports: ['websocket'], reconnection: false });
        sockets.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
      }
      expect(seriesValue(await metricsText(ctx), 'sentinela_socket_connections')).toBe(2);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it('counts alarm notifications by channel and outcome', async () => {
    const joao = (await ctx.login('joao.silva')).token;
    expect((await ctx.request('POST', '/api/me/config/notification-channel', joao, { channel: 'email' })).statusCode).toBe(200);
    const sent0 = seriesValue(await metricsText(ctx), 'sentinela_alarm_notifications_total', { channel: 'email', outcome: 'sent' }) ?? 0;
    expect((await postReadings(ctx, [{ mac: TRUCK_2, ts: at(ctx, -5), temperature: 11.5 }])).statusCode).toBe(200);
    const device = await deviceByMac(ctx, TRUCK_2);
    const alarm = await ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
    const log = await waitForDeliveries(ctx, alarm.id, (await ctx.login('aurora.adm')).token, 1);
    const sentEmails = log.filter((d) => d.channel === 'email' && d.status === 'sent').length;
    expect(sentEmails).toBeGreaterThanOrEqual(1);
    // The log is written just before the attempt is counted: read the counter until it has caught up.
    const counted = async () => seriesValue(await metricsText(ctx), 'sentinela_alarm_notifications_total', { channel: 'email', outcome: 'sent' }) ?? 0;
    const deadline = Date.now() + 10_000;
    while ((await counted()) < sent0 + sentEmails && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await counted()).toBe(sent0 + sentEmails);
  });
});

describe('X14 metrics on METRICS_PORT', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { metrics: { token: undefined, port: 0, host: '127.0.0.1' } } });
  });
  afterAll(async () => ctx?.close());

  function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: ctx.app.metricsPort!, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'] }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('serves /metrics on its own port only, and nothing else there', async () => {
    expect(ctx.app.metricsPort).toBeGreaterThan(0);
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE sentinela_readings_accepted_total counter');
    expect(res.body).toMatch(/^process_resident_memory_bytes \d/m);
    expect((await get('/api/health')).status).toBe(404);
    // Not on the app's port, even with a token.
    expect((await scrape(ctx)).statusCode).toBe(404);
  });

  it('still wants the token when one is set', async () => {
    const guarded = await createTestContext({ config: { metrics: { token: TOKEN, port: 0, host: '127.0.0.1' } } });
    try {
      const port = guarded.app.metricsPort!;
      const fetchMetrics = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}/metrics`, { headers });
      expect((await fetchMetrics({})).status).toBe(401);
      expect((await fetchMetrics({ authorization: 'Bearer nope' })).status).toBe(401);
      expect((await fetchMetrics({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('X14 the dashboard and alert rules in docs/', () => {
  it('are valid JSON and name only metrics the server exposes', async () => {
    const { readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const docs = path.resolve(__dirname, '../../../docs');
    const dashboard = readFileSync(path.join(docs, 'grafana-dashboard.json'), 'utf8');
    const rules = readFileSync(path.join(docs, 'prometheus-alerts.yml'), 'utf8');
    const parsed = JSON.parse(dashboard) as { panels: { targets: { expr: string }[] }[] };
    const expressions = [...parsed.panels.flatMap((p) => p.targets.map((t) => t.expr)), ...[...rules.matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!)];
    expect(expressions.length).toBeGreaterThan(15);

    const { AppMetrics } = await import('../src/metrics/metrics');
    const exposed = new Set<string>();
    for (const metric of (await new AppMetrics().registry.getMetricsAsJSON())) {
      exposed.add(metric.name);
      if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) exposed.add(metric.name + suffix);
    }
    const named = new Set(expressions.flatMap((e) => [...e.matchAll(/\b((?:sentinela|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!)));
    expect(named.size).toBeGreaterThan(8);
    for (const name of named) expect(exposed.has(name), `${name} is not exposed`).toBe(true);
  });
});
