import { describe, expect, it } from 'vitest';
import { formatCount, formatDecimal, formatDuration, formatLimits, formatObserved, formatPercent, zonedClock } from './format';

/** What Intl itself prints, the reference the fast path must agree with. */
function intlReference(timeZone: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return (ms) => {
    const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
    return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
  };
}

describe('zonedClock', () => {
  it('prints local wall time like Intl, across DST changes and half-hour zones', () => {
    // São Paulo still had DST in 2018 (from 4 Nov) and 2019 (until 17 Feb); St John's and Lord Howe change at
    // half hours; Kathmandu is +05:45.
    const zones = ['America/Sao_Paulo', 'America/Manaus', 'America/St_Johns', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
    const from = Date.UTC(2018, 9, 1);
    const to = Date.UTC(2019, 3, 30);
    let transitions = 0;
    const mismatches: string[] = [];
    for (const zone of zones) {
      const clock = zonedClock(zone);
      const reference = intlReference(zone);
      const check = (ms: number) => {
        if (clock.dateTime(ms) !== reference(ms)) mismatches.push(`${zone} ${new Date(ms).toISOString()}: ${clock.dateTime(ms)} ≠ ${reference(ms)}`);
      };
      // Every 47 min 13 s over seven months, and every 61 s within an hour of each change of offset.
      for (let ms = from; ms < to; ms += 2_833_000) {
        check(ms);
        if (clock.offsetMs(ms) !== clock.offsetMs(ms + 2_833_000)) {
          transitions++;
          for (let near = ms - 3_600_000; near < ms + 2_833_000 + 3_600_000; near += 61_000) check(near);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(transitions).toBe(6); // São Paulo, St John's and Lord Howe, twice each
  });

  it('formats the examples auditors read', () => {
    const clock = zonedClock('America/Sao_Paulo');
    expect(clock.dateTime(new Date('2026-03-01T03:00:00Z'))).toBe('01/03/2026 00:00:00');
    expect(clock.dateTimeMinutes(new Date('2026-03-01T02:59:59Z'))).toBe('28/02/2026 23:59');
    // The spreadsheet date reads 09:30 in UTC fields when it was 09:30 in São Paulo.
    expect(clock.wallClockDate(new Date('2026-03-01T12:30:00Z')).toISOString()).toBe('2026-03-01T09:30:00.000Z');
  });

  it('refuses an unknown zone', () => {
    expect(() => zonedClock('America/Atlantida')).toThrow(RangeError);
  });
});

describe('numbers and durations', () => {
  it('uses the decimal comma and never prints a negative zero', () => {
    expect(formatDecimal(5.355)).toBe('5,36');
    expect(formatDecimal(-18.5)).toBe('-18,50');
    expect(formatDecimal(-0.001)).toBe('0,00');
    expect(formatDecimal(-23.5505, 6)).toBe('-23,550500');
    expect(formatCount(10000)).toBe('10.000');
    expect(formatPercent(1, 8)).toBe('12,5 %');
    expect(formatPercent(1, 0)).toBe('0,0 %');
  });

  it('prints durations in the units that matter', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(12 * 60_000 + 5_000)).toBe('12 min 05 s');
    expect(formatDuration(2 * 3_600_000 + 3 * 60_000 + 10_000)).toBe('2 h 03 min 10 s');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 10 * 60_000 + 59_000)).toBe('3 d 4 h 10 min');
  });

  it('prints limits and observed ranges', () => {
    expect(formatLimits({ min: 2, max: 8 }, '°C')).toBe('2,00 a 8,00 °C');
    expect(formatLimits({ min: 2, max: null }, '°C')).toBe('mínimo 2,00 °C');
    expect(formatLimits({ min: null, max: 70 }, '%')).toBe('máximo 70,00 %');
    expect(formatLimits({ min: null, max: null }, '%')).toBe('Sem limites');
    expect(formatObserved({ min: 8.5, max: 9.2 }, '°C')).toBe('8,50 a 9,20 °C');
    expect(formatObserved({ min: 9, max: 9 }, '°C')).toBe('9,00 °C');
    expect(formatObserved({ min: null, max: null }, '°C')).toBeNull();
  });
});
