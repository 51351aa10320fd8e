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
