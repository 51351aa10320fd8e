/**
 * pt-BR formatting shared by the PDF and Excel renderers. Reports print tens of thousands of dates and numbers, so
 * these avoid a full Intl call per value: the zone offset is looked up once per quarter hour and the digits are
 * assembled by hand (the same output Intl would give, checked in format.test.ts).
 */
import { formatDecimal, formatRange } from '@sentinela/contract';
import type { Range } from './types';

const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

/**
 * Offsets of an IANA zone and the wall time of instants in it. A zone changes its offset at most a couple of times
 * a year and never twice within a day, so a UTC day whose start and end share an offset has it throughout: one
 * Intl lookup pair per day. A day with a change is resolved per quarter hour, since every offset in use is a
 * multiple of 15 minutes and changes at a whole quarter hour.
 */
export interface ZonedClock {
  readonly timeZone: string;
  /** Local wall time minus UTC at that instant, in ms (São Paulo: -3 h). */
  offsetMs(instant: number): number;
  /** "DD/MM/YYYY HH:mm:ss" in the zone. */
  dateTime(instant: Date | number): string;
  /** "DD/MM/YYYY HH:mm" in the zone. */
  dateTimeMinutes(instant: Date | number): string;
  /** An instant shifted so that its UTC fields read as the local wall time (how spreadsheets want dates). */
  wallClockDate(instant: Date | number): Date;
}

const clocks = new Map<string, ZonedClock>();

/** One clock per zone for the process: the offset cache is shared by all reports in that zone. */
export function zonedClock(timeZone: string): ZonedClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = createZonedClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}

function createZonedClock(timeZone: string): ZonedClock {
  // Throws RangeError on an unknown zone, before any page is drawn.
  const fields = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  // Bounded so that a process rendering reports for years does not keep every day it ever saw.
  const CACHE_LIMIT = 100_000;
  /** By UTC day: the day's offset, or null when it changes that day. */
  const days = new Map<number, number | null>();
  const quarters = new Map<number, number>();

  /** The offset at `at`, a whole second (Intl drops milliseconds). */
  function offsetAt(at: number): number {
    const parts: Record<string, number> = {};
    for (const part of fields.formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
    const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
    return wall - at;
  }

  function offsetMs(instant: number): number {
    const day = Math.floor(instant / DAY_MS);
    let offset = days.get(day);
    if (offset === undefined) {
      if (days.size >= CACHE_LIMIT) days.clear();
      const start = offsetAt(day * DAY_MS);
      offset = start === offsetAt((day + 1) * DAY_MS - 1000) ? start : null;
      days.set(day, offset);
    }
    if (offset !== null) return offset;
    const quarter = Math.floor(instant / QUARTER_HOUR_MS);
    let quarterOffset = quarters.get(quarter);
    if (quarterOffset === undefined) {
      if (quarters.size >= CACHE_LIMIT) quarters.clear();
      quarterOffset = offsetAt(quarter * QUARTER_HOUR_MS);
      quarters.set(quarter, quarterOffset);
    }
    return quarterOffset;
  }

  function format(instant: Date | number, withSeconds: boolean): string {
    const ms = typeof instant === 'number' ? instant : instant.getTime();
    const local = new Date(ms + offsetMs(ms));
    const date = `${pad2(local.getUTCDate())}/${pad2(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}`;
    const time = `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}`;
    return withSeconds ? `${date} ${time}:${pad2(local.getUTCSeconds())}` : `${date} ${time}`;
  }

  return {
    timeZone,
    offsetMs,
    dateTime: (instant) => format(instant, true),
    dateTimeMinutes: (instant) => format(instant, false),
    wallClockDate(instant) {
      const ms = typeof instant === 'number' ? instant : instant.getTime();
      return new Date(ms + offsetMs(ms));
    },
  };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** One pt-BR decimal for every text (the contract's, P7): 5.355 → "5,36", -0.001 → "0,00" (never "-0,00"). */
export { formatDecimal };

/** A decimal, or an em dash when there is no value. */
export function formatOptionalDecimal(value: number | null, digits = 2): string {
  return value === null ? '—' : formatDecimal(value, digits);
}

const integerFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** A count with pt-BR grouping: 10000 → "10.000". */
export function formatCount(value: number): string {
  return integerFormat.format(value);
}

/** A share of a whole as a percentage with one decimal: 0.0213 → "2,1 %". */
export function formatPercent(part: number, whole: number): string {
  return `${formatDecimal(whole > 0 ? (100 * part) / whole : 0, 1)} %`;
}

/**
 * A duration in the largest units that matter: "45 s", "12 min 05 s", "2 h 03 min 10 s", "3 d 4 h 10 min"
 * (seconds are dropped from a day on: nobody audits a week-long excursion to the second).
 */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.round(Math.max(0, ms) / 1000);
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${days} d ${hours} h ${pad2(minutes)} min`;
  if (hours > 0) return `${hours} h ${pad2(minutes)} min ${pad2(seconds)} s`;
  if (minutes > 0) return `${minutes} min ${pad2(seconds)} s`;
  return `${seconds} s`;
}

/** A configured range: "2,00 a 8,00 °C", "mínimo 2,00 °C", "máximo 8,00 °C", or `none` when unbounded. */
export function formatLimits(range: Range, unit: string, none = 'Sem limites'): string {
  return formatRange(range.min, range.max, unit, { none });
}

/** An observed range (an alarm's values): "8,50 a 9,20 °C", a single value when both ends agree, or null. */
export function formatObserved(range: Range, unit: string): string | null {
  return range.min === null && range.max === null ? null : formatRange(range.min, range.max, unit);
}

/** Whether a range bounds anything (a value filter that is set). */
export function isBounded(range: Range): boolean {
  return range.min !== null || range.max !== null;
}
