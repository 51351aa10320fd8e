// Abuse benchmark (issue 9), run by scripts/bench.mjs (`npm run bench -- --only abuse`):
//   setup   --db URL --out FILE        migrate; a victim enterprise (a gateway key, 200 devices) and an abusive one (an
//                                       ordinary user with a session, a device in a travel in progress, a gateway
//                                       key); writes FILE (JSON)
//   run     --url URL --mqtt-url URL --setup FILE --baseline S --duration S
//           measures the victim for `baseline` seconds alone, then for `duration` seconds while the abuser (a child
//           process, `abuser`) attacks, and prints one JSON line with both phases' figures.
//   abuser  (forked by run) the ordinary user uploads two inflating spreadsheets at a time, each again a second after
//           its answer (--upload-pause ms; 0 sends them back to back, as fast as the connection takes them); floods
//           the live channel with subscribe messages from many sockets, reconnecting when cut off; and its gateway
//           publishes poison over MQTT (--attacks: any of uploads,flood,poison,gateway-flood). gateway-flood (issue 21):
//           four MQTT connections of the abusive enterprise's gateway key each publish ~1 MB batches (5,000 readings)
//           back to back, the next one as soon as the last is acknowledged. It runs at the lowest CPU priority: an
//           abuser would be on another machine, so only what its traffic costs the server should count here.
// The victim, measured on schedule after 5 s of warm-up (open loop: a request sent into a stall counts its whole
// wait), from its own address (127.0.0.2; the abuser is 127.0.0.1): HTTP ingestion (a batch of 100 readings every
// 50 ms), MQTT QoS 1 (one reading per message, 100 a second, its own connection), its API as its administrator sees
// it (GET /api/beacon-device/all, its 200 devices, every 100 ms) and GET /api/health every 100 ms. After the run,
// scripts/bench.mjs counts the victim's stored readings against the acknowledged ones (nothing acknowledged may be
// missing).
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import { io as connectClient, type Socket } from 'socket.io-client';
import { CLIENT_VERSION, Profile, TravelStatus } from '@sentinela/contract';
import { openDatabase } from '../apps/api/src/db/database';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { sha256 } from '../apps/api/src/lib/tokens';
import { generatedMac, percentile, readingsBody, valuesAt, type BeaconReading } from '../apps/api/src/simulator/virtual-beacons';
import { inflatingSpreadsheet } from './lib/hostile-xlsx';
import { runPoisonGateway, type PoisonGatewayResult } from './lib/poison-gateway';

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    out: { type: 'string' },
    url: { type: 'string' },
    'mqtt-url': { type: 'string' },
    setup: { type: 'string' },
    baseline: { type: 'string', default: '15' },
    duration: { type: 'string', default: '60' },
    sockets: { type: 'string', default: '20' },
    attacks: { type: 'string', default: 'uploads,flood,poison' },
    'upload-pause': { type: 'string', default: '1000' },
  },
});

const VICTIM_DEVICES = 200;
const HTTP_BATCH = 100;
const HTTP_EVERY_MS = 50;
const MQTT_PER_SECOND = 100;
const HEALTH_EVERY_MS = 100;
const API_EVERY_MS = 100;
/** The victim's client address (a loopback alias: Linux routes the whole 127/8 to lo). */
const VICTIM_ADDRESS = '127.0.0.2';
/** gateway-flood: connections of the abuser's key, and readings per message (~1 MB of JSON each). */
const FLOOD_CONNECTIONS = 4;
const FLOOD_BATCH = 5000;
/** Unmeasured load before the baseline. */
const WARMUP_MS = 5_000;
/** A request that has not answered after this long counts as failed (and its wait as this long). */
const GIVE_UP_MS = 30_000;

export interface AbuseSetup {
  victim: { key: string; macs: string[]; token: string };
  abuser: { token: string; travelId: string; key: string; mac: string };
}

