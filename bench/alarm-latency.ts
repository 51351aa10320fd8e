// From an out-of-range reading to the alarm at the people's servers (issue 27, item 6): while HTTP ingestion runs at
// full speed (bench/ingest.ts `http`, the load of item 1), probe devices of another enterprise each receive one reading
// above their limit; the time from that reading's POST to the local SMTP server receiving the alarm e-mail and to
// the local Telegram Bot API receiving the sendMessage is taken per alarm, and the p50/p99/max printed.
// It runs the server itself (the real program, as `npm start` does) against the local SMTP and Telegram servers:
//   npx tsx bench/alarm-latency.ts --db URL --key K [--devices 2000] [--probes 200] [--rate 2] [--load 1]
// --key: the gateway key of bench/ingest.ts `setup` (the load's enterprise); --rate probes a second; --load 0 measures
// without the ingestion load (the control).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Profile } from '@sentinela/contract';
import { openDatabase } from '../apps/api/src/db/database';
import { sha256 } from '../apps/api/src/lib/tokens';
import { percentile } from '../apps/api/src/simulator/virtual-beacons';
import { startSmtpServer } from '../apps/api/test/smtp-server';
import { startFakeTelegram } from '../apps/api/test/fake-telegram';
// @ts-expect-error plain ESM helpers shared with the test runner
import { freePort } from '../scripts/lib/postgres.mjs';
import { BENCH_LIMITS_ENV, serverArgs } from '../scripts/lib/server-process.mjs';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    key: { type: 'string' },
    devices: { type: 'string', default: '2000' },
    probes: { type: 'string', default: '200' },
    rate: { type: 'string', default: '2' },
    load: { type: 'string', default: '1' },
    pool: { type: 'string', default: '10' },
  },
});
if (!args.db || !args.key) throw new Error('--db and --key are required');
const root = path.resolve(import.meta.dirname, '..');
const PROBES = Number(args.probes);
const CHAT_ID = 5_590_001;
const EMAIL = 'plantao@sondas.example';

const probeMac = (n: number) => `D0:00:00:00:${((n >> 8) & 0xff).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`.toUpperCase();
const probeName = (n: number) => `Sonda ${String(n).padStart(4, '0')}`;

/** The probes' enterprise: an administrator reachable by e-mail and Telegram, its gateway and its devices (0..8 °C). */
async function setUpProbes(): Promise<string> {
  const database = await openDatabase({ databaseUrl: args.db, dataDir: '' });
  try {
    const enterprise = await database.db.insertInto('enterprises').values({ name: 'Sondas', email: EMAIL }).returning('id').executeTakeFirstOrThrow();
    const user = await database.db
      .insertInto('users')
      .values({
        name: 'Plantão Sondas', username: 'plantao.sondas', email: EMAIL, phone: null, password_hash: 'unusable', profile_id: Profile.EnterpriseAdmin,
        enterprise_id: enterprise.id, is_owner: true, verified: true, telegram_chat_id: String(CHAT_ID),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db.insertInto('notification_channels').values([{ user_id: user.id, channel: 'email' }, { user_id: user.id, channel: 'telegram' }]).execute();
    const key = `sgw_${randomBytes(24).toString('base64url')}`;
    await database.db.insertInto('gateways').values({ name: 'Sondas', enterprise_id: enterprise.id, key_hash: sha256(key), key_prefix: key.slice(0, 10), created_by: null }).execute();
    await database.db
      .insertInto('devices')
      .values(Array.from({ length: PROBES }, (_, n) => ({
        mac: probeMac(n), name: probeName(n), model: null, key: null, enterprise_id: enterprise.id, location_id: null, group_id: null,
        temperature_min: 0, temperature_max: 8, humidity_min: null, humidity_max: null, no_data_minutes: null,
      })))
      .execute();
    return key;
  } finally {
    await database.close();
  }
}

async function waitForHealth(url: string, server: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

/** The ingestion load of item 1, in its own process; resolves with its figures. */
function ingestionLoad(url: string, seconds: number): Promise<{ readingsPerSecond: number; p99: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/ingest.ts'), 'http', '--url', url, '--key', args.key!, '--devices', args.devices!, '--duration', String(seconds)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) return reject(new Error(`ingestion load failed (${code})`));
      resolve(JSON.parse(line));
    });
  });
}

