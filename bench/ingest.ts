// Ingestion benchmark phases, each run as its own process by scripts/bench.mjs (`npm run bench`):
//   setup  --db URL --devices N                      migrate, create the gateway and N devices; prints {"key"}
//   http   --url URL --key K --devices N --duration S --concurrency C --batch B
//   mqtt   --mqtt-url URL --key K --devices N --duration S --connections C --window W [--rate R]
//          (--rate: at most R messages a second in all, for a broker that acknowledges before the server stores)
//   copy   --db URL --devices N --from http-result.json   COPY of the very rows the http phase stored
// Each phase prints one JSON line with its figures. Readings are deterministic (device, sequence number),
// which is what lets the COPY phase write the same rows the HTTP phase sent.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { connect as netConnect, type Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';
import { openDatabase } from '../apps/api/src/db/database';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { sha256 } from '../apps/api/src/lib/tokens';
import { generatedMac, percentile, readingsBody, valuesAt, type BeaconReading } from '../apps/api/src/simulator/virtual-beacons';

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    url: { type: 'string' },
    'mqtt-url': { type: 'string' },
    key: { type: 'string' },
    devices: { type: 'string', default: '2000' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '3' },
    batch: { type: 'string', default: '5000' },
    'per-device': { type: 'string', default: '50' },
    connections: { type: 'string', default: '8' },
    window: { type: 'string', default: '500' },
    from: { type: 'string' },
    start: { type: 'string' },
    rate: { type: 'string' },
  },
});

const DEVICES = Number(args.devices);
/** Readings of a device are STEP_MS apart; HTTP uses even slots, MQTT odd ones, so the phases never collide. */
const STEP_MS = 200;
/** Every 2,000 readings a device runs hot for 10: alarms open and close during the run, as in real use. */
const SPIKE = { spikeEvery: 2000, spikeLength: 10 };
const base = (device: number) => 5 + (device % 3) - 1;

// Formatting times is the generator's largest cost; all devices of a gateway share their slots' times.
const isoOfSlot: string[] = [];
const macOfDevice: string[] = [];

function reading(device: number, slot: number, startMs: number): BeaconReading {
  const ms = startMs + slot * STEP_MS;
  const ts = (isoOfSlot[slot] ??= new Date(ms).toISOString());
  return { mac: (macOfDevice[device] ??= generatedMac(device)), ts, ...valuesAt(device, base(device), ms, slot >> 1, SPIKE) };
}

/** The warm-up not counted: --warmup seconds, but at most a third of a short run (`--duration 3` still measures). */
function warmupOf(durationMs: number): number {
  return Math.min(Number(args.warmup) * 1000, durationMs / 3);
}

function emit(result: Record<string, unknown>) {
  console.log(JSON.stringify(result));
}

async function setup() {
  const database = await openDatabase({ databaseUrl: args.db, dataDir: '' });
  await migrateToLatest(database.db);
  const enterprise = await database.db.insertInto('enterprises').values({ name: 'Benchmark', email: null }).returning('id').executeTakeFirstOrThrow();
  const key = `sgw_${randomBytes(24).toString('base64url')}`;
  await database.db.insertInto('gateways').values({ name: 'Benchmark', enterprise_id: enterprise.id, key_hash: sha256(key), key_prefix: key.slice(0, 10), created_by: null }).execute();
  for (let i = 0; i < DEVICES; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, DEVICES - i) }, (_, k) => {
      const device = i + k;
      return {
        mac: generatedMac(device), name: `Bench ${device}`, model: null, key: null, enterprise_id: enterprise.id, location_id: null, group_id: null,
        temperature_min: base(device) - 3, temperature_max: base(device) + 3, humidity_min: 20, humidity_max: 90, no_data_minutes: null,
      };
    });
    await database.db.insertInto('devices').values(rows).execute();
  }
  // A database in service has planner statistics; a freshly filled one gets them here rather than mid-run.
  await sql`ANALYZE`.execute(database.db);
  await database.close();
  emit({ key, devices: DEVICES });
}

