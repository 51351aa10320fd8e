/**
 * Battery voltage → the percentage Sentinela shows (ADR 33). Coin cells (lithium manganese dioxide) hold about
 * 3.0 V for most of their life and fall quickly at the end, so a percentage from voltage is an estimate, shaped
 * per sensor type by what its battery and electronics tolerate. Each curve is piecewise linear between its points,
 * flat beyond its ends; voltages no cell of the type can show are not a battery reading at all (null).
 */
export type SensorType = 'ruuvitag' | 'xiaomi-thermometer' | 'eddystone-beacon';

interface Curve {
  /** The cell, for the documentation. */
  cell: string;
  /** [millivolts, percent], ascending in millivolts. */
  points: readonly (readonly [number, number])[];
  /** Below or above these the reading is not a voltage of this cell (a fault or an encoding error). */
  credibleMv: readonly [number, number];
}

export const BATTERY_CURVES: Record<SensorType, Curve> = {
  // RuuviTag: CR2477 (CR2450 on some), Li-MnO2. Ruuvi Station calls the battery low under 2.5 V at room temperature
  // (the sensors still run, readings start to fail soon after): 2.5 V is 0 %, the fresh cell's 3.0 V is 100 %, with
  // the knee of the discharge between 2.8 and 2.9 V.
  ruuvitag: {
    cell: 'CR2477',
    points: [[2500, 0], [2600, 10], [2700, 25], [2800, 50], [2900, 80], [3000, 100]],
    credibleMv: [1600, 3800],
  },
  // LYWSD03MMC on pvvx/atc1441 firmware: CR2032. The pvvx firmware's own line (src/battery.h: 2200 mV = 0 %,
  // 3000 mV = 100 %), so Sentinela agrees with what the thermometer's own tools show.
  'xiaomi-thermometer': {
    cell: 'CR2032',
    points: [[2200, 0], [3000, 100]],
    credibleMv: [1500, 3800],
  },
  // Eddystone-TLM beacons of unknown make: almost all run on a CR2032/CR2450 coin cell; the same line as above.
  'eddystone-beacon': {
    cell: 'CR2032 / CR2450',
    points: [[2200, 0], [3000, 100]],
    credibleMv: [1500, 3800],
  },
};

/** The percentage (integer 0–100) of a battery voltage for this sensor type; null when there is none to show. */
export function batteryPercent(sensor: SensorType, millivolts: number | null): number | null {
  if (millivolts === null || !Number.isFinite(millivolts)) return null;
  const curve = BATTERY_CURVES[sensor];
  if (millivolts < curve.credibleMv[0] || millivolts > curve.credibleMv[1]) return null;
  const points = curve.points;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (millivolts <= first[0]) return first[1];
  if (millivolts >= last[0]) return last[1];
  for (let i = 1; i < points.length; i++) {
    const [mv, pct] = points[i]!;
    if (millivolts <= mv) {
      const [mv0, pct0] = points[i - 1]!;
      return Math.round(pct0 + ((millivolts - mv0) * (pct - pct0)) / (mv - mv0));
    }
  }
  return last[1];
}

/**
 * The voltage a battery shows at this percentage on the sensor type's curve (the inverse of batteryPercent, the lowest
 * voltage of a flat stretch): for the demo simulator, which thinks in percent and sends RAWv2's millivolts.
 */
export function batteryMillivolts(sensor: SensorType, percent: number): number {
  const points = BATTERY_CURVES[sensor].points;
  const p = Math.min(100, Math.max(0, percent));
  for (let i = 0; i < points.length; i++) {
    const [mv, pct] = points[i]!;
    if (p <= pct) {
      if (i === 0) return mv;
      const [mv0, pct0] = points[i - 1]!;
      return Math.round(mv0 + ((p - pct0) * (mv - mv0)) / (pct - pct0));
    }
  }
  return points[points.length - 1]![0];
}