async function setup() {
  const database = await openDatabase({ databaseUrl: args.db, dataDir: '' });
  const db = database.db;
  await migrateToLatest(db);
  const gatewayKey = async (enterpriseId: string, name: string) => {
    const key = `sgw_${randomBytes(24).toString('base64url')}`;
    await db.insertInto('gateways').values({ name, enterprise_id: enterpriseId, key_hash: sha256(key), key_prefix: key.slice(0, 10), created_by: null }).execute();
    return key;
  };
  const limits = { temperature_min: 0, temperature_max: 12, humidity_min: 20, humidity_max: 95, no_data_minutes: null, model: null, key: null, location_id: null, group_id: null };

  const victim = await db.insertInto('enterprises').values({ name: 'Vítima Frios', email: null }).returning('id').executeTakeFirstOrThrow();
  const macs = Array.from({ length: VICTIM_DEVICES }, (_, i) => generatedMac(i));
  await db.insertInto('devices').values(macs.map((mac, i) => ({ ...limits, mac, name: `Câmara ${i}`, enterprise_id: victim.id }))).execute();
  const victimKey = await gatewayKey(victim.id, 'Gateway da vítima');
  // The victim's administrator, signed in: its API calls are timed beside its ingestion.
  const victimAdmin = await db
    .insertInto('users')
    .values({ name: 'Administradora da vítima', username: 'vitima.adm', email: 'vitima@bench.example', phone: null, password_hash: '-', profile_id: Profile.EnterpriseAdmin, enterprise_id: victim.id, telegram_chat_id: null, verified: true, is_owner: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const victimToken = randomBytes(32).toString('base64url');

  const abusive = await db.insertInto('enterprises').values({ name: 'Abusiva Ltda', email: null }).returning('id').executeTakeFirstOrThrow();
  // An ordinary user (profile Usuário), signed in: a session is written directly, as the server stores it (hashed).
  const user = await db
    .insertInto('users')
    .values({ name: 'Usuário comum', username: 'abusivo', email: 'abusivo@bench.example', phone: null, password_hash: '-', profile_id: Profile.User, enterprise_id: abusive.id, telegram_chat_id: null, verified: true, is_owner: false })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  for (const [userId, sessionToken] of [[user.id, token], [victimAdmin.id, victimToken]] as const) {
    await db
      .insertInto('sessions')
      .values({ token_hash: sha256(sessionToken), user_id: userId, created_at: now, expires_at: new Date(now.getTime() + 6 * 3_600_000), revoked_at: null, client: 'bench', client_version: null, client_os: null, ip: null })
      .execute();
  }
  const abuserMac = generatedMac(VICTIM_DEVICES);
  const device = await db.insertInto('devices').values({ ...limits, mac: abuserMac, name: 'Baú abusivo', enterprise_id: abusive.id }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('device_users').values({ user_id: user.id, device_id: device.id }).execute();
  const travel = await db
    .insertInto('travels')
    .values({
      enterprise_id: abusive.id, code: 'AB00000001', status: TravelStatus.InProgress, responsible_user_id: user.id, created_by: user.id,
      origin_address: 'São Paulo - SP', origin_lat: -23.56, origin_lng: -46.65, destiny_address: 'Campinas - SP', destiny_lat: -22.9, destiny_lng: -47.06,
      started_at: now, created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('travel_devices').values({ travel_id: travel.id, device_id: device.id, name: null, temperature_min: null, temperature_max: null, humidity_min: null, humidity_max: null }).execute();
  const abuserKey = await gatewayKey(abusive.id, 'Gateway abusivo');
  await sql`ANALYZE`.execute(db);
  await database.close();
  const file: AbuseSetup = { victim: { key: victimKey, macs, token: victimToken }, abuser: { token, travelId: travel.id, key: abuserKey, mac: abuserMac } };
  writeFileSync(args.out!, JSON.stringify(file));
  console.log(JSON.stringify({ victimDevices: macs.length }));
}

/** One timed call: when it was sent (ms since the run began), how long it took, whether it succeeded. */
interface Sample {
  at: number;
  ms: number;
  ok: boolean;
}

interface PhaseFigures {
  count: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

function figures(samples: readonly Sample[], from: number, to: number): PhaseFigures {
  const inPhase = samples.filter((s) => s.at >= from && s.at < to);
  const ms = inPhase.map((s) => s.ms).sort((a, b) => a - b);
  return {
    count: inPhase.length,
    failed: inPhase.filter((s) => !s.ok).length,
    p50: Math.round(percentile(ms, 50)),
    p99: Math.round(percentile(ms, 99)),
    max: Math.round(ms.at(-1) ?? 0),
  };
}

/** `promise`, or `fallback` once `ms` have passed without it settling. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function request(url: string, init: { method: string; headers?: Record<string, string>; body?: string | Buffer }, agent: http.Agent) {
  return new Promise<{ status: number; text: string }>((resolve) => {
    const req = http.request(url, { method: init.method, agent, headers: init.headers, timeout: GIVE_UP_MS }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(init.body);
  });
}

/** The victim's three loops, for `seconds`; the abuser is forked after `baseline` seconds. */
async function run() {
  const file = JSON.parse(readFileSync(args.setup!, 'utf8')) as AbuseSetup;
  const baselineMs = Number(args.baseline) * 1000;
  const totalMs = baselineMs + Number(args.duration) * 1000;
  const url = args.url!;
  // The first seconds (JIT, pools, the readings' partitions) are not measured: `since` counts from their end.
  const t0 = performance.now() + WARMUP_MS;
  const since = () => performance.now() - t0;
  // Readings go back far enough, 100 ms apart per device, that the run never reaches the server's "5 minutes in the
  // future" bound (a refused reading would still be acknowledged over MQTT, and then counted as missing here).
  const startMs = Date.now() - 2 * 3_600_000;
  const cursor = new Array<number>(VICTIM_DEVICES).fill(0);
  const nextReading = (device: number): BeaconReading => {
    const n = cursor[device]!++;
    const ms = startMs + n * 100;
    return { mac: file.victim.macs[device]!, ts: new Date(ms).toISOString(), ...valuesAt(device, 5, ms, n) };
  };

  // The victim's own address: per-address limits (connections, logins) are the abuser's, not its.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, localAddress: VICTIM_ADDRESS } as http.AgentOptions);
  const ingest: Sample[] = [];
  const health: Sample[] = [];
  const api: Sample[] = [];
  const mqttAcks: Sample[] = [];
  let httpAccepted = 0;
  let httpRejected = 0;
  let nextDevice = 0;
  const pending: Promise<unknown>[] = [];
  const every = (periodMs: number, tick: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      if (since() >= totalMs) return clearInterval(timer);
      const p = tick();
      pending.push(p);
    }, periodMs);
    return timer;
  };

  every(HTTP_EVERY_MS, async () => {
    const readings = Array.from({ length: HTTP_BATCH }, () => nextReading(nextDevice++ % VICTIM_DEVICES));
    const at = since();
    const res = await request(`${url}/api/ingest/readings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `ApiKey ${file.victim.key}` }, body: readingsBody(readings) }, agent);
    const ok = res.status === 200;
    ingest.push({ at, ms: since() - at, ok });
    if (ok) {
      const answer = JSON.parse(res.text) as { accepted: number; rejected: unknown[] };
      httpAccepted += answer.accepted;
      httpRejected += answer.rejected.length;
    }
  });
  every(HEALTH_EVERY_MS, async () => {
    const at = since();
    const res = await request(`${url}/api/health`, { method: 'GET' }, agent);
    health.push({ at, ms: since() - at, ok: res.status === 200 });
  });
  const victimSession = { authorization: `Bearer ${file.victim.token}`, client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };
  every(API_EVERY_MS, async () => {
    const at = since();
    const res = await request(`${url}/api/beacon-device/all`, { method: 'GET', headers: victimSession }, agent);
    api.push({ at, ms: since() - at, ok: res.status === 200 });
  });

  // MQTT: the victim's own gateway connection; a disconnect of it would be the abuser's doing.
  let mqttDisconnects = 0;
  const client = mqtt.connect(args['mqtt-url']!, { clientId: `victim-${randomUUID().slice(0, 8)}`, username: 'victim', password: file.victim.key, reconnectPeriod: 500, clean: true });
  client.on('close', () => mqttDisconnects++);
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  mqttDisconnects = 0;
  // Its readings come from the last device; the cursors are shared with the HTTP batches, so no instant repeats.
  const mqttDevice = VICTIM_DEVICES - 1;
  every(1000 / MQTT_PER_SECOND, () => {
    const r = nextReading(mqttDevice);
    const at = since();
    const acked = client.publishAsync(`devices/${r.mac}/readings`, JSON.stringify({ ts: r.ts, temperature: r.temperature, humidity: r.humidity, battery: r.battery }), { qos: 1 }).then(
      () => true,
      () => false,
    );
    return within(acked, GIVE_UP_MS, false).then((ok) => mqttAcks.push({ at, ms: since() - at, ok }));
  });

  await new Promise((r) => setTimeout(r, WARMUP_MS + baselineMs));
  const abuser = fork(fileURLToPath(import.meta.url), ['abuser', '--url', url, '--mqtt-url', args['mqtt-url']!, '--setup', args.setup!, '--duration', args.duration!, '--sockets', args.sockets!, '--attacks', args.attacks!, '--upload-pause', args['upload-pause']!], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let abuserOut = '';
  abuser.stdout!.on('data', (c) => (abuserOut += c));
  const abuserDone = new Promise<number | null>((resolve) => abuser.once('exit', resolve));
  // The abuser bounds its own run; should it hang anyway, it is stopped rather than the figures lost.
  const abuserKill = setTimeout(() => abuser.kill('SIGKILL'), totalMs - baselineMs + 2 * GIVE_UP_MS);

  await new Promise((r) => setTimeout(r, totalMs - baselineMs));
  await Promise.allSettled(pending);
  const abuserExit = await abuserDone;
  clearTimeout(abuserKill);
  if (abuserExit !== 0) throw new Error(`the abuser process failed (${abuserExit}): ${abuserOut}`);
  client.end(true);
  agent.destroy();
  const attack = JSON.parse(abuserOut.trim().split('\n').at(-1)!) as Record<string, unknown>;
  const mqttAcked = mqttAcks.filter((s) => s.ok).length;
  console.log(
    JSON.stringify({
      baselineSeconds: baselineMs / 1000,
      abuseSeconds: (totalMs - baselineMs) / 1000,
      ingest: { baseline: figures(ingest, 0, baselineMs), abuse: figures(ingest, baselineMs, totalMs) },
      mqtt: { baseline: figures(mqttAcks, 0, baselineMs), abuse: figures(mqttAcks, baselineMs, totalMs), disconnects: mqttDisconnects },
      health: { baseline: figures(health, 0, baselineMs), abuse: figures(health, baselineMs, totalMs) },
      api: { baseline: figures(api, 0, baselineMs), abuse: figures(api, baselineMs, totalMs) },
      acknowledged: httpAccepted + mqttAcked,
      httpRejected,
      victimMacs: file.victim.macs,
      abuserMac: file.abuser.mac,
      attack,
    }),
  );
}

/** The abuser: uploads, a subscribe flood and poison over MQTT, all at once, for `duration` seconds. */
async function abuse() {
  // The abuser would be on its own machine: here it yields the CPU it shares with the server, so what is measured is
  // what its traffic costs the server, not what generating that traffic costs this machine.
  setPriority(19);
  const attacks = new Set(args.attacks!.split(','));
  const file = JSON.parse(readFileSync(args.setup!, 'utf8')) as AbuseSetup;
  const url = args.url!;
  const endAt = performance.now() + Number(args.duration) * 1000;
  const going = () => performance.now() < endAt;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const auth = { authorization: `Bearer ${file.abuser.token}` };

  // Two inflating spreadsheets at a time, again and again, whatever the server answers: 5 MB files of 350,000 rows
  // (94 MB inflated), one honest about its sizes and one whose zip headers lie about them (only the reader threads,
  // counting while they inflate, can stop that one).
  const honest = attacks.has('uploads') ? await inflatingSpreadsheet({ rows: 350_000 }) : Buffer.alloc(0);
  const lying = attacks.has('uploads') ? await inflatingSpreadsheet({ rows: 350_000, declaredSheetBytes: 10_000 }) : Buffer.alloc(0);
  const uploads: Record<string, number> = {};
  // Each upload is sent again this long after its answer (0: back to back, a network-level flood of 5 MB bodies).
  const uploadPauseMs = Number(args['upload-pause']);
  const uploader = async (spreadsheet: Buffer) => {
    while (going()) {
      const boundary = `----abuse${randomUUID()}`;
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="relatorios.xlsx"\r\ncontent-type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
        spreadsheet,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await request(`${url}/api/reports/generate-reports-by-excel`, { method: 'POST', headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, body }, agent);
      uploads[res.status] = (uploads[res.status] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, uploadPauseMs));
    }
  };

  // Subscribe floods: each socket sends bursts of subscribe messages (its own travel, and travels that do not exist).
  let subscribesSent = 0;
  let socketDisconnects = 0;
  let socketsRefused = 0;
  const flooder = async () => {
    while (going()) {
      const socket: Socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: { token: file.abuser.token }, reconnection: false, forceNew: true });
      const handshake = new Promise<boolean>((resolve) => {
        socket.once('connect', () => resolve(true));
        socket.once('connect_error', () => resolve(false));
      });
      const connected = await within(handshake, GIVE_UP_MS, false);
      if (!connected) {
        socketsRefused++;
        socket.close();
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      await new Promise<void>((resolve) => {
        const burst = setInterval(() => {
          if (!going() || !socket.connected) {
            clearInterval(burst);
            resolve();
            return;
          }
          for (let i = 0; i < 200; i++) {
            socket.emit('subscribe', i % 2 === 0 ? { travelId: file.abuser.travelId } : { travelId: randomUUID() });
            subscribesSent++;
          }
        }, 10);
        socket.once('disconnect', () => socketDisconnects++);
      });
      socket.close();
    }
  };

  // gateway-flood: ~1 MB batches of the abusive gateway's one device, back to back on each connection (QoS 1: the next
  // as soon as the last is acknowledged), instants never repeated so none is a cheap duplicate.
  const gatewayFlood = { messages: 0, acknowledged: 0, bytes: 0, disconnects: 0 };
  let floodCursor = 0;
  const floodStartMs = Date.now() - 12 * 3_600_000;
  const floodBatch = () => {
    const first = floodCursor;
    floodCursor += FLOOD_BATCH;
    const readings = Array.from({ length: FLOOD_BATCH }, (_, j) => {
      const ms = floodStartMs + (first + j) * 5;
      return { mac: file.abuser.mac, ts: new Date(ms).toISOString(), temperature: 4.25 + (j % 7) / 8, humidity: 61.5, battery: 87, lat: -23.550520 + j / 1e6, lng: -46.633308 - j / 1e6, seq: (first + j) % 65536 };
    });
    return JSON.stringify({ readings });
  };
  const floodConnection = async (n: number) => {
    const client = await mqtt.connectAsync(args['mqtt-url']!, { clientId: `abusivo-flood-${n}`, username: 'abusivo', password: file.abuser.key, reconnectPeriod: 500, clean: true });
    client.on('close', () => {
      if (going()) gatewayFlood.disconnects++;
    });
    while (going()) {
      const payload = floodBatch();
      gatewayFlood.messages++;
      gatewayFlood.bytes += payload.length;
      const acked = await within(client.publishAsync(`devices/${file.abuser.mac}/readings`, payload, { qos: 1 }).then(() => true, () => false), GIVE_UP_MS, false);
      if (acked) gatewayFlood.acknowledged++;
    }
    await client.endAsync(true);
  };

  const attack = Promise.all([
    attacks.has('uploads') ? Promise.all([uploader(honest), uploader(lying)]) : null,
    attacks.has('flood') ? Promise.all(Array.from({ length: Number(args.sockets) }, flooder)) : null,
    !attacks.has('poison') ? null : runPoisonGateway({ mqttUrl: args['mqtt-url']!, username: 'abusivo', password: file.abuser.key, clientId: 'abusivo-1', mac: file.abuser.mac, durationMs: endAt - performance.now(), ratePerSecond: 200 }),
    attacks.has('gateway-flood') ? Promise.all(Array.from({ length: FLOOD_CONNECTIONS }, (_, n) => floodConnection(n))) : null,
  ]);
  // Requests still waiting on a stalled server are given up, so the figures of what was sent are never lost.
  const poison = await within<PoisonGatewayResult | 'não terminou' | null>(attack.then(([, , result]) => result), endAt - performance.now() + GIVE_UP_MS, 'não terminou');
  agent.destroy();
  console.log(JSON.stringify({ uploads, subscribesSent, socketDisconnects, socketsRefused, poison, gatewayFlood: attacks.has('gateway-flood') ? gatewayFlood : null }));
}

const phases: Record<string, () => Promise<void>> = { setup, run, abuser: abuse };
const phase = phases[positionals[0] ?? ''];
if (!phase) throw new Error(`unknown phase ${positionals[0]}: setup | run`);
await phase();
process.exit(0);