/** Closed-loop HTTP load: `concurrency` gateways, each posting batches of `batch` readings as soon as the last was answered. */
async function httpPhase() {
  const url = new URL('/api/ingest/readings', args.url);
  const perDevice = Number(args['per-device']);
  const devicesPerBatch = Math.max(1, Math.floor(Number(args.batch) / perDevice));
  const groups = Math.ceil(DEVICES / devicesPerBatch);
  // Never more workers than gateways: a gateway sends one batch at a time.
  const concurrency = Math.min(Number(args.concurrency), groups);
  const durationMs = Number(args.duration) * 1000;
  const warmupMs = warmupOf(durationMs);
  // Readings go back far enough that the run never reaches the server's "5 minutes in the future" bound.
  const startMs = Date.now() - 2 * 3_600_000;
  const cursors = new Array<number>(groups).fill(0);
  const busy = new Array<boolean>(groups).fill(false);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let measured = 0;
  let total = 0;
  let rejected = 0;
  let errors = 0;
  let nextGroup = 0;

  const post = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `ApiKey ${args.key}`, 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  const t0 = performance.now();
  const worker = async () => {
    while (performance.now() - t0 < durationMs) {
      // A gateway (group of devices) is used by one worker at a time, as a real gateway sends one batch at a time.
      while (busy[nextGroup % groups]) nextGroup++;
      const group = nextGroup++ % groups;
      busy[group] = true;
      const readings: BeaconReading[] = [];
      const first = group * devicesPerBatch;
      for (let device = first; device < Math.min(DEVICES, first + devicesPerBatch); device++) {
        for (let n = cursors[group]!; n < cursors[group]! + perDevice; n++) readings.push(reading(device, n * 2, startMs));
      }
      cursors[group]! += perDevice;
      const body = readingsBody(readings);
      const started = performance.now();
      const res = await post(body);
      const ended = performance.now();
      busy[group] = false;
      if (res.status !== 200) {
        errors++;
        console.error(`HTTP ${res.status}: ${res.text.slice(0, 200)}`);
        continue;
      }
      const answer = JSON.parse(res.text) as { accepted: number; rejected: unknown[] };
      rejected += answer.rejected.length;
      total += answer.accepted;
      if (started - t0 >= warmupMs) {
        latencies.push(ended - started);
        measured += answer.accepted;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0 - warmupMs) / 1000;
  latencies.sort((a, b) => a - b);
  agent.destroy();
  emit({
    phase: 'http', readingsPerSecond: Math.round(measured / seconds), seconds: Math.round(seconds), stored: total, requests: latencies.length,
    p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), max: Math.round(latencies.at(-1) ?? 0),
    rejected, errors, batch: devicesPerBatch * perDevice, devicesPerBatch, concurrency, startMs, cursors, devicesPerBatchGroup: devicesPerBatch,
  });
}

/**
 * A gateway speaking MQTT 3.1.1 directly over TCP, with packets from mqtt-packet (the codec that mqtt.js and
 * Aedes use): the generator shares the machine's two cores with the server, and mqtt.js's per-message
 * bookkeeping would cost more CPU than the server's own work.
 */
class RawGateway {
  private readonly socket: Socket;
  private readonly sent = new Map<number, number>();
  private nextId = 1;
  private pending: Buffer[] = [];
  private flushScheduled = false;

  private constructor(socket: Socket, private readonly onAck: (latencyMs: number) => void) {
    this.socket = socket;
  }

  static connect(url: string, clientId: string, key: string, onAck: (latencyMs: number) => void): Promise<RawGateway> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = netConnect(Number(port), hostname);
      socket.setNoDelay(true);
      const gateway = new RawGateway(socket, onAck);
      const parser = mqttPacket.parser({ protocolVersion: 4 });
      parser.on('packet', (packet) => {
        if (packet.cmd === 'connack') {
          if (packet.returnCode === 0) resolve(gateway);
          else reject(new Error(`CONNACK ${packet.returnCode}`));
        } else if (packet.cmd === 'puback') gateway.acked(packet.messageId!);
      });
      socket.on('data', (chunk) => parser.parse(chunk));
      socket.on('error', reject);
      socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId, keepalive: 0, username: 'bench', password: Buffer.from(key) }));
    });
  }

  get inflight(): number {
    return this.sent.size;
  }

  publish(topic: string, payload: string): void {
    const messageId = this.nextId;
    this.nextId = this.nextId === 65535 ? 1 : this.nextId + 1;
    this.sent.set(messageId, performance.now());
    this.pending.push(mqttPacket.generate({ cmd: 'publish', topic, payload, qos: 1, messageId, retain: false, dup: false }));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.socket.write(Buffer.concat(this.pending));
        this.pending = [];
      });
    }
  }

  private acked(messageId: number): void {
    const started = this.sent.get(messageId);
    if (started === undefined) return;
    this.sent.delete(messageId);
    this.onAck(performance.now() - started);
  }

  close(): void {
    this.socket.end(mqttPacket.generate({ cmd: 'disconnect' }));
  }
}

