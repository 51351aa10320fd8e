/**
 * The live demo (issue 14 item 5, ADR 38): on a demo database, the demo gateway's beacons keep reporting through the
 * server's own ingestion endpoints, so a newcomer sees live cards, a travel's marker moving along its road, and a
 * fixed-site device drifting past its limit (an alarm opens) and coming back (it ends) within minutes.
 *
 * Everything is a pure function of the clock and of what the database says now (devices, their limits and
 * locations, the travels in progress), read again at each tick: edit a limit, place a device at a location or start
 * a travel, and the next tick follows. Readings go only through the ingestion routes (`PostJson`), never into tables.
 */
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { sha256 } from '../lib/tokens';
import { DEMO_GATEWAY_KEY } from '../seed/demo';
import { roadBetween } from './brazilian-roads';
import { kmNearest, positionAt, type LatLng, type RoadPath } from './road-path';
import { sendReadings, sequenceCounter, type PostJson, type ReadingFormat } from './reading-sender';
import { DEMO_BEACONS, valuesAt, type BeaconReading } from './virtual-beacons';

/** How fast a demo travel moves along its road: 5 km per minute (75 km/h with time running 4× faster). */
export const TRAVEL_KM_PER_MINUTE = 5;

/**
 * The drift schedule of fixed-site devices (placed at a location, or never carried on a travel): the k-th of them (by MAC) starts warming
 * `firstAfterMs + k × slotMs` after the demo starts, ramps up for `rampMs` to `overLimit` °C above its maximum,
 * stays there `holdMs`, and ramps back; then again every cycle (`slotMs` × the number of such devices, at least
 * `minSlots`). The first alarm opens in about a minute and a half and ends about three minutes later.
 */
export const DRIFT = { firstAfterMs: 60_000, slotMs: 6 * 60_000, minSlots: 4, rampMs: 60_000, holdMs: 120_000, overLimit: 2 } as const;

/** How far into its excursion (0: not drifting, 1: at its peak) fixed-site device `k` of `count` is at `elapsedMs`. */
export function driftShare(elapsedMs: number, k: number, count: number): number {
  const cycle = DRIFT.slotMs * Math.max(count, DRIFT.minSlots);
  const since = elapsedMs - DRIFT.firstAfterMs - k * DRIFT.slotMs;
  if (since < 0) return 0;
  const t = since % cycle;
  if (t < DRIFT.rampMs) return t / DRIFT.rampMs;
  if (t < DRIFT.rampMs + DRIFT.holdMs) return 1;
  if (t < 2 * DRIFT.rampMs + DRIFT.holdMs) return 1 - (t - DRIFT.rampMs - DRIFT.holdMs) / DRIFT.rampMs;
  return 0;
}

/**
 * The demo gateway's id when this is a demo database (the seed's gateway, still holding the demo key), else null:
 * the live demo never runs on a database whose gateways are real.
 */
