import { JSON_SEQ_MODULO } from '@sentinela/contract';
import { supportsCopyIn } from '../db/copy-in';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { refusedByData } from '../lib/db-errors';
import { sha256 } from '../lib/tokens';
import type { AlarmLimits, ActiveAlarm, MeasuredAlarmType, PendingExcursion } from '../modules/alarms/evaluator';
import { evaluateAlarms } from '../modules/alarms/evaluator';
import { storeAlarmChanges, type DeviceAlarmChanges } from '../modules/alarms/service';
import { learnInterval } from '../modules/readings/expected-interval';
import { ensureReadingPartitions } from '../modules/readings/partitions';
import { copyReadingColumns } from '../modules/readings/copy-readings';
import { insertNewReadingColumns, insertReadingColumns, type ReadingColumns } from '../modules/readings/repository';
import { markHoursBehindLine, readPublishedLine } from '../modules/readings/rollups';
import type { AlarmChangedEvent, DeviceLiveState, EventBus } from '../realtime/event-bus';
import {
  addDiscoveredDevices,
  addRejectionCounts,
  findDevicesForGateways,
  findGatewayByKeyHash,
  lockDeviceStates,
  readAlarmStates,
  touchGateway,
  updateDeviceLastStates,
  updateTravelPositions,
  type AlarmStateRow,
  type DeviceForGateway,
  type DeviceStateRow,
  type DiscoveredCount,
  type LastStateUpdate,
  type RejectionCount,
} from './ingest-repository';
import { REJECTION_REASONS, isRejection, rejection, validateReading, type Rejection, type ValidReading } from './reading-validator';

/** The gateway a reading came through: what it may write is decided per device, per batch. */
export interface GatewayIdentity {
  id: string;
  enterpriseId: string | null;
}

/** Raw readings from one source: an HTTP body, or one MQTT message. */
export interface IngestPart {
  gateway: GatewayIdentity;
  readings: readonly unknown[];
  /** MQTT: the MAC of the topic, which readings without a MAC take. */
  topicMac?: string;
  /** Rejections decided before the readings could be read (a bad topic or payload). */
  rejected?: readonly Rejection[];
  /** Each reading's index in what the gateway sent, when not its position in `readings` (a Ruuvi relay's tags). */
  indexes?: readonly number[];
  /**
   * Sequence counters' moduli of readings decoded from a vendor format (ADR 33, 35), by position in `readings`: the
   * format's own (256 for a Xiaomi counter, 65535 for RAWv2; null: none), handed to the validator. Without it, each
   * reading's counter is Sentinela's JSON one, 16-bit.
   */
  seqModuli?: readonly (number | null)[];
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: Rejection[];
}

interface Logger {
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
}

interface Candidate extends ValidReading {
  device: DeviceForGateway;
  travelId: string | null;
}

type DeviceEffects = Awaited<ReturnType<IngestService['applyToDevices']>>;

interface StoreOutcome {
  inserted: number;
  /** One per committed transaction, emitted once all are committed. */
  effects: DeviceEffects[];
  /** Readings the database refused even alone. */
  notStored: Candidate[];
}

const UNIQUE_VIOLATION = '23505';
/** Errors after which the whole batch is simply tried again: deadlock, serialisation, a stored duplicate. */
const RETRYABLE = new Set(['40P01', '40001', UNIQUE_VIOLATION]);
const MAX_ATTEMPTS = 3;
/** gateways.last_seen_at is written at most this often per gateway and process. */
const SEEN_EVERY_MS = 60_000;

