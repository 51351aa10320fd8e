// Live-update benchmark (issue 4), run by scripts/bench.mjs (`npm run bench -- --only realtime`):
//   setup   --db URL --travels N --out FILE          migrate; one enterprise, N travels in progress with a device
//                                                     each, sessions, a gateway key; writes FILE (JSON)
//   run     --url URL[,URL…] --setup FILE --clients C --processes P --rate R --batches B --duration S [--positions]
//           opens C Socket.IO clients in P child processes (client k follows travel k mod N), then posts R readings
//           per second through HTTP ingestion (B batches a second, each reading the next one of its travel), and
//           measures every delivery of travel-logs (and with --positions of the positions: beside the cards in
//           travel-logs, ADR 47, or alone in travel-location-logs). With several URLs
//           (API processes sharing rooms through Redis), client process p connects to URL p mod n and batch k
//           goes to URL k mod n, as behind a load balancer.
//           --spike-every N: every N readings of a travel, 10 run hot, so alarms open and end during the run
//   clients (forked by run)
// Latency is taken on the machine's monotonic clock (process.hrtime), which every process shares: from the
// ingest acknowledgement (the HTTP answer, sent after the commit) to the client's receipt of the message that
// carries that reading. A delivery can come before the acknowledgement (the feed starts right after the commit,
// the answer travels back meanwhile): it then counts as 0 ms. `run` prints one JSON line with the figures.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { io as connectClient, type Socket } from 'socket.io-client';
import { Profile, TravelStatus } from '@sentinela/contract';
import { openDatabase } from '../apps/api/src/db/database';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { sha256 } from '../apps/api/src/lib/tokens';
import { generatedMac, percentile, readingsBody, valuesAt, type BeaconReading } from '../apps/api/src/simulator/virtual-beacons';

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    out: { type: 'string' },
    url: { type: 'string' },
    setup: { type: 'string' },
    travels: { type: 'string', default: '1000' },
    sessions: { type: 'string', default: '100' },
    clients: { type: 'string', default: '10000' },
    processes: { type: 'string', default: '2' },
    rate: { type: 'string', default: '1000' },
    batches: { type: 'string', default: '20' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    positions: { type: 'boolean', default: false },
    from: { type: 'string', default: '0' },
    count: { type: 'string', default: '0' },
    base: { type: 'string', default: '0' },
    // Every N readings of a travel, 10 run 5 °C hot: its alarm opens and ends (the soak, issue 27 item 5). 0: never.
    'spike-every': { type: 'string', default: '0' },
  },
});

interface SetupFile {
  key: string;
  tokens: string[];
  travelIds: string[];
  macs: string[];
}

/** Milliseconds on the clock all processes of the machine share. */
const mono = () => Number(process.hrtime.bigint()) / 1e6;