const probeKey = await setUpProbes();
const [smtp, telegram] = await Promise.all([startSmtpServer(), startFakeTelegram()]);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, serverArgs(root), {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env, ...BENCH_LIMITS_ENV, NODE_ENV: 'production', DATABASE_URL: args.db, PORT: String(port), HOST: '127.0.0.1', MQTT_ENABLED: '0',
    DEMO: '0', LOG_LEVEL: 'warn', NO_DATA_CHECK_SECONDS: '0', DB_POOL_SIZE: args.pool, PUBLIC_URL: url,
    SMTP_URL: smtp.url, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot,
    // The local SMTP and Telegram servers listen on loopback.
    OUTGOING_ALLOW_PRIVATE: '1',
  },
});
try {
  await waitForHealth(url, server);
  const interval = 1000 / Number(args.rate);
  const seconds = Math.ceil((PROBES * interval) / 1000) + 10;
  const load = args.load === '1' ? ingestionLoad(url, seconds + 5) : null;
  // Let the load reach its pace before the first probe.
  await new Promise((r) => setTimeout(r, 5000));

  const mail: number[] = [];
  const chat: number[] = [];
  const missing: string[] = [];
  const probes: Promise<void>[] = [];
  const loadBefore = Number((loadavg()[0] ?? 0).toFixed(2));
  for (let n = 0; n < PROBES; n++) {
    const name = probeName(n);
    // Device names are quoted in every e-mail the platform sends (quoteName, issue 21 point 10).
    const mailed = smtp.waitForMail(EMAIL, `Alarme: Temperatura alta em “${name}”`, 60_000).then(() => performance.now());
    const told = telegram.waitForCall((c) => c.method === 'sendMessage' && String(c.params.text).includes(name), 60_000).then(() => performance.now());
    const sent = performance.now();
    const body = JSON.stringify({ readings: [{ mac: probeMac(n), ts: new Date().toISOString(), temperature: 12.5, humidity: 50 }] });
    const answer = await fetch(`${url}/api/ingest/readings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `ApiKey ${probeKey}` }, body });
    if (answer.status !== 200) throw new Error(`probe reading refused: ${answer.status} ${await answer.text()}`);
    probes.push(
      Promise.allSettled([mailed, told]).then(([m, t]) => {
        if (m.status === 'fulfilled') mail.push(m.value - sent);
        else missing.push(`${name} e-mail`);
        if (t.status === 'fulfilled') chat.push(t.value - sent);
        else missing.push(`${name} Telegram`);
      }),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, interval - (performance.now() - sent))));
  }
  await Promise.all(probes);
  const loadAfter = Number((loadavg()[0] ?? 0).toFixed(2));
  const ingestion = load ? await load : null;

  const stats = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { count: sorted.length, p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0) };
  };
  const results = {
    date: new Date().toISOString(),
    machine: { cores: cpus().length, model: cpus()[0]?.model ?? 'unknown' },
    loadAverage: [loadBefore, loadAfter],
    probes: PROBES, probesPerSecond: Number(args.rate), ingestion, email: stats(mail), telegram: stats(chat), missing,
  };
  const outDir = path.join(root, '.tmp/bench');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'alarm-latency.json'), JSON.stringify(results, null, 2));
  const ok = (s: { p99: number }) => (s.p99 < 2000 && missing.length === 0 ? 'ok' : 'ACIMA DA META');
  console.log(`
| Alarme: leitura fora do limite → servidor local (${PROBES} alarmes, ${args.rate}/s) | Resultado | Meta |
|---|---|---|
| Carga de ingestão HTTP ao mesmo tempo | ${ingestion ? `${ingestion.readingsPerSecond.toLocaleString('pt-BR')} leituras/s, confirmação p99 ${ingestion.p99} ms` : 'nenhuma (controle)'} | item 1 |
| E-mail (servidor SMTP local) | p50 ${results.email.p50} ms, p99 ${results.email.p99} ms, máx. ${results.email.max} ms (${ok(results.email)}) | p99 < 2 s |
| Telegram (Bot API local) | p50 ${results.telegram.p50} ms, p99 ${results.telegram.p99} ms, máx. ${results.telegram.max} ms (${ok(results.telegram)}) | p99 < 2 s |
| Alarmes sem mensagem em 60 s | ${missing.length === 0 ? 'nenhum' : missing.join(', ')} | nenhum |
| Carga da máquina (load average 1 min, início → fim) | ${loadBefore} → ${loadAfter} | — |

Resultados em .tmp/bench/alarm-latency.json.`);
  if (missing.length > 0 || results.email.p99 >= 2000 || results.telegram.p99 >= 2000) process.exitCode = 1;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await Promise.all([smtp.close(), telegram.close()]);
}