function monthOf(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/**
 * Ingestion (D5): validates readings, stores a batch in one transaction, and only then answers.
 * Per batch, whatever its size: one device lookup, one COPY (or insert) of the readings, one lock of the devices
 * (returning their state), one read of their alarm state, one update of their last state, and alarm statements only
 * when an alarm changes. Nothing is done per reading in the database.
 */
export class IngestService {
  private readonly seenAt = new Map<string, number>();
  /** Readings are copied in (PostgreSQL through pg) rather than inserted (PGlite). */
  private readonly copyIn: boolean;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly log: Logger,
  ) {
    this.copyIn = supportsCopyIn(db);
  }

  /** The service's clock, in ms: the time of readings whose gateway sends none (a Ruuvi Gateway without NTP). */
  nowMs(): number {
    return this.clock.now().getTime();
  }

  /** The gateway of an API key, or null when the key is unknown or revoked. */
  async authenticateKey(key: string): Promise<GatewayIdentity | null> {
    if (!key) return null;
    const row = await findGatewayByKeyHash(this.db, sha256(key));
    if (!row || row.revoked_at) return null;
    return { id: row.id, enterpriseId: row.enterprise_id };
  }

  async ingest(parts: readonly IngestPart[]): Promise<IngestResult> {
    const now = this.clock.now();
    const nowMs = now.getTime();
    const rejected: Rejection[] = [];
    const rejectedGateway: string[] = [];
    const reject = (gatewayId: string, r: Rejection) => {
      rejected.push(r);
      rejectedGateway.push(gatewayId);
    };

    // 1. Each reading on its own: shape, MAC, time, physical ranges. (The valid readings become the
    //    candidates themselves, device and travel added in place: no copies on the hot path.)
    const valid: Candidate[] = [];
    const validGateway: GatewayIdentity[] = [];
    for (const part of parts) {
      // Checked before awaiting: an MQTT batch has a part per message, and an await each would cost a turn each.
      if (this.dueToBeSeen(part.gateway.id, nowMs)) await this.noteSeen(part.gateway.id, nowMs);
      for (const r of part.rejected ?? []) reject(part.gateway.id, r);
      for (let i = 0; i < part.readings.length; i++) {
        const seqModulo = part.seqModuli ? (part.seqModuli[i] ?? null) : JSON_SEQ_MODULO;
        const checked = validateReading(part.readings[i], part.indexes?.[i] ?? i, nowMs, part.topicMac, seqModulo);
        if (isRejection(checked)) reject(part.gateway.id, checked);
        else {
          valid.push(checked as Candidate);
          validGateway.push(part.gateway);
        }
      }
    }

    // 2. Which devices these are and whether each gateway may write them: one query for the batch.
    const candidates: Candidate[] = [];
    // MACs no device has, for the super admin to register (ADR 18): one row per MAC and batch, never per reading.
    const discovered = new Map<string, DiscoveredCount>();
    if (valid.length > 0) {
      // Keyed by gateway, then MAC (nested maps rather than "gateway mac" strings: no string built per reading).
      const pairs: { mac: string; gatewayId: string }[] = [];
      const found = new Map<string, Map<string, DeviceForGateway | null>>();
      for (let i = 0; i < valid.length; i++) {
        const gatewayId = validGateway[i]!.id;
        let macs = found.get(gatewayId);
        if (!macs) found.set(gatewayId, (macs = new Map()));
        if (!macs.has(valid[i]!.mac)) {
          macs.set(valid[i]!.mac, null);
          pairs.push({ mac: valid[i]!.mac, gatewayId });
        }
      }
      for (const row of await findDevicesForGateways(this.db, pairs)) found.get(row.gateway_id)?.set(row.mac, row);
      valid.forEach((v, i) => {
        const gatewayId = validGateway[i]!.id;
        const device = found.get(gatewayId)!.get(v.mac);
        // Another enterprise's device answers exactly like one that does not exist: a gateway key must not tell
        // which MACs are registered elsewhere (issue 9, no small oracles).
        if (!device || !device.allowed) {
          reject(gatewayId, rejection(v.index, v.mac, 'unknown_device', REJECTION_REASONS.unknown_device));
          // Only the super admin lists these; the gateway's answer stays the same for foreign and unknown MACs.
          if (!device) noteDiscovered(discovered, v.mac, gatewayId, v.ts);
        }
        else if (!device.gateway_active) reject(gatewayId, rejection(v.index, v.mac, 'gateway_revoked', REJECTION_REASONS.gateway_revoked));
        else {
          v.device = device;
          v.travelId = device.travel_id !== null && (device.travel_started_at === null || v.ts >= device.travel_started_at.getTime()) ? device.travel_id : null;
          candidates.push(v);
        }
      });
    }

    // 3. One order for every writer, (device, time): concurrent batches then wait for one another instead of
    //    deadlocking on rows both insert. Repeats within the batch are duplicates like stored ones.
    candidates.sort((a, b) => a.device.num - b.device.num || a.ts - b.ts);
    const unique: Candidate[] = [];
    for (const c of candidates) {
      const last = unique[unique.length - 1];
      if (!last || last.device.num !== c.device.num || last.ts !== c.ts) unique.push(c);
    }

    if (unique.length === 0 && rejected.length === 0) return { accepted: 0, duplicates: candidates.length, rejected };
    if (unique.length > 0) await this.ensurePartitions(unique);

    // The whole batch and its rejection counts in one transaction: the common case. When the database still refuses
    // a value (a defect of validation), the batch is stored part by part so that only the offending readings are
    // rejected; the counts then follow in a transaction of their own.
    let outcome: StoreOutcome;
    try {
      outcome = await this.storeOnce(unique, this.rejectionCounts(rejected, rejectedGateway, now), [...discovered.values()], now);
    } catch (err) {
      if (!refusedByData(err)) throw err;
      this.log.error({ err, defect: 'reading refused by the database after validation', readings: unique.length }, 'ingest batch stored part by part');
      outcome = { inserted: 0, effects: [], notStored: [] };
      await this.storeHalves(unique, now, outcome);
      for (const c of outcome.notStored) reject(c.device.gateway_id, rejection(c.index, c.mac, 'not_stored', REJECTION_REASONS.not_stored));
      await this.storeRejectionCounts(this.rejectionCounts(rejected, rejectedGateway, now), [...discovered.values()], now);
    }

    // 4. Committed: tell the rest of the process.
    for (const effects of outcome.effects) {
      if (effects.live.length > 0) this.events.emit('readings.stored', { devices: effects.live, travelIds: effects.travelIds });
      for (const a of effects.opened) this.events.emit('alarm.opened', a);
      for (const a of effects.closed) this.events.emit('alarm.closed', a);
    }
    return { accepted: outcome.inserted, duplicates: candidates.length - outcome.notStored.length - outcome.inserted, rejected };
  }

  /**
   * Readings, their effects on devices and the rejection counts, in one transaction. The readings go first, as the
   * transaction's first statement (writeReadings): when the batch repeats stored readings, the whole transaction is
   * simply run again with the conflict-skipping insert.
   */
  private async storeOnce(rows: readonly Candidate[], counts: readonly RejectionCount[], discovered: readonly DiscoveredCount[], now: Date): Promise<StoreOutcome> {
    const columns = toColumns(rows);
    let skipDuplicates = false;
    const done = await this.inTransaction(
      async (trx) => {
        const stored = await this.writeReadings(trx, rows, columns, skipDuplicates);
        const effects = rows.length > 0 ? await this.applyToDevices(trx, rows, now) : null;
        await addRejectionCounts(trx, counts, now);
        await addDiscoveredDevices(trx, discovered);
        return { inserted: stored.length, effects };
      },
      (code) => {
        if (code === UNIQUE_VIOLATION) skipDuplicates = true;
      },
    );
    return { inserted: done.inserted, effects: done.effects ? [done.effects] : [], notStored: [] };
  }

  /**
   * Stores the batch's readings (unique per device and time, in device and time order) in the transaction and returns
   * those that were new. Common case, nothing of the batch stored yet: one binary COPY on PostgreSQL (ADR 42), the
   * plain insert on PGlite, which has no COPY FROM STDIN through its driver; either fails on a stored reading (23505).
   * With `skipDuplicates` (the transaction's second run): INSERT … ON CONFLICT DO NOTHING, returning what it added.
   */
  private async writeReadings(trx: Db, rows: readonly Candidate[], columns: ReadingColumns, skipDuplicates: boolean): Promise<readonly Candidate[]> {
    if (rows.length === 0) return rows;
    if (!skipDuplicates) {
      const copied = this.copyIn ? await copyReadingColumns(trx, columns) : await insertReadingColumns(trx, columns, { skipDuplicates: false });
      if (copied !== rows.length) throw new Error(`readings stored ${copied} of ${rows.length} rows without an error`);
      return rows;
    }
    const added = new Set<string>();
    for (const key of await insertNewReadingColumns(trx, columns)) added.add(`${key.num} ${key.ms}`);
    return added.size === rows.length ? rows : rows.filter((r) => added.has(`${r.device.num} ${r.ts}`));
  }

  /**
   * Bisection after the database refused `rows`: each half is tried on its own, and a half that is refused again
   * is halved in turn, down to the single readings the database will not take (k bad readings among n cost about
   * 2·k·log2(n) transactions; there are none unless validation has a gap). Order is kept, so a device's readings
   * are still applied oldest first. A connection lost meanwhile is thrown: what committed stays, and the resent
   * batch skips it as duplicates.
   */
  private async storeHalves(rows: readonly Candidate[], now: Date, out: StoreOutcome): Promise<void> {
    if (rows.length === 0) return;
    if (rows.length === 1) {
      out.notStored.push(rows[0]!);
      return;
    }
    const mid = rows.length >>> 1;
    for (const half of [rows.slice(0, mid), rows.slice(mid)]) {
      try {
        const stored = await this.storeOnce(half, [], [], now);
        out.inserted += stored.inserted;
        out.effects.push(...stored.effects);
      } catch (err) {
        if (!refusedByData(err)) throw err;
        await this.storeHalves(half, now, out);
      }
    }
  }

  /** Counters only (after a bisection); a counter the database refuses is logged, never a reason to fail readings. */
  private async storeRejectionCounts(counts: readonly RejectionCount[], discovered: readonly DiscoveredCount[], now: Date): Promise<void> {
    try {
      await this.inTransaction(async (trx) => {
        await addRejectionCounts(trx, counts, now);
        await addDiscoveredDevices(trx, discovered);
      }, () => {});
    } catch (err) {
      if (!refusedByData(err)) throw err;
      this.log.error({ err, defect: 'rejection counts refused by the database' }, 'ingest rejection counts not stored');
    }
  }

  /**
   * Inside the batch's transaction, for the devices it touched: the last state, the travels' positions and
   * the alarms. Only readings newer than a device's last sync count, so a late or repeated reading never
   * moves the state back in time nor reopens an alarm.
   */
  private async applyToDevices(trx: Db, unique: readonly Candidate[], now: Date) {
    const nums: number[] = [];
    for (const c of unique) if (nums[nums.length - 1] !== c.device.num) nums.push(c.device.num);
    const states = new Map<number, DeviceStateRow>();
    const locked = await lockDeviceStates(trx, nums);
    for (const row of locked) states.set(row.num, row);
    // ADR 0045: the hours of readings behind the roll-up line are marked (late readings only; current ones cost
    // nothing). Every stored reading counts, also those older than the device's last sync.
    const lineMs = locked[0]?.rollup_line_ms ?? (await readPublishedLine(trx));
    if (unique.some((c) => c.ts < lineMs)) await markHoursBehindLine(trx, { deviceNum: unique.map((c) => c.device.num), tsMs: unique.map((c) => c.ts) }, lineMs);
    const alarmStates = new Map<string, AlarmStateRow[]>();
    for (const row of await readAlarmStates(trx, [...states.values()].map((d) => d.id))) {
      const list = alarmStates.get(row.device_id);
      if (list) list.push(row);
      else alarmStates.set(row.device_id, [row]);
    }

    const lastStates: LastStateUpdate[] = [];
    const live: DeviceLiveState[] = [];
    const travelPositions = new Map<string, { travelId: string; lat: number; lng: number; ts: number }>();
    const alarmBatch: DeviceAlarmChanges[] = [];

    for (let start = 0; start < unique.length; ) {
      let end = start;
      while (end < unique.length && unique[end]!.device.num === unique[start]!.device.num) end++;
      const state = states.get(unique[start]!.device.num);
      const lastSync = state?.last_sync_at ? state.last_sync_at.getTime() : -Infinity;
      let first = start;
      while (first < end && unique[first]!.ts <= lastSync) first++;
      if (state && first < end) {
        const newer = unique.slice(first, end);
        const update = mergeLastState(state, newer);
        lastStates.push(update);
        const newest = newer[newer.length - 1]!;
        live.push({
          deviceId: state.id, mac: state.mac, enterpriseId: state.enterprise_id, travelId: newest.travelId,
          lastSyncAt: new Date(newest.ts), temperature: update.temperature, humidity: update.humidity,
          battery: update.battery, lat: update.lat, lng: update.lng, stored: newer.length,
          moved: update.lat !== state.last_lat || update.lng !== state.last_lng,
        });
        if (newest.travelId && update.lat !== null && update.lng !== null) {
          const seen = travelPositions.get(newest.travelId);
          if (!seen || seen.ts < newest.ts) travelPositions.set(newest.travelId, { travelId: newest.travelId, lat: update.lat, lng: update.lng, ts: newest.ts });
        }
        const changes = evaluateAlarms(alarmStateOf(state, newest.device, alarmStates.get(state.id) ?? []), newer);
        if (changes.opened.length || changes.updated.length || changes.pendingUpserts.length || changes.pendingDeletes.length) {
          alarmBatch.push({ deviceId: state.id, enterpriseId: state.enterprise_id, travelId: newest.travelId, changes });
        }
      }
      start = end;
    }

    await updateDeviceLastStates(trx, lastStates);
    await updateTravelPositions(trx, [...travelPositions.values()]);
    const alarms = alarmBatch.length > 0 ? await storeAlarmChanges(trx, alarmBatch, now) : { opened: [] as AlarmChangedEvent[], closed: [] as AlarmChangedEvent[] };
    return { live, travelIds: [...new Set(live.flatMap((d) => (d.travelId ? [d.travelId] : [])))], ...alarms };
  }

  private async ensurePartitions(rows: readonly Candidate[]): Promise<void> {
    let min = Infinity;
    let max = -Infinity;
    for (const r of rows) {
      if (r.ts < min) min = r.ts;
      if (r.ts > max) max = r.ts;
    }
    // Almost every batch lies within one month: check its two ends rather than every row.
    const dates = monthOf(min) === monthOf(max) ? [new Date(min)] : rows.map((r) => new Date(r.ts));
    await ensureReadingPartitions(this.db, dates);
  }

  private rejectionCounts(rejected: readonly Rejection[], gateways: readonly string[], now: Date): RejectionCount[] {
    const day = now.toISOString().slice(0, 10);
    const counts = new Map<string, RejectionCount>();
    rejected.forEach((r, i) => {
      const gatewayId = gateways[i]!;
      const key = `${gatewayId} ${r.code}`;
      const row = counts.get(key);
      if (row) {
        row.count++;
        row.lastMac = r.mac ?? row.lastMac;
      } else counts.set(key, { gatewayId, day, reason: r.code, count: 1, lastMac: r.mac });
    });
    return [...counts.values()];
  }

  private async inTransaction<T>(work: (trx: Db) => Promise<T>, beforeRetry: (code: string) => void): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(work);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw err;
        if (code !== UNIQUE_VIOLATION) this.log.warn({ err, attempt }, 'ingest batch retried');
        beforeRetry(code);
      }
    }
  }

  /** Whether gateways.last_seen_at is due: one write per gateway and minute, not per batch. */
  private dueToBeSeen(gatewayId: string, nowMs: number): boolean {
    const last = this.seenAt.get(gatewayId);
    return last === undefined || nowMs - last >= SEEN_EVERY_MS;
  }

  /** Keeps gateways.last_seen_at roughly current. */
  private async noteSeen(gatewayId: string, nowMs: number): Promise<void> {
    this.seenAt.set(gatewayId, nowMs);
    await touchGateway(this.db, gatewayId, new Date(nowMs)).catch((err: unknown) => this.log.error({ err, gatewayId }, 'gateway last_seen_at not updated'));
  }

}

