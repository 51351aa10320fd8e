/**
 * The figures a report prints about a series of readings (R2): extremes, mean, mean kinetic temperature, time out of
 * range and the excursions. Pure and single-pass per quantity, so a 100,000-reading report spends milliseconds here.
 *
 * Conventions (ADR 10):
 * - A value equal to a limit is within range; a missing limit bounds nothing.
 * - Each reading stands for the time until the next one (sample and hold). A gap longer than GAP_FACTOR × the median
 *   interval means the device was silent, and nobody knows what happened meanwhile: such a gap counts as one median
 *   interval, never more. The last reading stands for no time at all.
 * - A reading without a value of a quantity neither starts nor ends that quantity's excursion: the series of each
 *   quantity is made of the readings that have it, and the overall time out of range carries each quantity's last
 *   known state over readings that lack it.
 */
import type { Range, ReportLimits, ReportReading } from './types';

export type Quantity = 'temperature' | 'humidity';
export type ExcursionKind = 'above' | 'below';

export interface Excursion {
  /** The first reading out of range. */
  start: Date;
  /**
   * The first reading back in range (or on the other side); at a silence, the last reading out plus one median
   * interval (a silence ends an excursion: a later reading out of range starts a new one); at the end of the data,
   * the last reading.
   */
  end: Date;
  /** end − start. */
  durationMs: number;
  kind: ExcursionKind;
  quantity: Quantity;
  /** The highest value of an excursion above, the lowest of one below. */
  extreme: number;
}

export interface ReportStatistics {
  count: number;
  first: Date | null;
  last: Date | null;
  temperature: { min: number | null; max: number | null; mean: number | null; mkt: number | null };
  humidity: { min: number | null; max: number | null; mean: number | null };
  timeOutOfRangeMs: number;
  /** Oldest first. */
  excursions: Excursion[];
}

/** A gap longer than this many median intervals is a silence, counted as one median interval. */
export const GAP_FACTOR = 3;

/**
 * ΔH/R of the mean kinetic temperature, in kelvin: ΔH = 83.144 kJ/mol, R = 8.3144 J/(mol·K), the value USP <1160>
 * and the WHO guidance use for pharmaceuticals.
 */
export const MKT_DELTA_H_OVER_R = 10_000;

const KELVIN = 273.15;

/** Where a value stands against a range: above its max, below its min, or null (within, or no value). */
export function rangeStatus(value: number | null, range: Range): ExcursionKind | null {
  if (value === null) return null;
  if (range.max !== null && value > range.max) return 'above';
  if (range.min !== null && value < range.min) return 'below';
  return null;
}

/** Median of the positive intervals between consecutive readings (ms), or null with fewer than two distinct times. */
export function medianIntervalMs(readings: readonly ReportReading[]): number | null {
  const intervals: number[] = [];
  for (let i = 1; i < readings.length; i++) {
    const dt = readings[i]!.ts.getTime() - readings[i - 1]!.ts.getTime();
    if (dt > 0) intervals.push(dt);
  }
  if (intervals.length === 0) return null;
  intervals.sort((a, b) => a - b);
  const middle = intervals.length >> 1;
  return intervals.length % 2 === 1 ? intervals[middle]! : (intervals[middle - 1]! + intervals[middle]!) / 2;
}

/** The time a reading stands for, given the interval to the next one: the interval, or one median after a gap. */
export function heldMs(intervalMs: number, medianMs: number | null): number {
  if (medianMs === null) return 0;
  return intervalMs > GAP_FACTOR * medianMs ? medianMs : intervalMs;
}

/** Mean kinetic temperature (°C) of temperatures in °C, each reading weighing the same; null without values. */
export function meanKineticTemperature(temperatures: Iterable<number>): number | null {
  // ln(mean(exp(-ΔH/RT))) by a running log-sum-exp: exp(-10000/T) underflows nothing at cold-chain temperatures,
  // but the shifted form stays exact down to cryogenic ones too.
  let n = 0;
  let shift = -Infinity;
  let scaledSum = 0;
  for (const celsius of temperatures) {
    const kelvin = celsius + KELVIN;
    if (!(kelvin > 0)) continue; // a reading at or below absolute zero is a sensor fault, not a temperature
    const x = -MKT_DELTA_H_OVER_R / kelvin;
    if (x > shift) {
      scaledSum = scaledSum * Math.exp(shift - x) + 1;
      shift = x;
    } else {
      scaledSum += Math.exp(x - shift);
    }
    n++;
  }
  if (n === 0) return null;
  return MKT_DELTA_H_OVER_R / -(shift + Math.log(scaledSum / n)) - KELVIN;
}

