// `npm run bench`: the ingestion benchmark on this machine. Starts a throwaway PostgreSQL, runs the server
// in one process and the load generator in another (bench/ingest.ts), and prints:
//   - HTTP batch ingestion, sustained: readings/s and acknowledgement latency (p50/p99),
//   - raw COPY of the very same rows into a table of the same shape, and the ratio,
//   - MQTT QoS 1, one reading per message: readings/s and acknowledgement latency.
// Options: --quick (10 s phases instead of 60 s), --durable (PostgreSQL with fsync and synchronous commit;
// by default the throwaway server runs without them, like the tests), --devices N (2000),
// --concurrency N (HTTP batches in flight, 3), --batch N (readings per request, 5000),
// --connections N and --window N (MQTT gateways and unacknowledged messages each, 8 × 500), --pool N (10).
// Then the history read path (bench/history.ts): 20 million readings over 90 days for 2,000 devices (--quick: 2
// million for 200 devices; --big: 100 million for 1,000 devices over 365 days), and the latency of the history,
// chart-series and count calls over HTTP.
// Then live updates (bench/realtime.ts): 10,000 Socket.IO clients (in 2 processes) following 1,000 travels in
// progress, 1,000 readings a second through HTTP ingestion (--batches 20 a second): every delivery of travel-logs
// and its latency from the ingest acknowledgement (--quick: 15 s; --positions adds travel-location-logs;
// --clients, --travels, --rate change the load; --client-processes spreads the clients over more processes;
// --servers 2 runs two API processes sharing the rooms through a throwaway Redis, clients and batches split).
// Then reports (bench/reports.ts, bench/report-queue.ts): a signed PDF of 10,000 readings, an Excel of 100,000, a
// travel report; and 50 reports queued at once through HTTP while the API is timed under light load.
// Then abuse (bench/abuse.ts, issue 9): while an ordinary user of one enterprise uploads two inflating spreadsheets
// at a time, floods the live channel with subscribe messages and its gateway publishes poison over MQTT, another
// enterprise's HTTP and MQTT ingestion and GET /api/health are timed (p99 target < 500 ms), and its acknowledged
// readings are counted in the database (none may be missing). --abuse-seconds N (60; --quick 20); --abuse-attacks
// uploads,flood,poison (any of them, to see what each costs); --abuse-upload-pause MS (1000: each of the two uploads
// is sent again a second after its answer; 0: back to back).
// Then the web app (issue 15, item 5): builds it and prints the first-load gzip size of each route of
// apps/web/route-budgets.json beside its budget.
// With --servers 2 (or more), after ingestion: MQTT through an external broker (scripts/lib/bench-mqtt-cluster.mjs,
// docs/scaling.md): a throwaway Mosquitto, that many API processes splitting its messages in one shared-subscription
// group (--mqtt-subscribers sessions each, 16), gateways publishing --mqtt-rate messages a second (5,000); prints
// the broker's PUBACK p99, readings stored per second, and checks every acknowledged reading was stored, each
// message delivered to one server only. --only mqtt-cluster runs it alone.
// Then gateway-flood (bench/abuse.ts with --attacks gateway-flood, issue 21 point 4): four MQTT connections of one
// enterprise's gateway key send ~1 MB batches back to back for --flood-seconds (20) while another enterprise ingests
// over HTTP and MQTT and calls its API: that enterprise's p50/p99 and its refused requests (target: p99 < 500 ms,
// none refused), the flooding gateway's stored and throttled figures.
// Then what a person waits for (bench/ux.ts, issue 27 item 9): in Chromium, the median of --ux-runs (5) cold
// contexts from pressing Entrar to the first device of Meus Dispositivos, and of a cold /directions to its first
// row, against a server with the demo data; and where the time goes (the sign-in, the code, the API calls in series).
// Then alarm latency (bench/alarm-latency.ts, issue 27 item 6): while HTTP ingestion runs at full speed, probe devices
// of another enterprise go out of range one by one (--alarm-probes 200, --alarm-rate 2 a second; --alarm-load 0 for
// the same probes without the ingestion load, the control); from each reading's
// POST to the local SMTP server and the local Telegram Bot API receiving its alarm, p50/p99/max.
// --only ingest|history|realtime|reports|abuse|gateway-flood|web|ux|alarms runs one of the nine.
// --soak (alone, never in the default set; issue 27 item 5): --soak-minutes (60) at 2,000 readings a second through
// HTTP ingestion to 2,000 travels followed by 1,000 live clients, alarms opening and ending (every 600 readings of a
// travel, 10 run hot), the server's real jobs on. Every 10 s the server's resident memory and its event-loop delay
// (prom-client's nodejs_eventloop_lag_max_seconds from /metrics) are sampled; at the end: memory growth from minute
// 10 (a sixth of a shorter run) to the end, the largest event-loop delay, deliveries lost, readings acknowledged but
// not stored.
// The machine's load average is printed with each phase: other work on the machine lowers every figure.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, startPostgres } from './lib/postgres.mjs';
import { startRedis } from './lib/redis.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import { mqttClusterBenchmark } from './lib/bench-mqtt-cluster.mjs';
import { formatRouteSizes, routeSizes } from './lib/route-sizes.mjs';
import { BENCH_LIMITS_ENV, serverArgs } from './lib/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, '.tmp/bench');
mkdirSync(outDir, { recursive: true });

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    big: { type: 'boolean', default: false },
    durable: { type: 'boolean', default: false },
    devices: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '3' },
    batch: { type: 'string', default: '5000' },
    connections: { type: 'string', default: '8' },
    window: { type: 'string', default: '500' },
    pool: { type: 'string', default: '10' },
    duration: { type: 'string' },
    only: { type: 'string' },
    clients: { type: 'string', default: '10000' },
    travels: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '1000' },
    batches: { type: 'string', default: '20' },
    'client-processes': { type: 'string', default: '2' },
    servers: { type: 'string', default: '1' },
    positions: { type: 'boolean', default: false },
    'mqtt-subscribers': { type: 'string', default: '16' },
    'mqtt-rate': { type: 'string', default: '5000' },
    'abuse-seconds': { type: 'string' },
    'abuse-attacks': { type: 'string', default: 'uploads,flood,poison' },
    'abuse-upload-pause': { type: 'string', default: '1000' },
    'ux-runs': { type: 'string', default: '5' },
    'alarm-probes': { type: 'string', default: '200' },
    'alarm-rate': { type: 'string', default: '2' },
    'alarm-load': { type: 'string', default: '1' },
    soak: { type: 'boolean', default: false },
    'soak-minutes': { type: 'string', default: '60' },
    'flood-seconds': { type: 'string' },
  },
});
const seconds = args.duration ?? (args.quick ? '10' : '60');