export async function demoGatewayId(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('gateways')
    .select('id')
    .where('key_hash', '=', sha256(DEMO_GATEWAY_KEY))
    .where('enterprise_id', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.id ?? null;
}

interface FleetDevice {
  mac: string;
  location_id: string | null;
  /** Whether a travel (of any status) ever carried it. */
  travelled: boolean;
  temperature_min: number | null;
  temperature_max: number | null;
  last_battery: number | null;
}

interface TravelInProgress {
  id: string;
  code: string;
  origin_lat: number;
  origin_lng: number;
  destiny_lat: number;
  destiny_lng: number;
  last_lat: number | null;
  last_lng: number | null;
  macs: string[];
}

/** Where a driven travel is: its road, where on it the demo found it, and when. */
interface DrivenTravel {
  road: RoadPath & { name: string | null };
  startKm: number;
  since: number;
}

export interface TickReport {
  /** Readings sent, and what the ingestion answered. */
  sent: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Readings of posts that failed (not 200). */
  failed: number;
  travels: { code: string; road: string | null; km: number; lengthKm: number; position: LatLng }[];
  /** MACs of the fixed-site devices drifting now. */
  drifting: string[];
}

export interface LiveDemoOptions {
  db: Db;
  clock: Clock;
  gatewayId: string;
  /** The ingestion endpoints (the server injects into its own routes). */
  post: PostJson;
  onError?: (err: unknown) => void;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export class LiveDemo {
  private readonly startedAt: number;
  private readonly sequence = new Map<string, number>();
  private readonly ruuviSeq = sequenceCounter();
  private readonly travels = new Map<string, DrivenTravel>();
  private readonly batteries = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<unknown> | null = null;
  private stopped = false;

  constructor(private readonly options: LiveDemoOptions) {
    this.startedAt = options.clock.now().getTime();
  }

  /** Ticks every `intervalMs` (a tick still running is not doubled). The timer never holds the process. */
  start(intervalMs: number): void {
    if (this.stopped || this.timer) return;
    const run = () => {
      if (this.inFlight || this.stopped) return;
      this.inFlight = this.tick()
        .catch((err: unknown) => this.options.onError?.(err))
        .finally(() => (this.inFlight = null));
    };
    this.timer = setInterval(run, intervalMs);
    this.timer.unref();
  }

  /** No more ticks; resolves once the tick under way (if any) has been answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /** Whether its timer is set. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** One reading of every demo device at the clock's now, sent through ingestion; null once stopped. */
  async tick(): Promise<TickReport | null> {
    if (this.stopped) return null;
    const now = this.options.clock.now().getTime();
    const ts = new Date(now).toISOString();
    const { devices, travels } = await this.fleet();
    const report: TickReport = { sent: 0, accepted: 0, duplicates: 0, rejected: 0, failed: 0, travels: [], drifting: [] };

    const positions = new Map<string, LatLng>();
    travels.forEach((t, i) => {
      const driven = this.driven(t, i, now);
      const km = driven.startKm + (TRAVEL_KM_PER_MINUTE * (now - driven.since)) / 60_000;
      const position = positionAt(driven.road, km);
      for (const mac of t.macs) positions.set(mac, position);
      report.travels.push({ code: t.code, road: driven.road.name, km: Math.min(km, driven.road.lengthKm), lengthKm: driven.road.lengthKm, position });
    });

    // Fixed-site devices: placed at a location, or never carried on a travel (the demo's cold rooms, freezer,
    // vaccine fridge and pharmacy), with a maximum to drift past; never one on its way now.
    const fixedSite = devices.filter((d) => (d.location_id !== null || !d.travelled) && d.temperature_max !== null && !positions.has(d.mac));
    const byFormat: Record<ReadingFormat, BeaconReading[]> = { json: [], ruuvi: [] };
    devices.forEach((d, index) => {
      const n = this.sequence.get(d.mac) ?? 0;
      this.sequence.set(d.mac, n + 1);
      const base = DEMO_BEACONS.find((b) => b.mac === d.mac)?.base ?? midpoint(d);
      const values = valuesAt(index, base, now, n);
      const battery = this.batteries.get(d.mac) ?? d.last_battery ?? values.battery;
      this.batteries.set(d.mac, battery);
      let temperature = values.temperature;
      const k = fixedSite.indexOf(d);
      if (k >= 0) {
        const share = driftShare(now - this.startedAt, k, fixedSite.length);
        if (share > 0) {
          temperature = round2(temperature + share * (d.temperature_max! + DRIFT.overLimit - temperature));
          report.drifting.push(d.mac);
        }
      }
      const position = positions.get(d.mac);
      const reading: BeaconReading = { mac: d.mac, ts, temperature, humidity: values.humidity, battery, ...(position && { lat: round6(position[0]), lng: round6(position[1]) }) };
      // The later half of the fleet (by MAC; in the demo, Vida Farma's) speaks as RuuviTags behind a Ruuvi Gateway.
      byFormat[index >= devices.length / 2 ? 'ruuvi' : 'json'].push(reading);
    });

    for (const format of ['json', 'ruuvi'] as const) {
      if (byFormat[format].length === 0) continue;
      for (const { count, status, answer } of await sendReadings(byFormat[format], format, DEMO_GATEWAY_KEY, this.options.post, this.ruuviSeq)) {
        report.sent += count;
        if (status !== 200) {
          report.failed += count;
          continue;
        }
        report.accepted += answer.accepted ?? 0;
        report.duplicates += answer.duplicates ?? 0;
        report.rejected += answer.rejected?.length ?? 0;
      }
    }
    return report;
  }

  /** The demo gateway's devices (by MAC) and the travels in progress carrying them, as the database has them now. */
  private async fleet(): Promise<{ devices: FleetDevice[]; travels: TravelInProgress[] }> {
    const { db, gatewayId } = this.options;
    const devices = await db
      .selectFrom('gateway_devices as gd')
      .innerJoin('devices as d', 'd.id', 'gd.device_id')
      .select(['d.mac', 'd.location_id', 'd.temperature_min', 'd.temperature_max', 'd.last_battery'])
      .select((eb) => eb.exists(eb.selectFrom('travel_devices as td').select('td.device_id').whereRef('td.device_id', '=', 'd.id')).$castTo<boolean>().as('travelled'))
      .where('gd.gateway_id', '=', gatewayId)
      .where('d.enterprise_id', 'is not', null)
      .orderBy('d.mac')
      .execute();
    const rows = await db
      .selectFrom('travels as t')
      .innerJoin('travel_devices as td', 'td.travel_id', 't.id')
      .innerJoin('devices as d', 'd.id', 'td.device_id')
      .innerJoin('gateway_devices as gd', (j) => j.onRef('gd.device_id', '=', 'd.id').on('gd.gateway_id', '=', gatewayId))
      .select(['t.id', 't.code', 't.origin_lat', 't.origin_lng', 't.destiny_lat', 't.destiny_lng', 't.last_lat', 't.last_lng', 'd.mac'])
      .where('t.status', '=', 1)
      .where('t.origin_lat', 'is not', null)
      .where('t.origin_lng', 'is not', null)
      .where('t.destiny_lat', 'is not', null)
      .where('t.destiny_lng', 'is not', null)
      .orderBy('t.code')
      .orderBy('d.mac')
      .execute();
    const travels = new Map<string, TravelInProgress>();
    for (const r of rows) {
      const travel = travels.get(r.id) ?? { ...r, origin_lat: r.origin_lat!, origin_lng: r.origin_lng!, destiny_lat: r.destiny_lat!, destiny_lng: r.destiny_lng!, macs: [] };
      travel.macs.push(r.mac);
      travels.set(r.id, travel);
    }
    // A device on two travels in progress is driven by the first only.
    const taken = new Set<string>();
    const list: TravelInProgress[] = [];
    for (const t of travels.values()) {
      const macs = t.macs.filter((m) => !taken.has(m));
      macs.forEach((m) => taken.add(m));
      if (macs.length > 0) list.push({ ...t, macs });
    }
    return { devices, travels: list };
  }

  /** A travel's road and where the demo picked it up: at its last position (the seed's, or a user's), else its origin. */
  private driven(t: TravelInProgress, index: number, now: number): DrivenTravel {
    let driven = this.travels.get(t.id);
    if (!driven) {
      const road = roadBetween([t.origin_lat, t.origin_lng], [t.destiny_lat, t.destiny_lng], index + 1);
      const startKm = t.last_lat !== null && t.last_lng !== null ? kmNearest(road, [t.last_lat, t.last_lng]) : 0;
      driven = { road, startKm, since: now };
      this.travels.set(t.id, driven);
    }
    return driven;
  }
}

function midpoint(d: FleetDevice): number {
  if (d.temperature_min !== null && d.temperature_max !== null) return (d.temperature_min + d.temperature_max) / 2;
  return d.temperature_max !== null ? d.temperature_max - 3 : d.temperature_min !== null ? d.temperature_min + 3 : 5;
}
