import { describe, expect, it } from 'vitest';
import { batteryLevel } from './battery';

describe('battery icon thresholds (spec 001 §9: 20, 50, 80, 100)', () => {
  it.each([
    [0, 'low'],
    [20, 'low'],
    [20.5, 'half'],
    [50, 'half'],
    [51, 'high'],
    [80, 'high'],
    // Between 80 and 99 the battery is not full: the 80 icon.
    [81, 'high'],
    [99, 'high'],
    [100, 'full'],
    [null, 'unknown'],
  ] as const)('%s %% → %s', (value, level) => {
    expect(batteryLevel(value)).toBe(level);
  });
});
