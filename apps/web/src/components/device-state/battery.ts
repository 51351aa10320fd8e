/**
 * Battery icon level of a device card (spec 001 §9: thresholds 20, 50, 80, 100). 20 or below shows one bar, up to
 * 50 two, up to 80 three, and exactly 100 the full battery. The documents leave 81–99 without an icon: those show
 * the 80 icon (three bars), since the battery is not full. No value shows the "no battery" icon.
 */
export type BatteryLevel = 'unknown' | 'low' | 'half' | 'high' | 'full';

export function batteryLevel(value: number | null): BatteryLevel {
  if (value === null || Number.isNaN(value)) return 'unknown';
  if (value <= 20) return 'low';
  if (value <= 50) return 'half';
  if (value >= 100) return 'full';
  return 'high';
}