function noteDiscovered(into: Map<string, DiscoveredCount>, mac: string, gatewayId: string, ts: number): void {
  const row = into.get(mac);
  if (!row) into.set(mac, { mac, gatewayId, count: 1, firstMs: ts, lastMs: ts });
  else {
    row.count++;
    if (ts < row.firstMs) row.firstMs = ts;
    if (ts >= row.lastMs) {
      row.lastMs = ts;
      row.gatewayId = gatewayId;
    }
  }
}

function toColumns(rows: readonly Candidate[]): ReadingColumns {
  const n = rows.length;
  const c: ReadingColumns = {
    deviceNum: new Array(n), tsMs: new Array(n), temperature: new Array(n), humidity: new Array(n),
    battery: new Array(n), lat: new Array(n), lng: new Array(n), travelId: new Array(n), seq: new Array(n), seqModulo: new Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    c.deviceNum[i] = r.device.num;
    c.tsMs[i] = r.ts;
    c.temperature[i] = r.temperature;
    c.humidity[i] = r.humidity;
    c.battery[i] = r.battery;
    c.lat[i] = r.lat;
    c.lng[i] = r.lng;
    c.travelId[i] = r.travelId;
    c.seq[i] = r.seq;
    c.seqModulo[i] = r.seqModulo;
  }
  return c;
}

