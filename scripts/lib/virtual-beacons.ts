/**
 * Virtual beacons for the simulator and the benchmark: deterministic readings (the same device and
 * sequence number always give the same reading, so a run can be replayed, e.g. into COPY), and a fast
 * serialiser for the ingestion body.
 */
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
