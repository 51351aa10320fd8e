// `npm run simulate`: virtual beacons sending readings through the public ingestion paths, HTTP or MQTT,
// exactly as gateways do (never into the database). Defaults: the demo gateway and the demo's eight
// devices against a server on http://localhost:3000 (`npm start`).
//
//   npm run simulate -- [--transport http|mqtt] [--url http://localhost:3000] [--mqtt-url mqtt://localhost:1883]
//                       [--key demo-gateway-key] [--devices 8] [--macs A,B,…] [--rate 1] [--duration 0]
//                       [--batch-every 1] [--spike]
//
// --rate is readings per second per device; --duration 0 runs until Ctrl+C; --spike makes each device run
// 5 °C hot for a while every few minutes, which opens and then closes alarms.
import http from 'node:http';
import https from 'node:https';
import { parseArgs } from 'node:util';
import { connectAsync, type MqttClient } from 'mqtt';
import { DEMO_BEACONS, generatedMac, percentile, readingsBody, valuesAt, type BeaconReading } from './lib/virtual-beacons';

const { values: args } = parseArgs({
  options: {
    transport: { type: 'string', default: 'http' },
    url: { type: 'string', default: 'http://localhost:3000' },
    'mqtt-url': { type: 'string', default: 'mqtt://localhost:1883' },
    key: { type: 'string', default: 'demo-gateway-key' },
    devices: { type: 'string' },
    macs: { type: 'string' },
    rate: { type: 'string', default: '1' },
    duration: { type: 'string', default: '0' },
    'batch-every': { type: 'string', default: '1' },
    spike: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log('Uso: npm run simulate -- [--transport http|mqtt] [--url URL] [--mqtt-url URL] [--key CHAVE] [--devices N] [--macs A,B] [--rate LEITURAS/S POR DISPOSITIVO] [--duration S] [--spike]');
  process.exit(0);
}

const transport = args.transport === 'mqtt' ? 'mqtt' : 'http';
const explicitMacs = args.macs?.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
const count = Number(args.devices ?? explicitMacs?.length ?? DEMO_BEACONS.length);
const beacons = Array.from({ length: count }, (_, i) => ({
  mac: explicitMacs?.[i] ?? DEMO_BEACONS[i]?.mac ?? generatedMac(i),
  base: DEMO_BEACONS[i]?.base ?? 5,
}));
const rate = Number(args.rate);
const durationMs = Number(args.duration) * 1000;
const batchEveryMs = Math.max(0.05, Number(args['batch-every'])) * 1000;
const spike = args.spike ? { spikeEvery: Math.max(20, Math.round(rate * 300)), spikeLength: Math.max(3, Math.round(rate * 60)) } : {};

const stats = { sent: 0, accepted: 0, duplicates: 0, rejected: 0, errors: 0, latencies: [] as number[], all: [] as number[] };
const reasons = new Map<string, number>();
const sequence = new Array<number>(beacons.length).fill(0);

/** Readings due since the last tick: `rate` per second per device, stamped with the current time. */
function dueReadings(elapsedMs: number, due: number[]): BeaconReading[] {
  const out: BeaconReading[] = [];
  const now = Date.now();
  beacons.forEach((b, device) => {
    const target = Math.floor((elapsedMs / 1000) * rate) + 1;
    for (; due[device]! < target; due[device]!++) {
      const n = sequence[device]!++;
      // Spread a device's readings over the tick, so no two share a timestamp.
      const ts = now - Math.round(((target - due[device]! - 1) * 1000) / rate);
      out.push({ mac: b.mac, ts: new Date(ts).toISOString(), ...valuesAt(device, b.base, ts, n, spike) });
    }
  });
  return out;
}

function postBatch(body: string): Promise<{ status: number; json: { accepted?: number; duplicates?: number; rejected?: { reason: string }[]; error?: string } }> {
  const target = new URL('/api/ingest/readings', args.url);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(target, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `ApiKey ${args.key}`, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        } catch {
          resolve({ status: res.statusCode ?? 0, json: { error: text } });
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function sendHttp(readings: BeaconReading[]) {
  for (let i = 0; i < readings.length; i += 5000) {
    const chunk = readings.slice(i, i + 5000);
    const started = performance.now();
    stats.sent += chunk.length;
    try {
      const { status, json } = await postBatch(readingsBody(chunk));
      stats.latencies.push(performance.now() - started);
      if (status !== 200) {
        stats.errors += chunk.length;
        console.error(`HTTP ${status}: ${json.error ?? ''}`);
        continue;
      }
      stats.accepted += json.accepted ?? 0;
      stats.duplicates += json.duplicates ?? 0;
      for (const r of json.rejected ?? []) {
        stats.rejected++;
        reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
      }
    } catch (err) {
      stats.errors += chunk.length;
      console.error(`Falha ao enviar: ${(err as Error).message}`);
    }
  }
}

let mqttClient: MqttClient | undefined;
async function sendMqtt(readings: BeaconReading[]) {
  mqttClient ??= await connectAsync(args['mqtt-url'], { username: 'simulador', password: args.key, reconnectPeriod: 1000 });
  const client = mqttClient;
  await Promise.all(
    readings.map(async (r) => {
      const started = performance.now();
      stats.sent++;
      try {
        const { mac, ...reading } = r;
        await client.publishAsync(`devices/${mac}/readings`, JSON.stringify(reading), { qos: 1 });
        stats.accepted++; // acknowledged = stored or counted as rejected by the server
        stats.latencies.push(performance.now() - started);
      } catch (err) {
        stats.errors++;
        console.error(`Falha ao publicar: ${(err as Error).message}`);
      }
    }),
  );
}

/** Counts since the start; latencies of the last interval (or of the whole run, at the end). */
function report(final = false) {
  stats.all.push(...stats.latencies);
  const sorted = (final ? stats.all : stats.latencies).sort((a, b) => a - b);
  const ack = transport === 'mqtt' ? 'confirmadas' : 'aceitas';
  console.log(
    `${final ? 'Total' : new Date().toLocaleTimeString('pt-BR')}: enviadas ${stats.sent}, ${ack} ${stats.accepted}, duplicadas ${stats.duplicates}, ` +
      `rejeitadas ${stats.rejected}, erros ${stats.errors}; latência p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
  );
  if (reasons.size > 0) for (const [reason, n] of reasons) console.log(`  ${n}× ${reason}`);
  stats.latencies = [];
  reasons.clear();
}

console.log(`Simulando ${beacons.length} beacon(s) via ${transport.toUpperCase()} (${transport === 'mqtt' ? args['mqtt-url'] : args.url}), ${rate} leitura(s)/s cada.`);
const started = Date.now();
const due = new Array<number>(beacons.length).fill(0);
let stopping = false;
process.on('SIGINT', () => (stopping = true));
let lastReport = Date.now();
while (!stopping && (durationMs === 0 || Date.now() - started < durationMs)) {
  const tickStarted = Date.now();
  const readings = dueReadings(tickStarted - started, due);
  if (readings.length > 0) await (transport === 'mqtt' ? sendMqtt(readings) : sendHttp(readings));
  if (Date.now() - lastReport >= 5000) {
    report();
    lastReport = Date.now();
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, batchEveryMs - (Date.now() - tickStarted))));
}
report(true);
await mqttClient?.endAsync();
process.exit(stats.errors > 0 ? 1 : 0);
