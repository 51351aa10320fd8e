/**
 * Report queue benchmark (issue 5): 50 reports of about 10,000 readings each queued at once over HTTP on a
 * listening server (50 users of one enterprise, one export call each, all sent together), while a load loop calls a
 * light authenticated endpoint (the device list) about 50 times a second. Measures the time until all 50 are generated and the API's latency during it (p50/p99, and before it as a
 * baseline), with the server's event-loop delay.
 *
 * The server runs in this process; the load loop and the exports run in a child process (this file, `load`), so a
 * stalled server cannot also stall the clock that measures it: the loop keeps sending on schedule, and a request
 * sent into a stall counts its whole wait.
 *
 * Usage: tsx bench/report-queue.ts [--reports 50] [--readings 10000] [--rate 50] [--workers 2] [--type pdf|xlsx|mixed]
 * DATABASE_URL (a server's admin URL) is used when set; otherwise a throwaway PostgreSQL is started.
 * `runReportQueueBench(options)` runs the same from another script and answers the figures.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { Profile, type Report } from '@sentinela/contract';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config/config';
import { BENCH_LIMITS_ENV } from '../scripts/lib/server-process.mjs';
import { hashPassword } from '../apps/api/src/modules/auth/service';
import { openBenchDatabase } from './lib/bench-database';
import { ensureReadingPartitions } from '../apps/api/src/modules/readings/partitions';

export interface ReportQueueBenchOptions {
  /** Reports queued at once (one per device). */
  reports?: number;
  /** Readings in each report. */
  readings?: number;
  /** Requests per second of the load loop. */
  rate?: number;
  /** REPORT_WORKERS of the server. */
  workers?: number;
  type?: 'pdf' | 'xlsx' | 'mixed';
  /** Seconds of load before the reports are queued (the baseline). */
  baselineSeconds?: number;
  /** A PostgreSQL server's admin URL; a throwaway server is started without one. */
  adminUrl?: string;
}

