// `npm run simulate`: virtual beacons sending readings through the public ingestion paths, HTTP or MQTT,
// exactly as gateways do (never into the database). Defaults: the demo gateway and the demo's eight
// devices against a server on http://localhost:3000 (`npm start`).
//
//   npm run simulate -- [--transport http|mqtt] [--url http://localhost:3000] [--mqtt-url mqtt://localhost:1883]
//                       [--key demo-gateway-key] [--devices 8] [--macs A,B,…] [--rate 1] [--duration 0]
//                       [--batch-every 1] [--spike] [--ruuvi]
//
// --rate is readings per second per device; --duration 0 runs until Ctrl+C; --spike makes each device run
// 5 °C hot for a while every few minutes, which opens and then closes alarms. --ruuvi sends as a Ruuvi Gateway
// would (ADR 33): each reading as a RuuviTag data format 5 advertisement, to POST /api/ingest/ruuvi (Bearer key) or
// to the MQTT topics ruuvi/{gateway mac}/{tag mac}; the Ruuvi timestamps are whole seconds, so keep --rate ≤ 1.
//
//   npm run simulate -- --travel [--user admin --password …] [--speed 80] [--time-scale 60]
//
// --travel drives the travels in progress instead (found with a login, through GET /api/travels): their devices
// move along their road (the real highway between the demo's cities, ADR 38; else a road-like path) from
// origin to destination at --speed km/h, time running --time-scale times faster (São Paulo → Rio in about
// 6 minutes), each reading carrying the position. The travel resumes from its last position and stays at the
// destination once there.
import http from 'node:http';
import https from 'node:https';
import { parseArgs } from 'node:util';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Travel } from '@sentinela/contract';
import { kmNearest, positionAt, type LatLng, type RoadPath } from '../apps/api/src/simulator/road-path';
import { roadBetween } from '../apps/api/src/simulator/brazilian-roads';
import { DEMO_BEACONS, generatedMac, percentile, ruuviMqttMessage, valuesAt, type BeaconReading } from '../apps/api/src/simulator/virtual-beacons';
import { sendReadings, sequenceCounter, type PostJson } from '../apps/api/src/simulator/reading-sender';

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
    ruuvi: { type: 'boolean', default: false },
    travel: { type: 'boolean', default: false },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'Sentinela@2026' },
    speed: { type: 'string', default: '80' },
    'time-scale': { type: 'string', default: '60' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log('Uso: npm run simulate -- [--transport http|mqtt] [--url URL] [--mqtt-url URL] [--key CHAVE] [--devices N] [--macs A,B] [--rate LEITURAS/S POR DISPOSITIVO] [--duration S] [--spike] [--ruuvi]');
  console.log('     npm run simulate -- --travel [--user USUÁRIO] [--password SENHA] [--speed KM/H] [--time-scale FATOR] [--duration S]');
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

/** A travel in progress being driven: its road, where it started on it, and its devices. */
interface DrivenTravel {
  code: string;
  road: RoadPath;
  startKm: number;
  devices: { mac: string; index: number; base: number }[];
  position: LatLng;
}

/** The travels in progress, read through the API as the web app reads them (a login, then GET /api/travels). */
async function travelsInProgress(): Promise<DrivenTravel[]> {
  const headers = { 'content-type': 'application/json', client: 'simulador', clientVersion: '1.1.0', clientOs: process.platform };
  const login = await fetch(new URL('/api/authenticate', args.url), { method: 'POST', headers, body: JSON.stringify({ username: args.user, password: args.password }) });
  const session = (await login.json()) as { token?: { token: string }; error?: string };
  if (!login.ok || !session.token) throw new Error(`login de ${args.user} recusado: ${session.error ?? login.status}`);
  const res = await fetch(new URL('/api/travels?paginate=false', args.url), { headers: { ...headers, authorization: `Bearer ${session.token.token}` } });
  if (!res.ok) throw new Error(`GET /api/travels respondeu ${res.status}`);
  const travels = ((await res.json()) as { data: { data: Travel[] } }).data.data;
  let index = 0;
  return travels
    .filter((t) => t.status === 1 && t.origin.location && t.destiny.location)
    .map((t, i) => {
      const road = roadBetween(t.origin.location!, t.destiny.location!, i + 1);
      const startKm = t.last_position ? kmNearest(road, t.last_position) : 0;
      const devices = t.devices.map((d) => ({ mac: d.mac, index: index++, base: DEMO_BEACONS.find((b) => b.mac === d.mac)?.base ?? 5 }));
      return { code: t.code, road, startKm, devices, position: positionAt(road, startKm) };
    });
}

/** One reading per device of each travel, at the travel's place on its road now. */
function travelReadings(travels: DrivenTravel[], elapsedMs: number): BeaconReading[] {
  const km = (Number(args.speed) * Number(args['time-scale']) * elapsedMs) / 3_600_000;
  const now = Date.now();
  const out: BeaconReading[] = [];
  for (const travel of travels) {
    const [lat, lng] = positionAt(travel.road, travel.startKm + km);
    travel.position = [lat, lng];
    for (const d of travel.devices) {
      const n = sequence[d.index % sequence.length]!++;
      out.push({ mac: d.mac, ts: new Date(now).toISOString(), ...valuesAt(d.index, d.base, now, n, spike), lat: round6(lat), lng: round6(lng) });
    }
  }
  return out;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** RuuviTag measurement sequence numbers per MAC, for --ruuvi. */
const nextRuuviSeq = sequenceCounter();

/** One POST to the server over the network (the transport of the shared sender). */
const postJson: PostJson = (path, authorization, body) => {
  const target = new URL(path, args.url);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(target, { method: 'POST', headers: { 'content-type': 'application/json', authorization, 'content-length': Buffer.byteLength(body) } }, (res) => {
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

/** Posts the readings (as Ruuvi Gateway relays with --ruuvi), each answer counted. */
async function sendHttp(readings: BeaconReading[]) {
  // Each POST's latency: the transport is timed, the sender stays the shared one.
  const timedPost: PostJson = async (path, authorization, body) => {
    const started = performance.now();
    const answer = await postJson(path, authorization, body);
    stats.latencies.push(performance.now() - started);
    return answer;
  };
  stats.sent += readings.length;
  try {
    for (const { count, status, answer } of await sendReadings(readings, args.ruuvi ? 'ruuvi' : 'json', args.key, timedPost, nextRuuviSeq)) {
      if (status !== 200) {
        stats.errors += count;
        console.error(`HTTP ${status}: ${answer.error ?? ''}`);
        continue;
      }
      stats.accepted += answer.accepted ?? 0;
      stats.duplicates += answer.duplicates ?? 0;
      for (const r of answer.rejected ?? []) {
        stats.rejected++;
        reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
      }
    }
  } catch (err) {
    stats.errors++;
    console.error(`Falha ao enviar: ${(err as Error).message}`);
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
        if (args.ruuvi) {
          const { topic, payload } = ruuviMqttMessage(r, nextRuuviSeq(r));
          await client.publishAsync(topic, payload, { qos: 1 });
        } else {
          const { mac, ...reading } = r;
          await client.publishAsync(`devices/${mac}/readings`, JSON.stringify(reading), { qos: 1 });
        }
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
  for (const t of driven) {
    const km = kmNearest(t.road, t.position);
    console.log(`  Viagem ${t.code}: ${km.toFixed(0)} de ${t.road.lengthKm.toFixed(0)} km, em ${t.position.map((v) => v.toFixed(4)).join(', ')}`);
  }
  stats.latencies = [];
  reasons.clear();
}

const driven = args.travel ? await travelsInProgress() : [];
if (args.travel) {
  if (driven.length === 0) {
    console.error('Nenhuma viagem em andamento para simular (status 1 com origem e destino).');
    process.exit(1);
  }
  const names = driven.map((t) => `${t.code} (${t.devices.length} dispositivo(s), ${t.road.lengthKm.toFixed(0)} km)`).join(', ');
  console.log(`Simulando ${driven.length} viagem(ns) via ${transport.toUpperCase()}: ${names}; ${args.speed} km/h, tempo ${args['time-scale']}× mais rápido.`);
} else {
  console.log(`Simulando ${beacons.length} beacon(s) via ${transport.toUpperCase()} (${transport === 'mqtt' ? args['mqtt-url'] : args.url}), ${rate} leitura(s)/s cada.`);
}
const started = Date.now();
const due = new Array<number>(beacons.length).fill(0);
let stopping = false;
process.on('SIGINT', () => (stopping = true));
let lastReport = Date.now();
while (!stopping && (durationMs === 0 || Date.now() - started < durationMs)) {
  const tickStarted = Date.now();
  const readings = args.travel ? travelReadings(driven, tickStarted - started) : dueReadings(tickStarted - started, due);
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