/**
 * The device's new last state from its readings newer than its last sync (oldest first): the time of the
 * newest, and for each value the newest reading that carried it (a reading without temperature does not
 * erase the last known temperature). Position moves as a pair.
 */
function mergeLastState(state: DeviceStateRow, newer: readonly Candidate[]): LastStateUpdate {
  const out: LastStateUpdate = {
    num: state.num,
    ts: new Date(newer[newer.length - 1]!.ts).toISOString(),
    temperature: state.last_temperature,
    humidity: state.last_humidity,
    battery: state.last_battery,
    lat: state.last_lat,
    lng: state.last_lng,
    learnedInterval: state.learned_interval_seconds,
  };
  const times = new Array<number>(newer.length);
  for (let i = 0; i < newer.length; i++) times[i] = newer[i]!.ts;
  out.learnedInterval = learnInterval(state.learned_interval_seconds, state.last_sync_at ? state.last_sync_at.getTime() : null, times);
  for (const r of newer) {
    if (r.temperature !== null) out.temperature = r.temperature;
    if (r.humidity !== null) out.humidity = r.humidity;
    if (r.battery !== null) out.battery = r.battery;
    if (r.lat !== null && r.lng !== null) {
      out.lat = r.lat;
      out.lng = r.lng;
    }
  }
  return out;
}