async function setup() {
  const travels = Number(args.travels);
  const database = await openDatabase({ databaseUrl: args.db, dataDir: '' });
  const db = database.db;
  await migrateToLatest(db);
  const enterprise = await db.insertInto('enterprises').values({ name: 'Benchmark ao vivo', email: null }).returning('id').executeTakeFirstOrThrow();
  // Nobody logs in: sessions are written directly (only a token's hash is stored, as the server does).
  const user = await db
    .insertInto('users')
    .values({ name: 'Bench', username: 'bench.adm', email: 'bench@bench.example', phone: null, password_hash: '-', profile_id: Profile.EnterpriseAdmin, enterprise_id: enterprise.id, telegram_chat_id: null, verified: true, is_owner: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tokens = Array.from({ length: Number(args.sessions) }, () => randomBytes(32).toString('base64url'));
  const now = new Date();
  // A day: the server ends a socket when its session expires (P2), and sessions of one hour ended the one-hour soak's
  // sockets in its last seconds, every client's last readings counted as lost.
  await db
    .insertInto('sessions')
    .values(tokens.map((t) => ({ token_hash: sha256(t), user_id: user.id, created_at: now, expires_at: new Date(now.getTime() + 86_400_000), revoked_at: null, client: 'bench', client_version: null, client_os: null, ip: null })))
    .execute();
  const key = `sgw_${randomBytes(24).toString('base64url')}`;
  await db.insertInto('gateways').values({ name: 'Benchmark ao vivo', enterprise_id: enterprise.id, key_hash: sha256(key), key_prefix: key.slice(0, 10), created_by: null }).execute();

  const macs = Array.from({ length: travels }, (_, i) => generatedMac(i));
  const devices = await db
    .insertInto('devices')
    .values(macs.map((mac, i) => ({ mac, name: `Baú ${i}`, model: null, key: null, enterprise_id: enterprise.id, location_id: null, group_id: null, temperature_min: 0, temperature_max: 10, humidity_min: 20, humidity_max: 95, no_data_minutes: null })))
    .returning(['id', 'mac'])
    .execute();
  const deviceOf = new Map(devices.map((d) => [d.mac, d.id]));
  const started = new Date(now.getTime() - 3_600_000);
  const travelIds: string[] = [];
  for (let i = 0; i < travels; i += 500) {
    const rows = await db
      .insertInto('travels')
      .values(macs.slice(i, i + 500).map((_, k) => ({
        enterprise_id: enterprise.id, code: `RT${String(i + k).padStart(8, '0')}`, status: TravelStatus.InProgress, responsible_user_id: user.id, created_by: user.id,
        origin_address: 'São Paulo - SP', origin_lat: -23.56, origin_lng: -46.65, destiny_address: 'Rio de Janeiro - RJ', destiny_lat: -22.89, destiny_lng: -43.22,
        started_at: started, created_at: started,
      })))
      .returning('id')
      .execute();
    travelIds.push(...rows.map((r) => r.id));
  }
  await db.insertInto('travel_devices').values(travelIds.map((travelId, i) => ({ travel_id: travelId, device_id: deviceOf.get(macs[i]!)!, name: null, temperature_min: null, temperature_max: null, humidity_min: null, humidity_max: null }))).execute();
  await sql`ANALYZE`.execute(db);
  await database.close();
  const file: SetupFile = { key, tokens, travelIds, macs };
  writeFileSync(args.out!, JSON.stringify(file));
  console.log(JSON.stringify({ travels, sessions: tokens.length }));
}

/** Deliveries as parallel columns: travel index, reading sequence number, receipt time, topic (0 cards, 1 position). */
interface Deliveries {
  travel: number[];
  seq: number[];
  at: number[];
  kind: number[];
}

/** A client's socket closed during the run, not by the run. */
interface Dropped {
  client: number;
  travel: number;
  /** mono() at the disconnection. */
  at: number;
  reason: string;
}

/** How busy a client process was from the start of the run to its end. */
interface ClientLoad {
  /** Its event loop's delay, p99 and max, ms (sampled every 10 ms). */
  loopDelayP99: number;
  loopDelayMax: number;
  /** CPU used, in cores. */
  cores: number;
}

/** A child process holding `count` clients, from client number `from`. */
async function clients() {
  const file = JSON.parse(readFileSync(args.setup!, 'utf8')) as SetupFile;
  const from = Number(args.from);
  const count = Number(args.count);
  const base = Number(args.base);
  const travels = file.travelIds.length;
  const got: Deliveries = { travel: [], seq: [], at: [], kind: [] };
  const sockets: Socket[] = [];
  // Disconnections the run did not ask for (clients do not reconnect): when, why, and the travel's newest sequence
  // number then. A client gone for good makes every later reading of its travel read as lost.
  const dropped: Dropped[] = [];
  let stopping = false;
  const open = async (k: number) => {
    const t = k % travels;
    const travelId = file.travelIds[t]!;
    const socket = connectClient(args.url!, { path: '/socket.io', transports: ['websocket'], auth: { token: file.tokens[k % file.tokens.length] }, reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    socket.on('disconnect', (reason, description) => {
      if (stopping) return;
      const detail = description && typeof description === 'object' && 'description' in description ? String((description as { description: unknown }).description) : '';
      dropped.push({ client: k, travel: t, at: mono(), reason: detail ? `${reason}: ${detail}` : reason });
    });
    // The cards, and the newest position in the same message when the device moved (ADR 47).
    socket.on(`travel-logs:${travelId}`, (devices: { last_update_date: string }[], position?: { createdAt: string }) => {
      const at = mono();
      got.travel.push(t);
      got.seq.push(Math.round((Date.parse(devices[0]!.last_update_date) - base) / 1000));
      got.at.push(at);
      got.kind.push(0);
      if (!position) return;
      got.travel.push(t);
      got.seq.push(Math.round((Date.parse(position.createdAt) - base) / 1000));
      got.at.push(at);
      got.kind.push(1);
    });
    socket.on(`travel-location-logs:${travelId}`, (position: { createdAt: string }) => {
      const at = mono();
      got.travel.push(t);
      got.seq.push(Math.round((Date.parse(position.createdAt) - base) / 1000));
      got.at.push(at);
      got.kind.push(1);
    });
    const ack = (await socket.emitWithAck('subscribe', { travelId })) as { ok: boolean; error?: string };
    if (!ack.ok) throw new Error(`subscribe refused: ${ack.error}`);
  };
  // In waves: 10,000 handshakes at once would only queue in the server's database pool.
  for (let k = 0; k < count; k += 200) await Promise.all(Array.from({ length: Math.min(200, count - k) }, (_, j) => open(from + k + j)));
  // The load generator's own state while it receives (ADR 47): a client process that cannot keep up stamps its
  // receipts late, and that delay would read as the server's. Its event loop's delay and its CPU say so.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuFrom = process.cpuUsage();
  const wallFrom = performance.now();
  process.send!({ type: 'ready' });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'count') process.send!({ type: 'count', n: got.at.length });
    if (message.type !== 'stop') return;
    loopDelay.disable();
    const cpu = process.cpuUsage(cpuFrom);
    const load: ClientLoad = {
      loopDelayP99: loopDelay.percentile(99) / 1e6,
      loopDelayMax: loopDelay.max / 1e6,
      cores: (cpu.user + cpu.system) / 1000 / (performance.now() - wallFrom),
    };
    stopping = true;
    for (const socket of sockets) socket.disconnect();
    process.send!({ type: 'deliveries', got, load, dropped }, () => process.exit(0));
  });
}

async function run() {
  const file = JSON.parse(readFileSync(args.setup!, 'utf8')) as SetupFile;
  const travels = file.travelIds.length;
  const clientCount = Number(args.clients);
  const processes = Number(args.processes);
  const rate = Number(args.rate);
  const batchesPerSecond = Number(args.batches);
  const durationS = Number(args.duration);
  const warmupS = Number(args.warmup);
  // Readings of second n carry time base + n s: the clients read the sequence number back from the message.
  const base = Date.now() - 2000;
  const urls = args.url!.split(',').map((u) => new URL(u));

  const children: ChildProcess[] = [];
  const perChild = Math.ceil(clientCount / processes);
  const opened = performance.now();
  await Promise.all(
    Array.from({ length: processes }, (_, p) => {
      const count = Math.max(0, Math.min(perChild, clientCount - p * perChild));
      const child = fork(fileURLToPath(import.meta.url), ['clients', '--url', urls[p % urls.length]!.origin, '--setup', args.setup!, '--from', String(p * perChild), '--count', String(count), '--base', String(base)], {
        // 5,000 sockets per process allocate fast: the same young-generation size as the server, fewer pauses.
        execArgv: ['--max-semi-space-size=64', '--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      return new Promise<void>((resolve, reject) => {
        child.once('message', (m: { type: string }) => (m.type === 'ready' ? resolve() : reject(new Error(String(m.type)))));
        child.once('exit', (code) => reject(new Error(`client process exited (${code})`)));
      });
    }),
  );
  const connectSeconds = (performance.now() - opened) / 1000;
  const watchers = new Array<number>(travels).fill(0);
  for (let k = 0; k < clientCount; k++) watchers[k % travels]!++;

  // Ingestion: `rate` readings a second in `batchesPerSecond` batches; each travel gets its next reading once
  // a second (travel t in batch t mod batchesPerSecond), so the feed never has two readings of a travel to merge.
  const seconds = durationS;
  const sent = new Float64Array(travels * (seconds + 1)).fill(NaN);
  const acked = new Float64Array(travels * (seconds + 1)).fill(NaN);
  const ackLatencies: number[] = [];
  let errors = 0;
  let accepted = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const ingestUrls = urls.map((u) => new URL('/api/ingest/readings', u));
  const post = (body: string, url: URL) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `ApiKey ${file.key}`, 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  const spikes = Number(args['spike-every']) > 0 ? { spikeEvery: Number(args['spike-every']), spikeLength: 10 } : {};
  const perBatch = Math.ceil(rate / batchesPerSecond);
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  const t0Mono = mono();
  const tickMs = 1000 / batchesPerSecond;
  for (let tick = 0; tick < seconds * batchesPerSecond; tick++) {
    const wait = t0 + tick * tickMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const seq = Math.floor(tick / batchesPerSecond);
    const group = tick % batchesPerSecond;
    const ts = new Date(base + seq * 1000).toISOString();
    const readings: BeaconReading[] = [];
    const batchTravels: number[] = [];
    for (let t = group; t < travels && readings.length < perBatch; t += batchesPerSecond) {
      const values = valuesAt(t, 5, base + seq * 1000, seq, spikes);
      const reading: BeaconReading = { mac: file.macs[t]!, ts, ...values };
      if (args.positions) Object.assign(reading, { lat: -23 + seq * 0.001 + t * 1e-6, lng: -46 + seq * 0.001 });
      readings.push(reading);
      batchTravels.push(t);
    }
    const body = readingsBody(readings);
    const started = mono();
    for (const t of batchTravels) sent[t * (seconds + 1) + seq] = started;
    inFlight.push(
      post(body, ingestUrls[tick % ingestUrls.length]!).then(
        (res) => {
          const at = mono();
          if (res.status !== 200) {
            errors++;
            return;
          }
          accepted += (JSON.parse(res.text) as { accepted: number }).accepted;
          ackLatencies.push(at - started);
          for (const t of batchTravels) acked[t * (seconds + 1) + seq] = at;
        },
        () => void errors++,
      ),
    );
  }
  await Promise.all(inFlight);
  const ingestSeconds = (performance.now() - t0) / 1000;
  agent.destroy();
  // The last messages are on their way: wait until the clients stop receiving (at most 30 s), then collect.
  const received = () =>
    Promise.all(children.map((child) => new Promise<number>((resolve) => {
      const listener = (m: { type: string; n?: number }) => {
        if (m.type !== 'count') return;
        child.off('message', listener);
        resolve(m.n!);
      };
      child.on('message', listener);
      child.send({ type: 'count' });
    }))).then((counts) => counts.reduce((a, b) => a + b, 0));
  const expectedAll = accepted * (clientCount / travels) * (args.positions ? 2 : 1);
  for (let last = -1, waited = 0; waited < 30_000; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await received();
    if (now >= expectedAll || now === last) break;
    last = now;
  }
  const stopped = await Promise.all(
    children.map(
      (child) =>
        new Promise<{ got: Deliveries; load: ClientLoad; dropped: Dropped[] }>((resolve) => {
          child.on('message', (m: { type: string; got?: Deliveries; load?: ClientLoad; dropped?: Dropped[] }) => m.type === 'deliveries' && resolve({ got: m.got!, load: m.load!, dropped: m.dropped ?? [] }));
          child.send({ type: 'stop' });
        }),
    ),
  );
  const collected = stopped.map((s) => s.got);
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const clientLoad = {
    loopDelayP99: round1(Math.max(...stopped.map((s) => s.load.loopDelayP99))),
    loopDelayMax: round1(Math.max(...stopped.map((s) => s.load.loopDelayMax))),
    cores: Math.round(stopped.reduce((sum, s) => sum + s.load.cores, 0) * 100) / 100,
  };

  const kinds = args.positions ? [0, 1] : [0];
  const result: Record<string, unknown> = {};
  for (const kind of kinds) {
    let expected = 0;
    for (let t = 0; t < travels; t++) for (let s = 0; s <= seconds; s++) if (!Number.isNaN(acked[t * (seconds + 1) + s]!)) expected += watchers[t]!;
    let received = 0;
    const fromAck: number[] = [];
    const fromSend: number[] = [];
    // Per second of readings too: a tail made of a few bad seconds (a pause of the server) reads differently
    // from one spread over the whole run.
    const bySecond = Array.from({ length: seconds + 1 }, () => [] as number[]);
    const perSlot = new Uint32Array(travels * (seconds + 1));
    const newest = new Int32Array(travels).fill(-1);
    for (const got of collected) {
      for (let i = 0; i < got.at.length; i++) {
        if (got.kind[i] !== kind) continue;
        const slot = got.travel[i]! * (seconds + 1) + got.seq[i]!;
        if (got.seq[i]! < 0 || got.seq[i]! > seconds || Number.isNaN(acked[slot]!)) continue;
        received++;
        perSlot[slot]!++;
        newest[got.travel[i]!] = Math.max(newest[got.travel[i]!]!, got.seq[i]!);
        if (got.seq[i]! < warmupS) continue;
        fromAck.push(Math.max(0, got.at[i]! - acked[slot]!));
        bySecond[got.seq[i]!]!.push(Math.max(0, got.at[i]! - acked[slot]!));
        fromSend.push(got.at[i]! - sent[slot]!);
      }
    }
    // A reading not delivered while a later one of its travel was: merged by the feed's coalescing (the clients
    // got the newer state). Not delivered and nothing later either: lost.
    let coalesced = 0;
    for (let t = 0; t < travels; t++) {
      for (let seq = 0; seq <= seconds; seq++) {
        const slot = t * (seconds + 1) + seq;
        if (Number.isNaN(acked[slot]!)) continue;
        const missing = watchers[t]! - perSlot[slot]!;
        if (missing > 0 && seq < newest[t]!) coalesced += missing;
      }
    }
    fromAck.sort((a, b) => a - b);
    fromSend.sort((a, b) => a - b);
    const secondP99 = bySecond.filter((l) => l.length > 0).map((l) => percentile(l.sort((a, b) => a - b), 99)).sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    result[kind === 0 ? 'cards' : 'positions'] = {
      expected, received, missing: expected - received, coalesced, lost: expected - received - coalesced,
      deliveriesPerSecond: Math.round(received / ingestSeconds),
      p50: round(percentile(fromAck, 50)), p99: round(percentile(fromAck, 99)), max: round(fromAck.at(-1) ?? 0),
      fromRequestP50: round(percentile(fromSend, 50)), fromRequestP99: round(percentile(fromSend, 99)),
      // Of the per-second p99s: the median second, and how many seconds stayed under 50 ms.
      secondP99Median: round(percentile(secondP99, 50)), secondsUnder50: `${secondP99.filter((v) => v < 50).length}/${secondP99.length}`,
    };
  }
  // Clients the server (or the network) disconnected: how many, why, and when (seconds into the ingestion).
  const drops = stopped.flatMap((s) => s.dropped);
  const dropped = {
    count: drops.length,
    reasons: Object.fromEntries([...new Set(drops.map((d) => d.reason))].map((r) => [r, drops.filter((d) => d.reason === r).length])),
    atSeconds: drops.map((d) => Math.round((d.at - t0Mono) / 100) / 10).sort((a, b) => a - b).slice(0, 50),
  };
  ackLatencies.sort((a, b) => a - b);
  console.log(JSON.stringify({
    dropped,
    servers: urls.length, clients: clientCount, processes, travels, rate, batchesPerSecond, seconds, warmup: warmupS, positions: args.positions,
    connectSeconds: Math.round(connectSeconds * 10) / 10, accepted, errors, readingsPerSecond: Math.round(accepted / ingestSeconds),
    ackP50: Math.round(percentile(ackLatencies, 50) * 10) / 10, ackP99: Math.round(percentile(ackLatencies, 99) * 10) / 10,
    clientLoad,
    ...result,
  }));
  process.exit(0);
}

const phases: Record<string, () => Promise<void>> = { setup, clients, run };
const phase = phases[positionals[0] ?? ''];
if (!phase) {
  console.error('usage: bench/realtime.ts setup|run|clients [options]');
  process.exit(2);
}
await phase();
if (positionals[0] === 'setup') process.exit(0);