/** Runs a bench phase in its own process; resolves with the JSON line it prints last. */
function phase(name, phaseArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/ingest.ts'), name, ...phaseArgs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) return reject(new Error(`bench phase ${name} failed (${code}): ${out}`));
      resolve(JSON.parse(line));
    });
  });
}

/** CPU seconds used so far by each process that matches (Linux /proc), by pid. */
function cpuSeconds(match) {
  const tick = 100; // USER_HZ
  const byPid = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!match(pid, comm, () => readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) / tick);
    } catch { /* gone */ }
  }
  return byPid;
}

/** Cores used since `before` by the processes alive now (a process that exited meanwhile is not counted). */
function coresSince(before, now, seconds) {
  let used = 0;
  for (const [pid, cpu] of now) used += cpu - (before.get(pid) ?? 0);
  return Number((used / seconds).toFixed(2));
}

async function waitForHealth(url, server) {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

function webSizes() {
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('the web build failed');
  const sizes = routeSizes(path.join(root, 'apps/web'));
  console.log(`\nAplicação web, primeira carga de cada rota (JS + CSS, gzip):\n${formatRouteSizes(sizes)}`);
  writeFileSync(path.join(outDir, 'web.json'), JSON.stringify({ date: new Date().toISOString(), routes: sizes }, null, 2));
  if (sizes.some((s) => s.totalKb > s.budgetKb)) process.exitCode = 1;
}

const cpuModel = cpus()[0]?.model ?? 'unknown';
console.log(`Benchmarks: ${cpus().length} núcleos (${cpuModel}), fases de ${seconds} s, PostgreSQL ${args.durable ? 'com fsync e synchronous_commit' : 'sem fsync (como nos testes)'}`);

const postgres = await startPostgres({ durable: args.durable });
let server;
/** Extra API processes and Redis of the realtime phase with --servers, stopped here whatever happens. */
const cleanups = [];
try {
  // The default set, or the one --only names; the soak runs alone.
  const selected = (name) => !args.soak && (!args.only || args.only === name);
  if (args.soak) await soakBenchmark();
  if (selected('ingest')) await ingestionBenchmark();
  if ((selected('ingest') && Number(args.servers) > 1) || args.only === 'mqtt-cluster') {
    await mqttClusterBenchmark({ root, outDir, postgresUrl: postgres.url, args, seconds, phase, waitForHealth, cleanups, cpu: { cpuSeconds, coresSince } });
  }
  if (selected('history')) {
    let historyArgs = args.quick ? ['--devices', '200', '--per-device', '10000', '--samples', '200'] : ['--devices', '2000', '--per-device', '10000'];
    // --big (issue 15 item 3): 100 M readings, 1,000 devices over 365 days; the year-long chart reads the roll-ups.
    if (args.big) historyArgs = ['--devices', '1000', '--days', '365', '--per-device', '100000'];
    if ((await runScript('bench/history.ts', historyArgs, { DATABASE_URL: postgres.url })) !== 0) process.exitCode = 1;
  }
  if (selected('realtime')) await realtimeBenchmark();
  if (selected('reports')) {
    const render = await runScript('bench/reports.ts', args.quick ? ['--runs', '3'] : []);
    const queue = await runScript('bench/report-queue.ts', args.quick ? ['--reports', '20'] : [], { DATABASE_URL: postgres.url });
    if (render !== 0 || queue !== 0) process.exitCode = 1;
  }
  if (selected('abuse')) await abuseBenchmark('abuse');
  if (selected('gateway-flood')) await abuseBenchmark('gateway-flood');
  if (selected('web')) webSizes();
  if (selected('ux')) await uxBenchmark();
  if (selected('alarms')) await alarmLatencyBenchmark();
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  for (const cleanup of cleanups) await cleanup();
  postgres.stop();
}

/** The server's resident memory (kB, from /proc) and the largest event-loop delay since the last scrape (ms, /metrics). */
async function serverSample(pid, baseUrl, token) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  let lagMaxMs = NaN;
  try {
    const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    lagMaxMs = Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000;
  } catch { /* a missed sample */ }
  return { rssKb, lagMaxMs };
}

