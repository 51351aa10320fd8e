import { describe, expect, it } from 'vitest';
import { distanceKm, kmNearest, positionAt, roadPath, type LatLng } from '../src/simulator/road-path';

/**
 * The simulator's road (`npm run simulate -- --travel`): from the origin to the destination, bending on the way.
 *
 * Database-agnostic (ADR 85): geometry only.
 */
const SAO_PAULO: LatLng = [-23.5653, -46.6515];
const RIO: LatLng = [-22.8864, -43.2216];

describe('roadPath', () => {
  const road = roadPath(SAO_PAULO, RIO, 1);

  it('starts at the origin and ends at the destination', () => {
    expect(positionAt(road, 0)).toEqual(SAO_PAULO);
    expect(positionAt(road, road.lengthKm)).toEqual(RIO);
    expect(positionAt(road, road.lengthKm + 50)).toEqual(RIO);
  });

  it('is longer than the straight line, but not absurdly', () => {
    const straight = distanceKm(SAO_PAULO, RIO);
    expect(straight).toBeGreaterThan(350);
    expect(road.lengthKm).toBeGreaterThan(straight);
    expect(road.lengthKm).toBeLessThan(straight * 1.5);
  });

  it('moves forward steadily: equal distances along it are equal steps on the map', () => {
    const step = road.lengthKm / 100;
    for (let k = 0; k < 100; k++) {
      const d = distanceKm(positionAt(road, k * step), positionAt(road, (k + 1) * step));
      expect(d).toBeLessThanOrEqual(step + 1e-6);
      expect(d).toBeGreaterThan(step * 0.9);
    }
  });

  it('finds where a travel stands, to resume it there', () => {
    const km = road.lengthKm * 0.4;
    expect(Math.abs(kmNearest(road, positionAt(road, km)) - km)).toBeLessThan(road.lengthKm / 200);
  });
});