export function computeStatistics(input: readonly ReportReading[], limits: ReportLimits): ReportStatistics {
  const readings = inTimeOrder(input);
  const median = medianIntervalMs(readings);
  const temperature = summarise(readings, 'temperature');
  const humidity = summarise(readings, 'humidity');
  const excursions = [
    ...findExcursions(readings, 'temperature', limits.temperature, median),
    ...findExcursions(readings, 'humidity', limits.humidity, median),
  ].sort((a, b) => a.start.getTime() - b.start.getTime());

  return {
    count: readings.length,
    first: readings[0]?.ts ?? null,
    last: readings.at(-1)?.ts ?? null,
    temperature: {
      min: temperature.min,
      max: temperature.max,
      mean: temperature.mean,
      mkt: meanKineticTemperature(values(readings, 'temperature')),
    },
    humidity: { min: humidity.min, max: humidity.max, mean: humidity.mean },
    timeOutOfRangeMs: timeOutOfRange(readings, limits, median),
    excursions,
  };
}

/** The readings oldest first: the input promises it; a copy is sorted only when it does not hold. */
function inTimeOrder(readings: readonly ReportReading[]): readonly ReportReading[] {
  for (let i = 1; i < readings.length; i++) {
    if (readings[i]!.ts.getTime() < readings[i - 1]!.ts.getTime()) {
      return [...readings].sort((a, b) => a.ts.getTime() - b.ts.getTime());
    }
  }
  return readings;
}

function* values(readings: readonly ReportReading[], quantity: Quantity): Generator<number> {
  for (const reading of readings) {
    const value = reading[quantity];
    if (value !== null) yield value;
  }
}

function summarise(readings: readonly ReportReading[], quantity: Quantity) {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (const reading of readings) {
    const value = reading[quantity];
    if (value === null) continue;
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value;
    n++;
  }
  return n === 0 ? { min: null, max: null, mean: null } : { min, max, mean: sum / n };
}

function findExcursions(readings: readonly ReportReading[], quantity: Quantity, range: Range, median: number | null): Excursion[] {
  const excursions: Excursion[] = [];
  let open: { start: number; kind: ExcursionKind; extreme: number } | null = null;
  let previousMs = 0;

  for (const reading of readings) {
    const value = reading[quantity];
    if (value === null) continue;
    const ms = reading.ts.getTime();
    const status = rangeStatus(value, range);
    if (open) {
      const interval = ms - previousMs;
      const held = heldMs(interval, median);
      // Back in range, the other side, or a silence (nobody knows whether the value came back meanwhile): the
      // excursion ends where the previous reading stops standing.
      if (status !== open.kind || held < interval) {
        const end = previousMs + held;
        excursions.push({ start: new Date(open.start), end: new Date(end), durationMs: end - open.start, kind: open.kind, quantity, extreme: open.extreme });
        open = null;
      }
    }
    if (status) {
      if (!open) open = { start: ms, kind: status, extreme: value };
      else if (status === 'above' ? value > open.extreme : value < open.extreme) open.extreme = value;
    }
    previousMs = ms;
  }
  if (open) {
    excursions.push({ start: new Date(open.start), end: new Date(previousMs), durationMs: previousMs - open.start, kind: open.kind, quantity, extreme: open.extreme });
  }
  return excursions;
}

function timeOutOfRange(readings: readonly ReportReading[], limits: ReportLimits, median: number | null): number {
  let total = 0;
  let temperatureOut = false;
  let humidityOut = false;
  for (let i = 0; i < readings.length; i++) {
    const reading = readings[i]!;
    // Carry each quantity's last known state over readings that lack it.
    if (reading.temperature !== null) temperatureOut = rangeStatus(reading.temperature, limits.temperature) !== null;
    if (reading.humidity !== null) humidityOut = rangeStatus(reading.humidity, limits.humidity) !== null;
    const next = readings[i + 1];
    if (next && (temperatureOut || humidityOut)) total += heldMs(next.ts.getTime() - reading.ts.getTime(), median);
  }
  return total;
}