/** One long run of live ingestion with clients and alarms (issue 27 item 5): memory, event-loop delay, nothing lost. */
async function soakBenchmark() {
  const minutes = Number(args['soak-minutes']);
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE sentinela_soak');
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = '/sentinela_soak';
  const dbUrl = u.toString();
  const setupFile = path.join(outDir, 'soak-setup.json');
  await realtimePhase('setup', ['--db', dbUrl, '--travels', '2000', '--out', setupFile]);
  const token = randomBytes(24).toString('hex');
  const httpPort = await freePort();
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // The server as in production: its jobs on (no-data check, roll-ups, alarm notifications), metrics behind a token.
    env: { ...process.env, ...BENCH_LIMITS_ENV, NODE_ENV: 'production', DATABASE_URL: dbUrl, PORT: String(httpPort), HOST: '127.0.0.1', MQTT_ENABLED: '0', DEMO: '0', LOG_LEVEL: 'warn', METRICS_TOKEN: token, PUBLIC_URL: `http://127.0.0.1:${httpPort}` },
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  await waitForHealth(baseUrl, child);
  // The event-loop delay of the start (migrations, the first runs of the timers' jobs) apart from the run's: the
  // metric's maximum is since the previous scrape, and the first sample of the run would otherwise carry the start's.
  const startupLagMs = (await serverSample(child.pid, baseUrl, token)).lagMaxMs;
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const settlingLagMs = (await serverSample(child.pid, baseUrl, token)).lagMaxMs;
  const samples = [];
  const started = performance.now();
  const sampler = setInterval(() => {
    serverSample(child.pid, baseUrl, token).then((s) => samples.push({ minute: (performance.now() - started) / 60_000, ...s, load: loadavg()[0] }), () => {});
  }, 10_000);
  const result = await realtimePhase('run', [
    '--url', baseUrl, '--setup', setupFile, '--clients', '1000', '--processes', args['client-processes'], '--rate', '2000', '--batches', '20',
    '--duration', String(minutes * 60), '--spike-every', '600',
  ]);
  clearInterval(sampler);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const stored = Number((await db.query('SELECT count(*) FROM readings')).rows[0].count);
  const alarms = (await db.query('SELECT count(*) AS opened, count(*) FILTER (WHERE NOT active) AS ended FROM alarms')).rows[0];
  await db.end();
  for (const cleanup of cleanups.splice(0)) await cleanup();

  // Memory from minute 10 (a sixth of a shorter run), once the caches and pools have grown to their working size.
  const settledAt = Math.min(10, minutes / 6);
  const settled = samples.find((s) => s.minute >= settledAt) ?? samples[0];
  const last = samples.at(-1);
  const growth = settled && last ? (last.rssKb - settled.rssKb) / settled.rssKb : NaN;
  const lags = samples.map((s) => s.lagMaxMs).filter(Number.isFinite);
  const lagMax = lags.length ? Math.max(...lags) : NaN;
  const lagAfterFirstMinute = Math.max(...samples.filter((s) => s.minute >= 1).map((s) => s.lagMaxMs).filter(Number.isFinite));
  const summary = {
    date: new Date().toISOString(), machine: { cores: cpus().length, model: cpuModel }, postgres: version, minutes, stored, alarms,
    rss: { settledMinute: settledAt, settledMb: Math.round(settled?.rssKb / 1024), lastMb: Math.round(last?.rssKb / 1024), growth }, lagMaxMs: lagMax, lagAfterFirstMinuteMs: lagAfterFirstMinute,
    startupLagMs, settlingLagMs,
    samples, ...result,
  };
  writeFileSync(path.join(outDir, 'soak.json'), JSON.stringify(summary, null, 2));
  const ok = (cond) => (cond ? 'ok' : 'FORA DA META');
  const lostReadings = Math.max(0, result.accepted - stored);
  console.log(`
| Soak: ${minutes} min, 2.000 leituras/s (HTTP), 2.000 viagens, 1.000 clientes ao vivo | Resultado | Meta |
|---|---|---|
| Memória residente do servidor, minuto ${settledAt.toFixed(0)} → fim | ${summary.rss.settledMb} → ${summary.rss.lastMb} MB (${(growth * 100).toFixed(1)} %) (${ok(growth < 0.1)}) | cresce < 10 % |
| Maior atraso do laço de eventos (amostras de 10 s) | ${lagMax.toFixed(0)} ms; depois do 1º minuto ${lagAfterFirstMinute.toFixed(0)} ms (${ok(lagMax <= 200)}) | ≤ 200 ms |
| O mesmo na partida, antes da carga (até a saúde; 5 s depois) | ${startupLagMs.toFixed(0)} ms; ${settlingLagMs.toFixed(0)} ms | — |
| Leituras confirmadas / gravadas | ${result.accepted.toLocaleString('pt-BR')} / ${stored.toLocaleString('pt-BR')} (${ok(lostReadings === 0)}) | nada perdido |
| travel-logs entregues / perdidos | ${result.cards.received.toLocaleString('pt-BR')} de ${result.cards.expected.toLocaleString('pt-BR')}, ${result.cards.lost} perdidos (${ok(result.cards.lost === 0)}); p99 ${result.cards.p99} ms | nada perdido |
| Alarmes abertos / encerrados | ${alarms.opened} / ${alarms.ended} | abrem e encerram |
| Ingestão: confirmação p50 / p99; erros HTTP | ${result.ackP50} / ${result.ackP99} ms; ${result.errors} | — |

PostgreSQL ${version}. Amostras em .tmp/bench/soak.json.`);
  if (!(growth < 0.1) || !(lagMax <= 200) || lostReadings > 0 || result.cards.lost > 0) process.exitCode = 1;
}

