/** Wall-clock time in an IANA zone ↔ instants, with the runtime's own zone data (no library). */

export interface WallClock {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of an instant in a zone. */
export function wallClockAt(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

const asUtc = (w: WallClock) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** The instant a wall-clock time in a zone means (the earlier one when a clock change repeats it). */
export function instantOf(wall: WallClock, timeZone: string): Date {
  const guess = asUtc(wall);
  // The zone's offset at the guess, then at the corrected instant (they differ only around a clock change).
  let instant = guess - (asUtc(wallClockAt(new Date(guess), timeZone)) - guess);
  instant = guess - (asUtc(wallClockAt(new Date(instant), timeZone)) - instant);
  return new Date(instant);
}

/** Whether the fields name a real calendar date and time (31/02 does not). */
export function isValidWallClock(w: WallClock): boolean {
  if (w.month < 1 || w.month > 12 || w.day < 1 || w.hour > 23 || w.minute > 59 || w.second > 59) return false;
  if (w.year < 1900 || w.year > 9999 || w.hour < 0 || w.minute < 0 || w.second < 0) return false;
  return w.day <= new Date(Date.UTC(w.year, w.month, 0)).getUTCDate();
}

/** The calendar day ('YYYY-MM-DD') an instant falls on in a zone. */
export function localDay(instant: Date, timeZone: string): string {
  const w = wallClockAt(instant, timeZone);
  return `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** The day `days` after 'YYYY-MM-DD' (before, when negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const OFFSET_SUFFIX = /(?:Z|[+-]\d{2}:?\d{2})$/i;
const WALL_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/**
 * The instant an ISO-8601 text means (ADR 0071). With an offset (or Z) it is exact; without one — what a
 * datetime-local input sends, "2026-11-01T08:30" — it is a wall-clock time in `timeZone`. The text must already
 * have passed the contract's `boundedInstant` (a real date within the accepted years). `edge: 'end'`: a wall-clock
 * time given to the minute means the end of that minute.
 */
export function instantFromText(text: string, timeZone: string, edge: 'start' | 'end' = 'start'): Date {
  const trimmed = text.trim();
  if (OFFSET_SUFFIX.test(trimmed)) return new Date(Date.parse(trimmed));
  const m = WALL_TEXT.exec(trimmed);
  if (!m) return new Date(Number.NaN);
  const wall: WallClock = {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]),
    hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0),
  };
  const fraction = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  // An end typed to the minute covers that whole minute ("até 10:30" keeps 10:30:59), as the web's filters do.
  const wholeMinute = edge === 'end' && m[4] !== undefined && m[6] === undefined ? 59_999 : 0;
  return new Date(instantOf(wall, timeZone).getTime() + fraction + wholeMinute);
}
