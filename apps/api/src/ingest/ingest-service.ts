import { asSystem } from '../lib/audit-context';
import { supportsCopyIn } from '../db/copy-in';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { refusedByData } from '../lib/db-errors';
import { sha256 } from '../lib/tokens';
import type { AppMetrics } from '../metrics/metrics';
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
  findGatewayByKeyHash,
  lookUpAndLockDevices,
  recordFirmwareChanges,
  touchGateway,
  updateLastStatesReadAlarms,
  updateTravelPositions,
  type AlarmStateRow,
  type DeviceForGateway,
  type DeviceStateRow,
  type DiscoveredCount,
  type FirmwareChange,
  type LastStateUpdate,
  type RejectionCount,
} from './ingest-repository';
import { REJECTION_REASONS, checkReadings, rejection, type CheckedReadings, type RawReadings, type Rejection, type ValidReading } from './reading-validator';

/** The gateway a reading came through: what it may write is decided per device, per batch. */
export interface GatewayIdentity {
  id: string;
  enterpriseId: string | null;
}

/** Raw readings from one source (an HTTP body, one MQTT message), checked by `ingest` itself. */
export interface RawPart extends RawReadings {
  gateway: GatewayIdentity;
}

/** Readings from one source already checked one by one (by the payload reader, inline or in a thread). */
export interface CheckedPart extends CheckedReadings {
  gateway: GatewayIdentity;
  /** MQTT: the MAC of the topic (micro-batches are sharded by it). */
  topicMac?: string;
}

export type IngestPart = RawPart | CheckedPart;

export function isChecked(part: IngestPart): part is CheckedPart {
  return 'valid' in part;
}

