import type { AlarmType } from '@sentinela/contract';
import { alarmMessage } from './format';

/**
 * The alarm rules of D6 as a pure function: a device's alarm state and its new readings (oldest first)
 * in, the changes to store out. One alarm per excursion and type; back inside the limits closes it.
 * With a delay (out_of_range_minutes), an excursion is held as pending and becomes an alarm only once it
 * has lasted that long, starting when the excursion started.
 */

export type MeasuredAlarmType = Exclude<AlarmType, 'no_data'>;
export const MEASURED_ALARM_TYPES: readonly MeasuredAlarmType[] = ['temperature_high', 'temperature_low', 'humidity_high', 'humidity_low'];

export interface AlarmLimits {
  temperatureMin: number | null;
  temperatureMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
}

/** Extremes seen during an excursion (both measures, whatever the alarm's type). */
export interface Observed {
  temperatureMin: number | null;
  temperatureMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
}

export interface ActiveAlarm {
  id: string;
  type: AlarmType;
  startedAt: number;
  observed: Observed;
}

export interface PendingExcursion {
  type: MeasuredAlarmType;
  startedAt: number;
  lastAt: number;
  observed: Observed;
}

export interface DeviceAlarmState {
  limits: AlarmLimits;
  /** How long an excursion must last before it is an alarm (0: at once). */
  delayMs: number;
  active: readonly ActiveAlarm[];
  pending: readonly PendingExcursion[];
}

export interface ReadingForAlarms {
  ts: number;
  temperature: number | null;
  humidity: number | null;
}

export interface AlarmUpdate {
  id: string;
  type: AlarmType;
  observed: Observed;
  /** Set when the excursion ended in this batch. */
  endedAt: number | null;
}

export interface OpenedAlarm {
  type: MeasuredAlarmType;
  message: string;
  startedAt: number;
  /** An excursion may open and end within one batch. */
  endedAt: number | null;
  observed: Observed;
}

export interface AlarmChanges {
  updated: AlarmUpdate[];
  opened: OpenedAlarm[];
  pendingUpserts: PendingExcursion[];
  pendingDeletes: MeasuredAlarmType[];
}

export const emptyObserved = (): Observed => ({ temperatureMin: null, temperatureMax: null, humidityMin: null, humidityMax: null });

function observe(o: Observed, r: ReadingForAlarms): void {
  if (r.temperature !== null) {
    o.temperatureMin = o.temperatureMin === null ? r.temperature : Math.min(o.temperatureMin, r.temperature);
    o.temperatureMax = o.temperatureMax === null ? r.temperature : Math.max(o.temperatureMax, r.temperature);
  }
  if (r.humidity !== null) {
    o.humidityMin = o.humidityMin === null ? r.humidity : Math.min(o.humidityMin, r.humidity);
    o.humidityMax = o.humidityMax === null ? r.humidity : Math.max(o.humidityMax, r.humidity);
  }
}

/**
 * Whether a reading is outside the limit of a type: true / false, or null when the reading does not
 * measure it (a missing value neither continues nor ends an excursion). A value equal to a limit is inside.
 */
function isOutside(type: MeasuredAlarmType, limits: AlarmLimits, r: ReadingForAlarms): boolean | null {
  switch (type) {
    case 'temperature_high':
      return r.temperature === null ? null : limits.temperatureMax !== null && r.temperature > limits.temperatureMax;
    case 'temperature_low':
      return r.temperature === null ? null : limits.temperatureMin !== null && r.temperature < limits.temperatureMin;
    case 'humidity_high':
      return r.humidity === null ? null : limits.humidityMax !== null && r.humidity > limits.humidityMax;
    case 'humidity_low':
      return r.humidity === null ? null : limits.humidityMin !== null && r.humidity < limits.humidityMin;
  }
}

function limitOf(type: MeasuredAlarmType, limits: AlarmLimits): number | null {
  switch (type) {
    case 'temperature_high':
      return limits.temperatureMax;
    case 'temperature_low':
      return limits.temperatureMin;
    case 'humidity_high':
      return limits.humidityMax;
    case 'humidity_low':
      return limits.humidityMin;
  }
}

interface Tracked {
  id: string | null;
  type: AlarmType;
  message: string;
  startedAt: number;
  endedAt: number | null;
  observed: Observed;
  touched: boolean;
}

export function evaluateAlarms(state: DeviceAlarmState, readings: readonly ReadingForAlarms[]): AlarmChanges {
  const tracked: Tracked[] = [];
  const activeByType = new Map<AlarmType, Tracked>();
  for (const a of state.active) {
    const t: Tracked = { id: a.id, type: a.type, message: '', startedAt: a.startedAt, endedAt: null, observed: { ...a.observed }, touched: false };
    tracked.push(t);
    activeByType.set(a.type, t);
  }
  const pending = new Map<MeasuredAlarmType, PendingExcursion & { touched: boolean }>();
  for (const p of state.pending) pending.set(p.type, { ...p, observed: { ...p.observed }, touched: false });
  const hadPending = new Set(pending.keys());

  // Any reading ends a "no data" alarm.
  const noData = activeByType.get('no_data');
  if (noData && readings.length > 0) {
    noData.endedAt = readings[0]!.ts;
    noData.touched = true;
    activeByType.delete('no_data');
  }

  for (const r of readings) {
    for (const type of MEASURED_ALARM_TYPES) {
      const outside = isOutside(type, state.limits, r);
      if (outside === null) continue;
      const active = activeByType.get(type);
      const held = pending.get(type);
      if (!outside) {
        if (active) {
          active.endedAt = r.ts;
          active.touched = true;
          activeByType.delete(type);
        }
        if (held) pending.delete(type);
        continue;
      }
      if (active) {
        observe(active.observed, r);
        active.touched = true;
        continue;
      }
      const excursion = held ?? { type, startedAt: r.ts, lastAt: r.ts, observed: emptyObserved(), touched: true };
      observe(excursion.observed, r);
      excursion.lastAt = r.ts;
      excursion.touched = true;
      if (r.ts - excursion.startedAt >= state.delayMs) {
        const opened: Tracked = {
          id: null,
          type,
          message: alarmMessage(type, limitOf(type, state.limits)),
          startedAt: excursion.startedAt,
          endedAt: null,
          observed: excursion.observed,
          touched: true,
        };
        tracked.push(opened);
        activeByType.set(type, opened);
        pending.delete(type);
      } else {
        pending.set(type, excursion);
      }
    }
  }

  const changes: AlarmChanges = { updated: [], opened: [], pendingUpserts: [], pendingDeletes: [] };
  for (const t of tracked) {
    if (t.id === null) {
      changes.opened.push({ type: t.type as MeasuredAlarmType, message: t.message, startedAt: t.startedAt, endedAt: t.endedAt, observed: t.observed });
    } else if (t.touched) {
      changes.updated.push({ id: t.id, type: t.type, observed: t.observed, endedAt: t.endedAt });
    }
  }
  for (const p of pending.values()) {
    if (p.touched) changes.pendingUpserts.push({ type: p.type, startedAt: p.startedAt, lastAt: p.lastAt, observed: p.observed });
  }
  for (const type of hadPending) if (!pending.has(type)) changes.pendingDeletes.push(type);
  return changes;
}
