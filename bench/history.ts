/**
 * Read-path benchmark (issue 3): 20 million readings across 2,000 devices over 90 days, then the history calls
 * a user makes, over real HTTP against the real app on PostgreSQL:
 *   - last 2 days of one device (Dados, first page)        target p99 < 20 ms
 *   - 90-day chart series of one device                     target < 100 ms
 *   - reading count of one device (Qtd de registros)        target p99 < 20 ms
 * Usage: tsx bench/history.ts [--devices 2000] [--days 90] [--per-device 10000] [--samples 300]
 * DATABASE_URL (a server's admin URL) is used when set; otherwise a throwaway PostgreSQL is started.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { Profile } from '@sentinela/contract';
import { buildApp } from '../apps/api/src/app';
import { hashPassword } from '../apps/api/src/modules/auth/service';
import { openBenchDatabase } from './lib/bench-database';
import { ensureReadingPartitions } from '../apps/api/src/modules/readings/partitions';
import { loadConfig } from '../apps/api/src/config/config';
import { BENCH_LIMITS_ENV } from '../scripts/lib/server-process.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '2000' },
    days: { type: 'string', default: '90' },
    'per-device': { type: 'string', default: '10000' },
    samples: { type: 'string', default: '300' },
  },
});
const DEVICES = Number(values.devices);
const DAYS = Number(values.days);
const PER_DEVICE = Number(values['per-device']);
const SAMPLES = Number(values.samples);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main() {
  const bench = await openBenchDatabase('bench_history');
  const db = bench.database.db;

  const now = new Date();
  const start = new Date(now.getTime() - DAYS * 86_400_000);
  const stepSeconds = Math.floor((DAYS * 86_400) / PER_DEVICE);
  console.log(`Generating ${(DEVICES * PER_DEVICE).toLocaleString('en')} readings: ${DEVICES} devices × ${PER_DEVICE} over ${DAYS} days (every ${stepSeconds} s)…`);

  const enterprise = await db.insertInto('enterprises').values({ name: 'Bench', email: null }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({ name: 'Bench Admin', username: 'bench.adm', email: 'bench@example.com', phone: null, password_hash: await hashPassword('Bench@2026'), profile_id: Profile.EnterpriseAdmin, enterprise_id: enterprise.id, is_owner: true, verified: true, telegram_chat_id: null })
    .execute();
  await sql`INSERT INTO devices (mac, name, enterprise_id, temperature_min, temperature_max)
            SELECT upper('BE:00:00:' || lpad(to_hex(i / 256), 2, '0') || ':' || lpad(to_hex(i % 256), 2, '0') || ':00'), 'Bench ' || i, ${enterprise.id}, 2, 8
            FROM generate_series(1, ${DEVICES}) i`.execute(db);

  const months: Date[] = [];
  for (let t = start.getTime(); t <= now.getTime() + 31 * 86_400_000; t += 86_400_000) months.push(new Date(t));
  await ensureReadingPartitions(db, months);

  const loadStarted = Date.now();
  const chunk = 100;
  for (let first = 1; first <= DEVICES; first += chunk) {
    await sql`INSERT INTO readings (device_num, ts, temperature, humidity, battery)
      SELECT d, ${start.toISOString()}::timestamptz + make_interval(secs => s * ${stepSeconds}),
             5 + 3 * sin(s / 50.0 + d), 60 + 10 * cos(s / 70.0 + d), 100 - s * 50.0 / ${PER_DEVICE}
      FROM generate_series(${first}::int, ${Math.min(first + chunk - 1, DEVICES)}::int) d, generate_series(0, ${PER_DEVICE - 1}) s`.execute(db);
  }
  await sql`ANALYZE readings`.execute(db);
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  console.log(`Loaded in ${loadSeconds.toFixed(1)} s (${Math.round((DEVICES * PER_DEVICE) / loadSeconds).toLocaleString('en')} rows/s, server-side generate_series)`);

  const config = { ...loadConfig({ ...BENCH_LIMITS_ENV }), env: 'production' as const, logLevel: 'silent', demo: false, webDist: undefined, databaseUrl: bench.url, mqttEnabled: false, noDataCheckSeconds: 0 };
  const { app } = await buildApp({ config, db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${base}/api/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench.adm', password: 'Bench@2026' }) });
  const token = ((await login.json()) as { token: { token: string } }).token.token;
  const headers = { authorization: `Bearer ${token}`, client: 'bench', clientVersion: '1.1.0', clientOs: 'linux' };
  const macs = (await db.selectFrom('devices').select('mac').execute()).map((d) => d.mac);

  const from90 = new Date(now.getTime() - DAYS * 86_400_000).toISOString();
  const cases: Array<[string, (mac: string) => string, number]> = [
    ['last 2 days, first page (Dados)', (mac) => `/api/beacon-device/history/mac/${mac}?limit=50`, 20],
    [`${DAYS}-day chart series (1000 points)`, (mac) => `/api/beacon-device/history/mac/${mac}/series?dateInitUtc=${from90}&points=1000`, 100],
    ['reading count (Qtd de registros)', (mac) => `/api/beacon-device/${mac}/historic-count`, 20],
  ];
  const results: string[] = [`Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); load average before the calls ${loadavg()[0]!.toFixed(2)}`];
  console.log(results[0]);
  for (const [label, path, target] of cases) {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES + 20; i++) {
      const mac = macs[Math.floor(Math.random() * macs.length)]!;
      const t0 = performance.now();
      const res = await fetch(`${base}${path(mac)}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status}`);
      if (i >= 20) times.push(performance.now() - t0); // the first 20 warm caches and connections
    }
    times.sort((a, b) => a - b);
    const line = `${label.padEnd(40)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms  (target p99 < ${target} ms)`;
    console.log(line);
    results.push(line);
  }
  console.log(`Load average after the calls ${loadavg()[0]!.toFixed(2)} (other work on the machine raises every figure)`);
  await app.close();
  await bench.close();
  return results;
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
