import { describe, expect, it } from 'vitest';
import { zonedClock } from '../format';
import { chooseTimeTicks, niceScale } from './chart';

describe('niceScale', () => {
  it('covers the data with round steps and a little room', () => {
    // 2.4–11.83 padded by 6 % is 1.83–12.40: steps of 2 from 0 to 14.
    const scale = niceScale(2.4, 11.83);
    expect(scale.ticks).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
    expect(scale.min).toBeLessThan(2.4);
    expect(scale.max).toBeGreaterThan(11.83);
    expect(scale.decimals).toBe(0);
    expect(niceScale(5.01, 5.04).decimals).toBe(3); // steps of 0,005
    expect(niceScale(7, 7).ticks.length).toBeGreaterThan(1);
  });
});

describe('chooseTimeTicks', () => {
  const clock = zonedClock('America/Sao_Paulo');

  it('puts at most seven ticks on round local hours', () => {
    const start = Date.parse('2026-03-02T03:07:00Z'); // 00:07 in São Paulo
    const ticks = chooseTimeTicks(start, start + 10 * 3_600_000, clock);
    expect(ticks.length).toBeLessThanOrEqual(7);
    expect(ticks.map((t) => clock.dateTimeMinutes(t).slice(11))).toEqual(['02:00', '04:00', '06:00', '08:00', '10:00']);
  });

  it('puts ticks of a week on local midnights', () => {
    const start = Date.parse('2026-03-02T03:00:00Z');
    const ticks = chooseTimeTicks(start, start + 7 * 86_400_000, clock);
    expect(ticks.every((t) => clock.dateTime(t).endsWith('00:00:00'))).toBe(true);
    expect(ticks.length).toBeLessThanOrEqual(7);
  });
});