/** Alarm delivery under ingestion load (bench/alarm-latency.ts): its own database, the load's devices from `setup`. */
async function alarmLatencyBenchmark() {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE sentinela_alarms');
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = '/sentinela_alarms';
  const { key } = await phase('setup', ['--db', u.toString(), '--devices', args.devices]);
  const code = await runScript('bench/alarm-latency.ts', ['--db', u.toString(), '--key', key, '--devices', args.devices, '--probes', args['alarm-probes'], '--rate', args['alarm-rate'], '--pool', args.pool, '--load', args['alarm-load'] === '0' ? '0' : '1']);
  if (code !== 0) process.exitCode = 1;
}

/** A server with the demo data and the built web app, as `npm start` runs it, timed in Chromium (bench/ux.ts). */
async function uxBenchmark() {
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('the web build failed');
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE sentinela_ux');
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = '/sentinela_ux';
  const httpPort = await freePort();
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, ...BENCH_LIMITS_ENV, NODE_ENV: 'production', DATABASE_URL: u.toString(), PORT: String(httpPort), HOST: '127.0.0.1',
      MQTT_ENABLED: '0', DEMO: '1', DEMO_LIVE: '0', LOG_LEVEL: 'warn', WEB_DIST: path.join(root, 'apps/web/dist'),
    },
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  await waitForHealth(baseUrl, child);
  if ((await runScript('bench/ux.ts', ['--url', baseUrl, '--runs', args['ux-runs'], '--chromium', ensureChromium()])) !== 0) process.exitCode = 1;
  for (const cleanup of cleanups.splice(0)) await cleanup();
}