export interface LatencyFigures {
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** What the load process measures and reports back. */
interface LoadResult {
  /** From the first export call to the last report leaving status 1. */
  allGeneratedSeconds: number;
  generated: number;
  failed: number;
  /** How long the export calls took to answer (they only queue). */
  exportAnswerMs: { p50: number; max: number };
  baseline: LatencyFigures;
  during: LatencyFigures;
  /** Split of `during`: requests sent while the export calls were being answered, and after. */
  whileQueueing: LatencyFigures;
  whileGenerating: LatencyFigures;
}

export interface ReportQueueBenchResult extends LoadResult {
  cores: number;
  cpuModel: string;
  loadAverageBefore: number;
  reports: number;
  readingsPerReport: number;
  workers: number;
  type: string;
  /** The server's event-loop delay while the reports were generated (ms). */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number) => Math.round(n * 10) / 10;

function figures(times: number[], errors: number): LatencyFigures {
  const sorted = [...times].sort((a, b) => a - b);
  return { requests: times.length, errors, p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
}

export async function runReportQueueBench(options: ReportQueueBenchOptions = {}): Promise<ReportQueueBenchResult> {
  const reports = options.reports ?? 50;
  const readings = options.readings ?? 10_000;
  const rate = options.rate ?? 50;
  const workers = options.workers ?? 2;
  const type = options.type ?? 'pdf';
  const baselineSeconds = options.baselineSeconds ?? 5;

  const bench = await openBenchDatabase('bench_reports', options.adminUrl ?? process.env.DATABASE_URL);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sentinela-bench-reports-'));

  const db = bench.database.db;
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | undefined;
  try {
    // One reading a minute per device, ending now: `readings` minutes of history each.
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const from = new Date(now.getTime() - (readings - 1) * 60_000);
    const enterprise = await db.insertInto('enterprises').values({ name: 'Bench Relatórios', email: null }).returning('id').executeTakeFirstOrThrow();
    const passwordHash = await hashPassword('Bench@2026');
    const user = (n: number) => ({ name: `Bench Admin ${n}`, username: n ? `bench.adm${n}` : 'bench.adm', email: `bench${n}@example.com`, phone: null, password_hash: passwordHash, profile_id: Profile.EnterpriseAdmin, enterprise_id: enterprise.id, is_owner: n === 0, verified: true, telegram_chat_id: null });
    await db.insertInto('users').values(Array.from({ length: reports + 1 }, (_, n) => user(n))).execute();
    await sql`INSERT INTO devices (mac, name, enterprise_id, temperature_min, temperature_max, humidity_min, humidity_max)
              SELECT upper('BE:00:00:00:' || lpad(to_hex(i / 256), 2, '0') || ':' || lpad(to_hex(i % 256), 2, '0')), 'Câmara ' || i, ${enterprise.id}, 2, 8, 30, 80
              FROM generate_series(1, ${reports}) i`.execute(db);
    const months: Date[] = [];
    for (let t = from.getTime(); t <= now.getTime() + 31 * 86_400_000; t += 86_400_000) months.push(new Date(t));
    await ensureReadingPartitions(db, months);
    await sql`INSERT INTO readings (device_num, ts, temperature, humidity, battery)
      SELECT d.num, ${from.toISOString()}::timestamptz + make_interval(mins => s),
             5 + 3.5 * sin(s / 60.0 + d.num), 60 + 15 * cos(s / 90.0 + d.num), 100 - s * 50.0 / ${readings}
      FROM devices d, generate_series(0, ${readings - 1}) s`.execute(db);
    await sql`ANALYZE readings`.execute(db);
    const macs = (await db.selectFrom('devices').select('mac').orderBy('num').execute()).map((d) => d.mac);

    const config = {
      ...loadConfig({ ...BENCH_LIMITS_ENV }),
      env: 'production' as const,
      logLevel: 'silent',
      demo: false,
      webDist: undefined,
      databaseUrl: bench.url,
      mqttEnabled: false,
      noDataCheckSeconds: 0,
      reportsDir: path.join(dataDir, 'reports'),
      reportSigningDir: path.join(dataDir, 'signing'),
      reportWorkers: workers,
    };
    app = (await buildApp({ config, db, logger: false })).app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const login = async (username = 'bench.adm') => {
      const res = await fetch(`${base}/api/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', client: 'bench', clientVersion: '1.1.0', clientOs: 'linux' },
        body: JSON.stringify({ username, password: 'Bench@2026' }),
      });
      return ((await res.json()) as { token: { token: string } }).token.token;
    };
    // The reports are asked for by as many users at once, and the load loop stands for everyone else. (One session
    // firing 50 calls at once would measure something else: every request renews its session's row, so they queue
    // on that row lock, holding pool connections while they wait.)
    const loadToken = await login();
    const exportTokens: string[] = [];
    for (let i = 1; i <= reports; i++) exportTokens.push(await login(`bench.adm${i}`));

    const loadAverageBefore = loadavg()[0]!;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const load = await runLoadProcess(
      ['load', '--url', base, '--tokens', exportTokens.join(','), '--load-token', loadToken, '--macs', macs.join(','), '--from', from.toISOString(), '--to', now.toISOString(), '--rate', String(rate), '--type', type, '--baseline', String(baselineSeconds)],
      () => delay.enable(),
    );
    delay.disable();
    const ms = (ns: number) => round(ns / 1e6);
    return {
      cores: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadAverageBefore: round(loadAverageBefore),
      reports,
      readingsPerReport: readings,
      workers,
      type,
      ...load,
      eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    };
  } finally {
    await app?.close();
    await bench.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the load child; `onQueued` is called when it reports the exports sent (the measured window starts). */
function runLoadProcess(args: string[], onQueued: () => void): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('message', (message) => {
      if (message === 'queueing') onQueued();
    });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) return reject(new Error(`load process failed (${code}): ${out}`));
      resolve(JSON.parse(line) as LoadResult);
    });
  });
}

// --- The load process ---

/** Calls the device list every 1/rate s on schedule, whatever the answers take; returns the recorder. */
function loadLoop(base: string, headers: Record<string, string>, rate: number) {
  const times: number[] = [];
  const sentAt: number[] = [];
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const started = performance.now();
    const call = fetch(`${base}/api/beacon-device/all`, { headers })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) errors += 1;
        else {
          times.push(performance.now() - started);
          sentAt.push(started);
        }
      })
      .catch(() => void (errors += 1))
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
  }, 1000 / rate);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return figures(times, errors);
    },
    /** Figures of the requests sent before / from an instant (performance.now()). */
    split(at: number) {
      const before = times.filter((_, i) => sentAt[i]! < at);
      const after = times.filter((_, i) => sentAt[i]! >= at);
      return { before: figures(before, 0), after: figures(after, 0) };
    },
  };
}

async function loadMain(argv: { url?: string; tokens?: string; 'load-token'?: string; macs?: string; from?: string; to?: string; rate: string; type: string; baseline: string }) {
  const base = argv.url!;
  const tokens = argv.tokens!.split(',');
  const headers = { authorization: `Bearer ${argv['load-token']!}`, client: 'bench', clientVersion: '1.1.0', clientOs: 'linux' };
  const userHeaders = (i: number) => ({ ...headers, authorization: `Bearer ${tokens[i % tokens.length]!}` });
  const macs = argv.macs!.split(',');
  const rate = Number(argv.rate);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const warm = loadLoop(base, headers, rate);
  await sleep(1000); // connections and caches
  await warm.stop();
  const baselineLoop = loadLoop(base, headers, rate);
  await sleep(Number(argv.baseline) * 1000);
  const baseline = await baselineLoop.stop();

  process.send?.('queueing');
  const during = loadLoop(base, headers, rate);
  const started = performance.now();
  const answers: number[] = [];
  let exportsAnswered = 0;
  const queued = await Promise.all(
    macs.map(async (mac, i) => {
      const kind = argv.type === 'mixed' ? (i % 2 ? 'excel' : 'pdf') : argv.type === 'xlsx' ? 'excel' : 'pdf';
      const t0 = performance.now();
      const res = await fetch(`${base}/api/beacon-device/history/mac/${mac}/${kind}?dateInitUtc=${argv.from}&dateEndUtc=${argv.to}`, { headers: userHeaders(i) });
      answers.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`export ${mac}: HTTP ${res.status} ${await res.text()}`);
      return ((await res.json()) as Report)._id;
    }),
  );
  exportsAnswered = performance.now();
  const waiting = new Set(queued);
  let generated = 0;
  let failed = 0;
  while (waiting.size > 0) {
    await sleep(200);
    // Polled as one of the users (an enterprise admin sees the enterprise's reports), not on the load loop's session.
    const list = (await (await fetch(`${base}/api/reports`, { headers: userHeaders(0) })).json()) as Report[];
    for (const report of list) {
      if (!waiting.has(report._id) || report.status.id === 1) continue;
      waiting.delete(report._id);
      if (report.status.id === 2) generated += 1;
      else failed += 1;
    }
  }
  const allGeneratedSeconds = round((performance.now() - started) / 1000);
  const duringFigures = await during.stop();
  const phases = during.split(exportsAnswered);
  answers.sort((a, b) => a - b);
  const result: LoadResult = {
    allGeneratedSeconds,
    generated,
    failed,
    exportAnswerMs: { p50: round(percentile(answers, 50)), max: round(answers.at(-1) ?? 0) },
    baseline,
    during: duringFigures,
    whileQueueing: phases.before,
    whileGenerating: phases.after,
  };
  console.log(JSON.stringify(result));
}

function print(result: ReportQueueBenchResult) {
  const line = (label: string, f: LatencyFigures) =>
    `${label.padEnd(34)} ${String(f.requests).padStart(5)} req  p50 ${f.p50} ms  p95 ${f.p95} ms  p99 ${f.p99} ms  max ${f.max} ms${f.errors ? `  (${f.errors} errors)` : ''}`;
  console.log(`Machine: ${result.cores} cores (${result.cpuModel}); load average before ${result.loadAverageBefore}`);
  console.log(`${result.reports} ${result.type} reports × ${result.readingsPerReport.toLocaleString('en')} readings, REPORT_WORKERS=${result.workers}`);
  console.log(`All generated in ${result.allGeneratedSeconds} s (${result.generated} generated, ${result.failed} failed); export calls answered p50 ${result.exportAnswerMs.p50} ms, max ${result.exportAnswerMs.max} ms`);
  console.log(line('API before (device list)', result.baseline));
  console.log(line('API during it all (target p99<100)', result.during));
  console.log(line(`  while the ${result.reports} calls were answered`, result.whileQueueing));
  console.log(line('  after, while generating', result.whileGenerating));
  console.log(`Server event-loop delay while generating: p50 ${result.eventLoopDelayMs.p50} ms, p99 ${result.eventLoopDelayMs.p99} ms, max ${result.eventLoopDelayMs.max} ms`);
  console.log(`Load average after ${loadavg()[0]!.toFixed(2)} (other work on the machine raises every figure)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      reports: { type: 'string', default: '50' },
      readings: { type: 'string', default: '10000' },
      rate: { type: 'string', default: '50' },
      workers: { type: 'string', default: '2' },
      type: { type: 'string', default: 'pdf' },
      baseline: { type: 'string', default: '5' },
      url: { type: 'string' },
      tokens: { type: 'string' },
      'load-token': { type: 'string' },
      macs: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const run =
    positionals[0] === 'load'
      ? loadMain(values)
      : runReportQueueBench({
          reports: Number(values.reports),
          readings: Number(values.readings),
          rate: Number(values.rate),
          workers: Number(values.workers),
          type: values.type as 'pdf' | 'xlsx' | 'mixed',
          baselineSeconds: Number(values.baseline),
        }).then((result) => (values.json ? console.log(JSON.stringify(result)) : print(result)));
  run.then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