/** MQTT QoS 1, one reading per message: `connections` gateways, each keeping `window` messages unacknowledged. */
async function mqttPhase() {
  const connections = Number(args.connections);
  const window = Number(args.window);
  const durationMs = Number(args.duration) * 1000;
  const warmupMs = warmupOf(durationMs);
  const startMs = Number(args.start ?? Date.now() - 2 * 3_600_000);
  // An external broker acknowledges on receipt, before any server stored the message: a closed loop would only
  // measure the broker. With --rate the gateways publish on schedule, each its share of the rate.
  const perConnectionRate = args.rate ? Number(args.rate) / connections : Infinity;
  const published = new Array<number>(connections).fill(0);
  const latencies: number[] = [];
  let measured = 0;
  let total = 0;
  let t0 = 0;
  let stopped = false;
  const finished: (() => void)[] = [];
  const gateways = await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      const devices = Array.from({ length: Math.ceil((DEVICES - c) / connections) }, (_, k) => c + k * connections);
      const cursor = new Array<number>(devices.length).fill(0);
      let next = 0;
      const send = (gateway: RawGateway) => {
        while (!stopped && gateway.inflight < window && published[c]! < (performance.now() - t0) / 1000 * perConnectionRate) {
          if (performance.now() - t0 >= durationMs) {
            stopped = true;
            break;
          }
          const k = next++ % devices.length;
          published[c]!++;
          const r = reading(devices[k]!, cursor[k]!++ * 2 + 1, startMs);
          gateway.publish(`devices/${r.mac}/readings`, `{"ts":"${r.ts}","temperature":${r.temperature},"humidity":${r.humidity},"battery":${r.battery}}`);
        }
        // Paced by --rate, a gateway may stop with nothing in flight: no acknowledgement will come to finish it.
        if (stopped && gateway.inflight === 0) finished[c]?.();
      };
      const gateway: RawGateway = await RawGateway.connect(args['mqtt-url']!, `bench-${c}`, args.key!, (latency) => {
        total++;
        if (performance.now() - t0 - latency >= warmupMs) {
          measured++;
          latencies.push(latency);
        }
        if (!stopped) send(gateway);
        else if (gateway.inflight === 0) finished[c]?.();
      });
      return { gateway, send };
    }),
  );
  t0 = performance.now();
  const pacer = Number.isFinite(perConnectionRate) ? setInterval(() => gateways.forEach(({ gateway, send }) => send(gateway)), 5) : undefined;
  await Promise.all(
    gateways.map(({ gateway, send }, c) =>
      new Promise<void>((resolve) => {
        finished[c] = resolve;
        send(gateway);
      }),
    ),
  );
  clearInterval(pacer);
  const seconds = (durationMs - warmupMs) / 1000;
  for (const { gateway } of gateways) gateway.close();
  latencies.sort((a, b) => a - b);
  emit({
    phase: 'mqtt', readingsPerSecond: Math.round(measured / seconds), seconds: Math.round(seconds), acknowledged: total,
    p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), connections, window,
    ...(args.rate ? { rate: Number(args.rate) } : {}),
  });
}