/** Runs a benchmark script that prints its own table; resolves with its exit code. */
function runScript(file, scriptArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, file), ...scriptArgs], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', resolve);
  });
}

async function ingestionBenchmark() {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE sentinela_bench');
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = '/sentinela_bench';
  const dbUrl = u.toString();

  const { key } = await phase('setup', ['--db', dbUrl, '--devices', args.devices]);
  const httpPort = await freePort();
  const mqttPort = await freePort();
  server = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, ...BENCH_LIMITS_ENV, NODE_ENV: 'production', DATABASE_URL: dbUrl, PORT: String(httpPort), HOST: '127.0.0.1', MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1', MQTT_URL: '', DEMO: '0', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', NO_DATA_CHECK_SECONDS: '0', DB_POOL_SIZE: args.pool,
    },
  });
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  await waitForHealth(baseUrl, server);
  const isServer = (pid) => pid === String(server.pid);
  // This benchmark's own connections (the machine may run other PostgreSQL servers).
  const isPostgres = (_pid, comm, cmdline) => comm === 'postgres' && cmdline().includes('sentinela_bench');
  const load = () => Number(loadavg()[0].toFixed(2));

  let cpu0 = [cpuSeconds(isServer), cpuSeconds(isPostgres), performance.now()];
  const httpLoadBefore = load();
  const http = await phase('http', ['--url', baseUrl, '--key', key, '--devices', args.devices, '--duration', seconds, '--concurrency', args.concurrency, '--batch', args.batch]);
  const wall = (performance.now() - cpu0[2]) / 1000;
  http.serverCpu = coresSince(cpu0[0], cpuSeconds(isServer), wall);
  http.postgresCpu = coresSince(cpu0[1], cpuSeconds(isPostgres), wall);
  http.loadAverage = [httpLoadBefore, load()];
  const httpFile = path.join(outDir, 'http.json');
  writeFileSync(httpFile, JSON.stringify(http));
  console.log(`HTTP: ${http.readingsPerSecond} leituras/s, p50 ${http.p50} ms, p99 ${http.p99} ms`);

  const copy = await phase('copy', ['--db', dbUrl, '--devices', args.devices, '--from', httpFile]);
  console.log(`COPY: ${copy.rowsPerSecond} linhas/s (${copy.rows} linhas)`);

  cpu0 = [cpuSeconds(isServer), cpuSeconds(isPostgres), performance.now()];
  const mqttLoadBefore = load();
  const mqtt = await phase('mqtt', ['--mqtt-url', `mqtt://127.0.0.1:${mqttPort}`, '--key', key, '--devices', args.devices, '--duration', seconds, '--connections', args.connections, '--window', args.window, '--start', String(http.startMs)]);
  const mqttWall = (performance.now() - cpu0[2]) / 1000;
  mqtt.serverCpu = coresSince(cpu0[0], cpuSeconds(isServer), mqttWall);
  mqtt.postgresCpu = coresSince(cpu0[1], cpuSeconds(isPostgres), mqttWall);
  mqtt.loadAverage = [mqttLoadBefore, load()];

  const ratio = http.readingsPerSecond / copy.rowsPerSecond;
  const summary = { date: new Date().toISOString(), machine: { cores: cpus().length, model: cpuModel }, postgres: version, durable: args.durable, seconds: Number(seconds), http, copy, ratio, mqtt };
  writeFileSync(path.join(outDir, 'ingest.json'), JSON.stringify(summary, null, 2));

  const ok = (cond) => (cond ? 'ok' : 'ABAIXO DA META');
  console.log(`
| Medida | Resultado | Meta |
|---|---|---|
| HTTP, lotes de ${http.batch} (${http.devicesPerBatch} dispositivos × ${http.batch / http.devicesPerBatch}), ${http.concurrency} em paralelo, ${http.seconds} s | ${http.readingsPerSecond.toLocaleString('pt-BR')} leituras/s (${ok(http.readingsPerSecond >= 100_000)}) | ≥ 100.000/s |
| HTTP, latência de confirmação | p50 ${http.p50} ms, p99 ${http.p99} ms (${ok(http.p99 < 250)}) | p99 < 250 ms |
| COPY das mesmas ${copy.rows.toLocaleString('pt-BR')} linhas | ${copy.rowsPerSecond.toLocaleString('pt-BR')} linhas/s | — |
| HTTP ÷ COPY | ${(ratio * 100).toFixed(0)} % (${ok(ratio >= 0.5)}) | ≥ 50 % (issue 15) |
| MQTT QoS 1, 1 leitura por mensagem, ${mqtt.connections} conexões × ${mqtt.window} em voo, ${mqtt.seconds} s | ${mqtt.readingsPerSecond.toLocaleString('pt-BR')} leituras/s (${ok(mqtt.readingsPerSecond >= 40_000)}), p50 ${mqtt.p50} ms, p99 ${mqtt.p99} ms | ≥ 40.000/s (issue 15) |
| CPU (núcleos) durante HTTP / MQTT | servidor ${http.serverCpu} / ${mqtt.serverCpu}; PostgreSQL ${http.postgresCpu} / ${mqtt.postgresCpu} | — |
| Carga da máquina (load average 1 min, início → fim) | HTTP ${http.loadAverage.join(' → ')}; MQTT ${mqtt.loadAverage.join(' → ')} | — |

PostgreSQL ${version}; ${http.rejected + 0} leituras rejeitadas, ${http.errors} erros HTTP. Resultados em .tmp/bench/ingest.json.`);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}

