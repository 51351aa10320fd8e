/**
 * Virtual beacons for the simulator and the benchmark: deterministic readings (the same device and
 * sequence number always give the same reading, so a run can be replayed, e.g. into COPY), and a fast
 * serialiser for the ingestion body. Some devices can also speak as RuuviTags behind a Ruuvi Gateway (ADR 33).
 */
import { batteryMillivolts } from '../ingest/vendor-formats/battery-curves';
import { rawV2AdvertisementHex, RAWV2_SEQ_MODULO } from '../ingest/vendor-formats/ruuvi-rawv2';
export interface BeaconReading {
  mac: string;
  ts: string;
  temperature: number;
  humidity: number;
  battery: number;
  lat?: number;
  lng?: number;
}

/** The demo's eight devices with their set points (apps/api/src/seed/demo.ts). */
export const DEMO_BEACONS: { mac: string; base: number }[] = [
  { mac: 'C3:00:00:00:01:01', base: 4 },
  { mac: 'C3:00:00:00:01:02', base: 5 },
  { mac: 'C3:00:00:00:01:03', base: -19 },
  { mac: 'C3:00:00:00:01:04', base: -18 },
  { mac: 'C3:00:00:00:02:01', base: 5 },
  { mac: 'C3:00:00:00:02:02', base: 5 },
  { mac: 'C3:00:00:00:02:03', base: 6 },
  { mac: 'C3:00:00:00:02:04', base: 23 },
];

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

/** MACs of generated beacons: B0:00:00:xx:yy:zz by index. */
export function generatedMac(index: number): string {
  return `B0:00:00:${hex((index >> 16) & 255)}:${hex((index >> 8) & 255)}:${hex(index & 255)}`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface ValueOptions {
  /** Every `spikeEvery` readings a device runs 5 °C hot for `spikeLength` readings (an alarm and its end). */
  spikeEvery?: number;
  spikeLength?: number;
}

/** The values of device `device` (set point `base`) at time `ms`, reading number `n`. */
export function valuesAt(device: number, base: number, ms: number, n: number, options: ValueOptions = {}) {
  const phase = (ms / 3_600_000) * 2 * Math.PI + device;
  const noise = Math.sin(n * 12.9898 + device * 78.233) * 0.3;
  const spiking = options.spikeEvery ? (n + device * 7) % options.spikeEvery < (options.spikeLength ?? 10) : false;
  return {
    temperature: round2(base + Math.sin(phase) * 1.2 + noise + (spiking ? 5 : 0)),
    humidity: round2(55 + Math.cos(phase) * 8 + noise * 3),
    battery: round2(100 - (device % 40) - ((n / 100_000) % 20)),
  };
}

/** `{"readings":[...]}` without JSON.stringify's generic walk: the generator must outpace the server. */
export function readingsBody(readings: readonly BeaconReading[]): string {
  let out = '{"readings":[';
  for (let i = 0; i < readings.length; i++) {
    const r = readings[i]!;
    if (i > 0) out += ',';
    out += `{"mac":"${r.mac}","ts":"${r.ts}","temperature":${r.temperature},"humidity":${r.humidity},"battery":${r.battery}`;
    if (r.lat !== undefined && r.lng !== undefined) out += `,"lat":${r.lat},"lng":${r.lng}`;
    out += '}';
  }
  return out + ']}';
}

/** Percentiles of a list of latencies (ms). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The MAC of the virtual Ruuvi Gateway the simulator plays. */
export const VIRTUAL_RUUVI_GATEWAY_MAC = 'C8:25:2D:00:00:01';

/**
 * A reading as the advertisement a RuuviTag (data format 5) would send: the battery percentage turned back into
 * millivolts on the RuuviTag curve, `n` as the measurement sequence (wrapping as the tag's does).
 */
export function ruuviAdvertisement(r: BeaconReading, n: number): string {
  return rawV2AdvertisementHex({
    temperature: Math.min(163.835, Math.max(-163.835, r.temperature)),
    humidity: Math.min(100, Math.max(0, r.humidity)),
    pressure: 101_325,
    batteryMv: batteryMillivolts('ruuvitag', r.battery),
    txPower: 4,
    movement: 0,
    seq: n % RAWV2_SEQ_MODULO,
    mac: r.mac,
  });
}

const unixSeconds = (iso: string) => String(Math.floor(Date.parse(iso) / 1000));
const coordinatesOf = (r: BeaconReading) => (r.lat !== undefined && r.lng !== undefined ? `${r.lat},${r.lng}` : '');

/**
 * Bodies of POST /api/ingest/ruuvi as a Ruuvi Gateway posts them ("custom HTTP server", time-stamped): a gateway
 * relays one advertisement per tag and its own coordinates, so readings of one tag, or at another place, go in
 * another post. `seq` gives each reading's sequence number.
 */
export function ruuviRelayBodies(readings: readonly BeaconReading[], seq: (r: BeaconReading, i: number) => number, gwMac = VIRTUAL_RUUVI_GATEWAY_MAC): { body: string; count: number }[] {
  const relays: { coordinates: string; tags: Record<string, { rssi: number; timestamp: string; data: string }> }[] = [];
  readings.forEach((r, i) => {
    const coordinates = coordinatesOf(r);
    let relay = relays.find((x) => x.coordinates === coordinates && !(r.mac in x.tags));
    if (!relay) relays.push((relay = { coordinates, tags: {} }));
    relay.tags[r.mac] = { rssi: -60 - (i % 20), timestamp: unixSeconds(r.ts), data: ruuviAdvertisement(r, seq(r, i)) };
  });
  const now = String(Math.floor(Date.now() / 1000));
  return relays.map((relay, i) => ({
    body: JSON.stringify({ data: { coordinates: relay.coordinates, timestamp: now, nonce: String((Date.now() + i) % 4_294_967_296), gw_mac: gwMac, tags: relay.tags } }),
    count: Object.keys(relay.tags).length,
  }));
}

/** One MQTT message of a Ruuvi Gateway: topic `ruuvi/{gateway mac}/{tag mac}` and its JSON. */
export function ruuviMqttMessage(r: BeaconReading, n: number, gwMac = VIRTUAL_RUUVI_GATEWAY_MAC): { topic: string; payload: string } {
  const ts = unixSeconds(r.ts);
  return {
    topic: `ruuvi/${gwMac}/${r.mac}`,
    payload: JSON.stringify({ gw_mac: gwMac, rssi: -65, aoa: [], gwts: ts, ts, data: ruuviAdvertisement(r, n), coords: coordinatesOf(r) }),
  };
}