/** Raw COPY of the rows the HTTP phase stored, into an empty table shaped like `readings` (same key, same partitions). */
async function copyPhase() {
  const result = JSON.parse(readFileSync(args.from!, 'utf8')) as { startMs: number; cursors: number[]; devicesPerBatchGroup: number };
  const client = new pg.Client({ connectionString: args.db });
  await client.connect();
  const nums = new Map<string, number>();
  for (const row of (await client.query<{ mac: string; num: number }>('SELECT mac, num FROM devices')).rows) nums.set(row.mac, row.num);

  // Rows generated ahead, as COPY text, so that only the database's work is timed.
  const chunks: Buffer[] = [];
  let rows = 0;
  let minMs = Infinity;
  let maxMs = -Infinity;
  let text = '';
  result.cursors.forEach((count, group) => {
    const first = group * result.devicesPerBatchGroup;
    for (let device = first; device < Math.min(DEVICES, first + result.devicesPerBatchGroup); device++) {
      for (let n = 0; n < count; n++) {
        const r = reading(device, n * 2, result.startMs);
        const ms = result.startMs + n * 2 * STEP_MS;
        minMs = Math.min(minMs, ms);
        maxMs = Math.max(maxMs, ms);
        text += `${nums.get(r.mac)}\t${r.ts}\t${r.temperature}\t${r.humidity}\t${r.battery}\t\\N\t\\N\t\\N\n`;
        rows++;
        if (text.length > 1 << 20) {
          chunks.push(Buffer.from(text));
          text = '';
        }
      }
    }
  });
  chunks.push(Buffer.from(text));

  await client.query('DROP TABLE IF EXISTS readings_copy');
  await client.query('CREATE TABLE readings_copy (LIKE readings INCLUDING DEFAULTS, PRIMARY KEY (device_num, ts)) PARTITION BY RANGE (ts)');
  for (let m = new Date(Date.UTC(new Date(minMs).getUTCFullYear(), new Date(minMs).getUTCMonth(), 1)); m.getTime() <= maxMs; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) {
    const to = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
    await client.query(`CREATE TABLE readings_copy_p${m.getTime()} PARTITION OF readings_copy FOR VALUES FROM ('${m.toISOString()}') TO ('${to.toISOString()}')`);
  }
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const stream = client.query(copyFrom('COPY readings_copy (device_num, ts, temperature, humidity, battery, lat, lng, travel_id) FROM STDIN'));
    stream.on('finish', () => resolve());
    stream.on('error', reject);
    let i = 0;
    const write = () => {
      while (i < chunks.length) {
        if (!stream.write(chunks[i++]!)) return void stream.once('drain', write);
      }
      stream.end();
    };
    write();
  });
  const seconds = (performance.now() - started) / 1000;
  await client.query('DROP TABLE readings_copy');
  await client.end();
  emit({ phase: 'copy', rows, seconds: Number(seconds.toFixed(2)), rowsPerSecond: Math.round(rows / seconds) });
}

const phases: Record<string, () => Promise<void>> = { setup, http: httpPhase, mqtt: mqttPhase, copy: copyPhase };
const phase = phases[positionals[0] ?? ''];
if (!phase) {
  console.error('usage: bench/ingest.ts setup|http|mqtt|copy [options]');
  process.exit(2);
}
await phase();
process.exit(0);