/** Runs a phase of bench/realtime.ts; resolves with the JSON line it prints last. */
function realtimePhase(name, phaseArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/realtime.ts'), name, ...phaseArgs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) return reject(new Error(`realtime phase ${name} failed (${code}): ${out}`));
      resolve(JSON.parse(line));
    });
  });
}

async function realtimeBenchmark() {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE sentinela_realtime');
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = '/sentinela_realtime';
  const dbUrl = u.toString();
  const setupFile = path.join(outDir, 'realtime-setup.json');
  const seconds = args.duration ?? (args.quick ? '15' : '60');
  await realtimePhase('setup', ['--db', dbUrl, '--travels', args.travels, '--out', setupFile]);

  const count = Number(args.servers);
  const redis = count > 1 ? await startRedis() : null;
  if (redis) cleanups.push(() => redis.stop());
  const servers = [];
  const baseUrls = [];
  for (let i = 0; i < count; i++) {
    const httpPort = await freePort();
    const child = spawn(process.execPath, serverArgs(root), {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env, ...BENCH_LIMITS_ENV, NODE_ENV: 'production', DATABASE_URL: dbUrl, PORT: String(httpPort), HOST: '127.0.0.1', MQTT_ENABLED: '0',
        DEMO: '0', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', NO_DATA_CHECK_SECONDS: '0', DB_POOL_SIZE: args.pool, REDIS_URL: redis?.url ?? '',
      },
    });
    servers.push(child);
    cleanups.push(async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    });
    baseUrls.push(`http://127.0.0.1:${httpPort}`);
    await waitForHealth(baseUrls[i], child);
  }
  const isServer = (pid) => servers.some((s) => String(s.pid) === pid);
  const isPostgres = (_pid, comm, cmdline) => comm === 'postgres' && cmdline().includes('sentinela_realtime');
  const loadBefore = Number(loadavg()[0].toFixed(2));
  const cpu0 = [cpuSeconds(isServer), cpuSeconds(isPostgres), performance.now()];
  const result = await realtimePhase('run', [
    '--url', baseUrls.join(','), '--setup', setupFile, '--clients', args.clients, '--processes', args['client-processes'], '--rate', args.rate, '--batches', args.batches,
    '--duration', seconds, ...(args.positions ? ['--positions'] : []),
  ]);
  const wall = (performance.now() - cpu0[2]) / 1000;
  result.serverCpu = coresSince(cpu0[0], cpuSeconds(isServer), wall);
  result.postgresCpu = coresSince(cpu0[1], cpuSeconds(isPostgres), wall);
  result.loadAverage = [loadBefore, Number(loadavg()[0].toFixed(2))];
  const summary = { date: new Date().toISOString(), machine: { cores: cpus().length, model: cpuModel }, postgres: version, ...result };
  writeFileSync(path.join(outDir, 'realtime.json'), JSON.stringify(summary, null, 2));
  for (const cleanup of cleanups.splice(0)) await cleanup();

  const ok = (cond) => (cond ? 'ok' : 'ABAIXO DA META');
  const rows = [['travel-logs', result.cards], ...(result.positions ? [['travel-location-logs', result.positions]] : [])];
  console.log(`
| Medida (${result.servers} servidor(es), ${result.clients.toLocaleString('pt-BR')} clientes em ${result.processes} processos, ${result.travels.toLocaleString('pt-BR')} viagens, ${result.batchesPerSecond} lotes/s, ${result.seconds} s) | Resultado | Meta |
|---|---|---|
| Ingestão HTTP | ${result.readingsPerSecond.toLocaleString('pt-BR')} leituras/s, confirmação p50 ${result.ackP50} ms, p99 ${result.ackP99} ms | 1.000/s |
${rows.map(([topic, r]) => `| ${topic}: entregas | ${r.received.toLocaleString('pt-BR')} de ${r.expected.toLocaleString('pt-BR')} (${r.deliveriesPerSecond.toLocaleString('pt-BR')}/s); agrupadas ${r.coalesced}, perdidas ${r.lost} (${ok(r.missing === 0)}) | todas |
| ${topic}: confirmação da ingestão → cliente | p50 ${r.p50} ms, p99 ${r.p99} ms, máx. ${r.max} ms (${ok(r.p99 < 50)}) | p99 < 50 ms |
| ${topic}: p99 de cada segundo | mediana ${r.secondP99Median} ms; segundos com p99 < 50 ms: ${r.secondsUnder50} | — |
| ${topic}: envio da ingestão → cliente | p50 ${r.fromRequestP50} ms, p99 ${r.fromRequestP99} ms | — |`).join('\n')}
| Conexão e assinatura dos clientes | ${result.connectSeconds} s | — |
| Processos dos clientes (o gerador de carga): atraso do laço de eventos p99 / máx.; CPU | ${result.clientLoad.loopDelayP99} / ${result.clientLoad.loopDelayMax} ms; ${result.clientLoad.cores} núcleos | — |
| CPU (núcleos): servidor(es) / PostgreSQL | ${result.serverCpu} / ${result.postgresCpu} | — |
| Carga da máquina (load average 1 min, início → fim) | ${result.loadAverage.join(' → ')} | — |

PostgreSQL ${version}; ${result.errors} erros HTTP. Resultados em .tmp/bench/realtime.json.`);
}