/** The readings a part holds (what a micro-batch's size counts). */
export function readingsIn(part: IngestPart): number {
  return isChecked(part) ? part.valid.length : part.readings.length;
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

/** Valid readings of a batch, each with the gateway it came through (same positions). */
interface ValidBatch {
  readings: Candidate[];
  gateways: GatewayIdentity[];
}

/** Rejections with the gateway each came through (same positions). */
interface Rejections {
  list: Rejection[];
  gatewayIds: string[];
}

interface StoreOutcome {
  inserted: number;
  /** Readings that reached the write (known devices the gateway may write), duplicates included. */
  candidates: number;
  /** One per committed transaction, emitted once all are committed. */
  effects: DeviceEffects[];
  /** Readings the device lookup refused (unknown device, revoked key), in the committed transactions. */
  refused: Rejections;
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
 * Per batch, whatever its size, in its transaction (ADR 46): BEGIN, one device lookup that also locks the devices
 * the gateway may write (returning their state), one COPY (or insert) of the readings, one update of the devices'
 * last state that also reads their alarm state, COMMIT; alarm, travel and rejection statements only when there are
 * such changes. Nothing is done per reading in the database.
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
    private readonly metrics: AppMetrics,
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

  /** Stores a batch (an HTTP body, or an MQTT micro-batch of messages) and counts it in the metrics, once per batch. */
  async ingest(parts: readonly IngestPart[]): Promise<IngestResult> {
    const started = performance.now();
    try {
      const result = await this.ingestBatch(parts);
      this.metrics.batchStored(result, (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      this.metrics.ingestBatchFailures.inc();
      throw err;
    }
  }

  private async ingestBatch(parts: readonly IngestPart[]): Promise<IngestResult> {
    const now = this.clock.now();
    const nowMs = now.getTime();
    const rejected: Rejections = { list: [], gatewayIds: [] };

    // 1. Each reading on its own: shape, MAC, time, physical ranges. (The valid readings become the
    //    candidates themselves, device and travel added in place: no copies on the hot path.)
    const valid: ValidBatch = { readings: [], gateways: [] };
    for (const part of parts) {
      // Checked before awaiting: an MQTT batch has a part per message, and an await each would cost a turn each.
      if (this.dueToBeSeen(part.gateway.id, nowMs)) await this.noteSeen(part.gateway.id, nowMs);
      const checked = isChecked(part) ? part : checkReadings(part, nowMs);
      for (const r of checked.rejected) addRejection(rejected, part.gateway.id, r);
      for (const reading of checked.valid) {
        valid.readings.push(reading as Candidate);
        valid.gateways.push(part.gateway);
      }
    }
    if (valid.readings.length === 0 && rejected.list.length === 0) return { accepted: 0, duplicates: 0, rejected: [] };
    // Before the transaction: a partition created on another connection while this one holds device locks could
    // wait on a batch that waits on those locks.
    if (valid.readings.length > 0) await this.ensurePartitions(valid.readings);

    // 2. The whole batch and its rejection counts in one transaction: the common case. When the database still
    //    refuses a value (a defect of validation), the batch is stored part by part so that only the offending
    //    readings are rejected; the counts then follow in a transaction of their own.
    let outcome: StoreOutcome;
    try {
      outcome = await this.storeOnce(valid, rejected, now);
    } catch (err) {
      if (!refusedByData(err)) throw err;
      this.log.error({ err, defect: 'reading refused by the database after validation', readings: valid.readings.length }, 'ingest batch stored part by part');
      outcome = { inserted: 0, candidates: 0, effects: [], refused: { list: [], gatewayIds: [] }, notStored: [] };
      await this.storeHalves(inDeviceOrder(valid), now, outcome);
      const counted: Rejections = { list: [...rejected.list], gatewayIds: [...rejected.gatewayIds] };
      for (const c of outcome.notStored) addRejection(counted, c.device.gateway_id, rejection(c.index, c.mac, 'not_stored', REJECTION_REASONS.not_stored));
      await this.storeRejectionCounts(this.rejectionCounts(counted.list, counted.gatewayIds, now), now);
    }

    // 3. Committed: tell the rest of the process.
    for (const effects of outcome.effects) {
      if (effects.live.length > 0) this.events.emit('readings.stored', { devices: effects.live, travelIds: effects.travelIds });
      for (const a of effects.opened) this.events.emit('alarm.opened', a);
      for (const a of effects.closed) this.events.emit('alarm.closed', a);
    }
    const answer = [...rejected.list, ...outcome.refused.list];
    for (const c of outcome.notStored) answer.push(rejection(c.index, c.mac, 'not_stored', REJECTION_REASONS.not_stored));
    return { accepted: outcome.inserted, duplicates: outcome.candidates - outcome.inserted, rejected: answer };
  }

  /**
   * Valid readings, their effects on devices and the rejection counts (`rejected`, plus what the device lookup
   * refuses), in one transaction. Its first statement looks the devices up and locks those the batch may write; the
   * readings go in next. When the batch repeats stored readings the COPY fails (23505) and the whole transaction is
   * simply run again with the conflict-skipping insert; a deadlock or serialisation failure reruns it as it is.
   */
  private async storeOnce(batch: ValidBatch, rejected: Rejections, now: Date): Promise<StoreOutcome> {
    let skipDuplicates = false;
    return this.inTransaction(
      async (trx) => {
        const found = batch.readings.length > 0 ? await this.lookUp(trx, batch) : { unique: [], candidates: 0, refused: { list: [], gatewayIds: [] }, discovered: [] };
        const stored = await this.writeReadings(trx, found.unique, skipDuplicates);
        const effects = found.unique.length > 0 ? await this.applyToDevices(trx, found.unique, now) : null;
        const counts = this.rejectionCounts([...rejected.list, ...found.refused.list], [...rejected.gatewayIds, ...found.refused.gatewayIds], now);
        await addRejectionCounts(trx, counts, now);
        await addDiscoveredDevices(trx, found.discovered);
        return { inserted: stored.length, candidates: found.candidates, effects: effects ? [effects] : [], refused: found.refused, notStored: [] };
      },
      (code) => {
        if (code === UNIQUE_VIOLATION) skipDuplicates = true;
      },
    );
  }

  /**
   * Which devices the batch's readings are for and whether each gateway may write them, the devices locked: one
   * statement (lookUpAndLockDevices). Returns the readings to write, unique per (device, time) and in that order —
   * one order for every writer, so concurrent batches wait for one another instead of deadlocking on rows both
   * insert; repeats within the batch are duplicates like stored ones — and the readings refused.
   */
  private async lookUp(trx: Db, batch: ValidBatch) {
    const { readings, gateways } = batch;
    // Keyed by gateway, then MAC (nested maps rather than "gateway mac" strings: no string built per reading).
    const pairs: { mac: string; gatewayId: string }[] = [];
    const found = new Map<string, Map<string, DeviceForGateway | null>>();
    for (let i = 0; i < readings.length; i++) {
      const gatewayId = gateways[i]!.id;
      let macs = found.get(gatewayId);
      if (!macs) found.set(gatewayId, (macs = new Map()));
      if (!macs.has(readings[i]!.mac)) {
        macs.set(readings[i]!.mac, null);
        pairs.push({ mac: readings[i]!.mac, gatewayId });
      }
    }
    for (const row of await lookUpAndLockDevices(trx, pairs)) found.get(row.gateway_id)?.set(row.mac, row);

    const refused: Rejections = { list: [], gatewayIds: [] };
    // MACs no device has, for the super admin to register (ADR 18): one row per MAC and batch, never per reading.
    const discovered = new Map<string, DiscoveredCount>();
    const candidates: Candidate[] = [];
    for (let i = 0; i < readings.length; i++) {
      const v = readings[i]!;
      const gatewayId = gateways[i]!.id;
      const device = found.get(gatewayId)!.get(v.mac);
      // Another enterprise's device answers exactly like one that does not exist: a gateway key must not tell
      // which MACs are registered elsewhere (issue 9, no small oracles). A device deleted meanwhile (found, not
      // locked) is unknown too.
      if (!device || !device.allowed || (device.gateway_active && !device.state)) {
        addRejection(refused, gatewayId, rejection(v.index, v.mac, 'unknown_device', REJECTION_REASONS.unknown_device));
        // Only the super admin lists these; the gateway's answer stays the same for foreign and unknown MACs.
        if (!device) noteDiscovered(discovered, v.mac, gatewayId, v.ts);
      }
      else if (!device.gateway_active) addRejection(refused, gatewayId, rejection(v.index, v.mac, 'gateway_revoked', REJECTION_REASONS.gateway_revoked));
      else {
        v.device = device;
        v.travelId = device.travel_id !== null && (device.travel_started_at === null || v.ts >= device.travel_started_at.getTime()) ? device.travel_id : null;
        candidates.push(v);
      }
    }

    candidates.sort((a, b) => a.device.num - b.device.num || a.ts - b.ts);
    const unique: Candidate[] = [];
    for (const c of candidates) {
      const last = unique[unique.length - 1];
      if (!last || last.device.num !== c.device.num || last.ts !== c.ts) unique.push(c);
    }
    return { unique, candidates: candidates.length, refused, discovered: [...discovered.values()] };
  }

  /**
   * Stores the batch's readings (unique per device and time, in device and time order) in the transaction and returns
   * those that were new. Common case, nothing of the batch stored yet: one binary COPY on PostgreSQL (ADR 42), the
   * plain insert on PGlite, which has no COPY FROM STDIN through its driver; either fails on a stored reading (23505).
   * With `skipDuplicates` (the transaction's second run): INSERT … ON CONFLICT DO NOTHING, returning what it added.
   */
  private async writeReadings(trx: Db, rows: readonly Candidate[], skipDuplicates: boolean): Promise<readonly Candidate[]> {
    if (rows.length === 0) return rows;
    const columns = toColumns(rows);
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
   * Bisection after the database refused `batch`: each half is tried on its own, and a half that is refused again
   * is halved in turn, down to the single readings the database will not take (k bad readings among n cost about
   * 2·k·log2(n) transactions; there are none unless validation has a gap). The batch comes in device and time order,
   * so a device's readings are still applied oldest first. A connection lost meanwhile is thrown: what committed
   * stays, and the resent batch skips it as duplicates.
   */
  private async storeHalves(batch: ValidBatch, now: Date, out: StoreOutcome): Promise<void> {
    const n = batch.readings.length;
    if (n === 0) return;
    if (n === 1) {
      // Alone and still refused: a reading for a device the lookup accepted (a refused lookup raises nothing).
      const reading = batch.readings[0]!;
      if (reading.device) out.notStored.push(reading);
      return;
    }
    const mid = n >>> 1;
    const halves = [
      { readings: batch.readings.slice(0, mid), gateways: batch.gateways.slice(0, mid) },
      { readings: batch.readings.slice(mid), gateways: batch.gateways.slice(mid) },
    ];
    for (const half of halves) {
      try {
        const stored = await this.storeOnce(half, { list: [], gatewayIds: [] }, now);
        out.inserted += stored.inserted;
        out.candidates += stored.candidates;
        out.effects.push(...stored.effects);
        out.refused.list.push(...stored.refused.list);
        out.refused.gatewayIds.push(...stored.refused.gatewayIds);
      } catch (err) {
        if (!refusedByData(err)) throw err;
        await this.storeHalves(half, now, out);
      }
    }
  }

  /** Counters only (after a bisection); a counter the database refuses is logged, never a reason to fail readings. */
  private async storeRejectionCounts(counts: readonly RejectionCount[], now: Date): Promise<void> {
    try {
      await this.inTransaction(async (trx) => {
        await addRejectionCounts(trx, counts, now);
      }, () => {});
    } catch (err) {
      if (!refusedByData(err)) throw err;
      this.log.error({ err, defect: 'rejection counts refused by the database' }, 'ingest rejection counts not stored');
    }
  }

  /**
   * Inside the batch's transaction, for the devices it touched (locked by the lookup): the last state, the travels'
   * positions and the alarms. Only readings newer than a device's last sync count, so a late or repeated reading
   * never moves the state back in time nor reopens an alarm.
   */
  private async applyToDevices(trx: Db, unique: readonly Candidate[], now: Date) {
    // ADR 0045: the hours of readings behind the roll-up line are marked (late readings only; current ones cost
    // nothing). Every stored reading counts, also those older than the device's last sync. The line is read here,
    // after the readings were written: this statement's snapshot is then taken after the batch's transaction id
    // exists (the lookup's FOR UPDATE or the COPY assigned it), which the roll-up job's wait relies on.
    const lineMs = await readPublishedLine(trx);
    if (unique.some((c) => c.ts < lineMs)) await markHoursBehindLine(trx, { deviceNum: unique.map((c) => c.device.num), tsMs: unique.map((c) => c.ts) }, lineMs);
    const lastStates: LastStateUpdate[] = [];
    const moved: { state: DeviceStateRow; newer: Candidate[] }[] = [];
    const live: DeviceLiveState[] = [];
    const travelPositions = new Map<string, { travelId: string; lat: number; lng: number; ts: number }>();
    const firmware: FirmwareChange[] = [];

    for (let start = 0; start < unique.length; ) {
      let end = start;
      while (end < unique.length && unique[end]!.device.num === unique[start]!.device.num) end++;
      const state = unique[start]!.device.state!;
      const lastSync = state.last_sync_at ? state.last_sync_at.getTime() : -Infinity;
      let first = start;
      while (first < end && unique[first]!.ts <= lastSync) first++;
      if (first < end) {
        const newer = unique.slice(first, end);
        const update = mergeLastState(state, newer);
        // The version the newest reading reports, when it differs from the one the device had (late readings, older
        // than the last sync, cannot move it back). Nothing is written for a version that did not change.
        const reported = newestFirmware(newer);
        if (reported !== null && reported !== state.firmware_version) {
          firmware.push({ deviceId: state.id, from: state.firmware_version, to: reported, at: now });
          state.firmware_version = reported;
        }
        lastStates.push(update);
        moved.push({ state, newer });
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
      }
      start = end;
    }

    const alarmStates = new Map<string, AlarmStateRow[]>();
    for (const row of await updateLastStatesReadAlarms(trx, lastStates)) {
      const list = alarmStates.get(row.device_id);
      if (list) list.push(row);
      else alarmStates.set(row.device_id, [row]);
    }
    const alarmBatch: DeviceAlarmChanges[] = [];
    for (const { state, newer } of moved) {
      const newest = newer[newer.length - 1]!;
      const changes = evaluateAlarms(alarmStateOf(state, newest.device, alarmStates.get(state.id) ?? []), newer);
      if (changes.opened.length || changes.updated.length || changes.pendingUpserts.length || changes.pendingDeletes.length) {
        alarmBatch.push({ deviceId: state.id, enterpriseId: state.enterprise_id, travelId: newest.travelId, changes });
      }
    }

    await updateTravelPositions(trx, [...travelPositions.values()]);
    if (firmware.length > 0) await recordFirmwareChanges(trx, firmware);
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
        // As the system, whatever request or timer started the batch: alarms it opens or ends are the system's (ADR 0060).
        return await asSystem('ingestão', () => this.db.transaction().execute(work));
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

function addRejection(into: Rejections, gatewayId: string, r: Rejection): void {
  into.list.push(r);
  into.gatewayIds.push(gatewayId);
}

/**
 * The valid readings by MAC (one device per MAC), then time: the order a bisection keeps, so that a device's readings
 * are applied oldest first whichever half they land in.
 */
function inDeviceOrder(batch: ValidBatch): ValidBatch {
  const order = batch.readings.map((_, i) => i);
  order.sort((a, b) => {
    const x = batch.readings[a]!;
    const y = batch.readings[b]!;
    return x.mac < y.mac ? -1 : x.mac > y.mac ? 1 : x.ts - y.ts;
  });
  return { readings: order.map((i) => batch.readings[i]!), gateways: order.map((i) => batch.gateways[i]!) };
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

/** The firmware version reported by the newest of the readings (oldest first) that carries one, or null. */
function newestFirmware(newer: readonly Candidate[]): string | null {
  for (let i = newer.length - 1; i >= 0; i--) if (newer[i]!.fw !== null) return newer[i]!.fw;
  return null;
}

/**
 * The device's new last state from its readings newer than its last sync (oldest first): the time of the
 * newest, and for each value the newest reading that carried it (a reading without temperature does not
 * erase the last known temperature). Position moves as a pair.
 */
function mergeLastState(state: DeviceStateRow, newer: readonly Candidate[]): LastStateUpdate {
  const out: LastStateUpdate = {
    num: state.num,
    deviceId: state.id,
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
