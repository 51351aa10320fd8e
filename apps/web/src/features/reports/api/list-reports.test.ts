import { describe, expect, it } from 'vitest';
import { makeReport } from '../../../test/report-fixtures';
import { hasFreshQueued } from './list-reports';

describe('the reports list refreshes by itself (R3)', () => {
  const now = Date.parse('2024-03-03T15:05:00.000Z');

  it('while a report it shows is queued', () => {
    expect(hasFreshQueued([makeReport(1, 2), makeReport(2, 1)], now)).toBe(true);
    expect(hasFreshQueued([makeReport(1, 2), makeReport(3, 3)], now)).toBe(false);
    expect(hasFreshQueued(undefined, now)).toBe(false);
  });

  it('but not for a report queued so long ago that its job is stuck', () => {
    expect(hasFreshQueued([makeReport(2, 1)], now + 11 * 60_000)).toBe(false);
  });
});