/** Runs a phase of bench/abuse.ts; resolves with the JSON line it prints last. */
function abusePhase(name, phaseArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/abuse.ts'), name, ...phaseArgs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) return reject(new Error(`abuse phase ${name} failed (${code}): ${out}`));
      resolve(JSON.parse(line));
    });
  });
}

/**
 * An abuse scenario (bench/abuse.ts): `abuse` (issue 9: uploads, socket flood, poison; --abuse-attacks) or
 * `gateway-flood` (issue 21: four MQTT connections of one enterprise's gateway key sending ~1 MB batches).
 */
async function abuseBenchmark(scenario) {
  const flood = scenario === 'gateway-flood';
  const dbName = flood ? 'sentinela_gateway_flood' : 'sentinela_abuse';
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = `/${dbName}`;
  const dbUrl = u.toString();
  const setupFile = path.join(outDir, `${scenario}-setup.json`);
  await abusePhase('setup', ['--db', dbUrl, '--out', setupFile]);

  // The production defaults of every limit: the abuser is an ordinary user, not a load generator.
  const httpPort = await freePort();
  const mqttPort = await freePort();
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, NODE_ENV: 'production', DATABASE_URL: dbUrl, PORT: String(httpPort), HOST: '127.0.0.1', MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1', MQTT_URL: '', DEMO: '0', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', NO_DATA_CHECK_SECONDS: '0',
    },
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  await waitForHealth(baseUrl, child);
  const loadBefore = Number(loadavg()[0].toFixed(2));
  const duration = flood ? (args['flood-seconds'] ?? '20') : (args['abuse-seconds'] ?? (args.quick ? '20' : '60'));
  const result = await abusePhase('run', [
    '--url', baseUrl, '--mqtt-url', `mqtt://127.0.0.1:${mqttPort}`, '--setup', setupFile,
    '--attacks', flood ? 'gateway-flood' : args['abuse-attacks'], '--upload-pause', args['abuse-upload-pause'], '--baseline', args.quick || flood ? '10' : '15', '--duration', duration,
  ]);
  const loadAfter = Number(loadavg()[0].toFixed(2));
  for (const cleanup of cleanups.splice(0)) await cleanup();

  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const stored = Number((await db.query('SELECT count(*) FROM readings r JOIN devices d ON d.num = r.device_num WHERE d.mac = ANY($1)', [result.victimMacs])).rows[0].count);
  // The flooding gateway: readings it got stored, and its messages acknowledged as throttled (ADR 52).
  const abuserStored = Number((await db.query('SELECT count(*) FROM readings r JOIN devices d ON d.num = r.device_num WHERE d.mac = $1', [result.abuserMac])).rows[0].count);
  const throttled = Number((await db.query("SELECT coalesce(sum(count), 0) AS n FROM ingest_rejections WHERE reason = 'throttled'")).rows[0].n);
  await db.end();
  delete result.victimMacs;
  const missing = Math.max(0, result.acknowledged - stored);
  // Every refused request of the victim while the abuse lasted (ingestion, API, health; MQTT messages not acknowledged).
  const refused = result.ingest.abuse.failed + result.mqtt.abuse.failed + result.api.abuse.failed + result.health.abuse.failed;
  const summary = { date: new Date().toISOString(), scenario, machine: { cores: cpus().length, model: cpuModel }, postgres: version, loadAverage: [loadBefore, loadAfter], uploadPauseMs: Number(args['abuse-upload-pause']), stored, missing, refused, abuserStored, throttled, ...result };
  writeFileSync(path.join(outDir, `${scenario}.json`), JSON.stringify(summary, null, 2));

  const ok = (cond) => (cond ? 'ok' : 'ACIMA DA META');
  const row = (label, f) => `| ${label} | p50 ${f.baseline.p50} ms, p99 ${f.baseline.p99} ms (${f.baseline.count}) | p50 ${f.abuse.p50} ms, p99 ${f.abuse.p99} ms, máx. ${f.abuse.max} ms, ${f.abuse.failed} falhas (${f.abuse.count}) (${ok(f.abuse.p99 < 500 && f.abuse.failed === 0)}) | p99 < 500 ms, 0 falhas |`;
  const a = result.attack;
  const attackRows = flood
    ? `| Abuso: 4 conexões MQTT da chave de um gateway, lotes de ~1 MB (5.000 leituras) um após o outro | ${a.gatewayFlood.messages} mensagens (${(a.gatewayFlood.bytes / 1e6).toFixed(0)} MB), ${a.gatewayFlood.acknowledged} confirmadas, ${a.gatewayFlood.disconnects} desconexões | ${abuserStored.toLocaleString('pt-BR')} leituras gravadas, ${throttled} mensagens descartadas pela cota (throttled) | — |`
    : `| Abuso: envios de planilha, 2 ao mesmo tempo, pausa de ${args['abuse-upload-pause']} ms (status → quantos) | ${JSON.stringify(a.uploads)} | — | — |
| Abuso: mensagens subscribe / sockets cortados / recusados | ${a.subscribesSent?.toLocaleString('pt-BR')} / ${a.socketDisconnects} / ${a.socketsRefused} | — | — |
| Abuso: veneno MQTT | ${JSON.stringify(a.poison)} | — | — |`;
  console.log(`
| Vítima (outra empresa), ${result.baselineSeconds} s sozinha, depois ${result.abuseSeconds} s sob abuso (${scenario}) | Sozinha | Sob abuso | Meta |
|---|---|---|---|
${row('Ingestão HTTP (lotes de 100 a cada 50 ms)', result.ingest)}
${row('Ingestão MQTT QoS 1 (100 mensagens/s)', result.mqtt)}
${row('API: GET /api/beacon-device/all (a cada 100 ms)', result.api)}
${row('GET /api/health (a cada 100 ms)', result.health)}
| Requisições da vítima recusadas sob abuso (ingestão, MQTT, API, health) | — | ${refused} (${refused === 0 ? 'ok' : 'RECUSADAS'}) | 0 |
| Leituras confirmadas / gravadas / faltando | ${result.acknowledged.toLocaleString('pt-BR')} / ${stored.toLocaleString('pt-BR')} / ${missing} (${missing === 0 ? 'ok' : 'PERDA'}) | desconexões MQTT da vítima: ${result.mqtt.disconnects} | nada perdido |
${attackRows}
| Carga da máquina (load average 1 min, início → fim) | ${loadBefore} → ${loadAfter} | — | — |

PostgreSQL ${version}. Resultados em .tmp/bench/${scenario}.json.`);
  const late = [result.ingest, result.health, ...(flood ? [result.mqtt, result.api] : [])].some((f) => f.abuse.p99 >= 500);
  if (missing > 0 || late || (flood && refused > 0)) process.exitCode = 1;
}