/** The device's limits (a travel's own limits override them while the device travels) and alarm state. */
function alarmStateOf(state: DeviceStateRow, device: DeviceForGateway, rows: readonly AlarmStateRow[]) {
  const travel = device.travel_id !== null;
  const limits: AlarmLimits = {
    temperatureMin: (travel ? device.travel_temperature_min : null) ?? state.temperature_min,
    temperatureMax: (travel ? device.travel_temperature_max : null) ?? state.temperature_max,
    humidityMin: (travel ? device.travel_humidity_min : null) ?? state.humidity_min,
    humidityMax: (travel ? device.travel_humidity_max : null) ?? state.humidity_max,
  };
  const active: ActiveAlarm[] = [];
  const pending: PendingExcursion[] = [];
  for (const r of rows) {
    const observed = { temperatureMin: r.temperature_min, temperatureMax: r.temperature_max, humidityMin: r.humidity_min, humidityMax: r.humidity_max };
    if (r.kind === 'alarm') active.push({ id: r.id!, type: r.type as ActiveAlarm['type'], startedAt: r.started_at.getTime(), observed });
    else pending.push({ type: r.type as MeasuredAlarmType, startedAt: r.started_at.getTime(), lastAt: (r.last_at ?? r.started_at).getTime(), observed });
  }
  return { limits, delayMs: state.out_of_range_minutes * 60_000, active, pending };
}
