/**
 * A road-like path between two places for the simulator (`npm run simulate -- --travel`): a polyline that
 * leaves the origin, bends on its way like a highway does, and arrives at the destination; and the position
 * at any distance along it. Deterministic for a seed, so the same travel always takes the same road.
 */
export type LatLng = [number, number];

const EARTH_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = rad(b[0] - a[0]);
  const dLng = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface RoadPath {
  points: LatLng[];
  /** Distance from the start to each point, km. */
  at: number[];
  lengthKm: number;
}

/**
 * `vertices` points from `from` to `to`. Each lies on the straight line, pushed sideways by two waves (a wide
 * curve and tighter bends) that vanish at both ends, so the road starts and ends at the places themselves.
 */
export function roadPath(from: LatLng, to: LatLng, seed = 1, vertices = 240): RoadPath {
  const dLat = to[0] - from[0];
  const dLng = to[1] - from[1];
  const straight = Math.hypot(dLat, dLng) || 1;
  const normal: LatLng = [-dLng / straight, dLat / straight];
  const points: LatLng[] = [];
  for (let i = 0; i <= vertices; i++) {
    const f = i / vertices;
    const envelope = Math.sin(Math.PI * f);
    const offset = straight * envelope * (0.07 * Math.sin(seed + f * 2.5 * Math.PI) + 0.015 * Math.sin(seed * 3 + f * 17 * Math.PI));
    points.push([from[0] + dLat * f + normal[0] * offset, from[1] + dLng * f + normal[1] * offset]);
  }
  return pathThrough(points);
}

/** A path through the given points, in order (e.g. the vertices of a real road). */
export function pathThrough(points: LatLng[]): RoadPath {
  const at = [0];
  for (let i = 1; i < points.length; i++) at.push(at[i - 1]! + distanceKm(points[i - 1]!, points[i]!));
  return { points, at, lengthKm: at[at.length - 1]! };
}

/** The position `km` along the path (clamped to its ends), interpolated within its segment. */
export function positionAt(path: RoadPath, km: number): LatLng {
  if (km <= 0) return path.points[0]!;
  if (km >= path.lengthKm) return path.points[path.points.length - 1]!;
  let lo = 0;
  let hi = path.at.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (path.at[mid]! <= km) lo = mid;
    else hi = mid;
  }
  const span = path.at[hi]! - path.at[lo]! || 1;
  const f = (km - path.at[lo]!) / span;
  const a = path.points[lo]!;
  const b = path.points[hi]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
}

/**
 * How far along the path lies the point nearest to `position` (to resume a travel where it was): each segment is
 * projected on locally (flat within a segment, longitudes shrunk by the latitude's cosine), so a position between two
 * far-apart vertices of a real road resumes where it is, not at a vertex.
 */
export function kmNearest(path: RoadPath, position: LatLng): number {
  let bestKm = 0;
  let bestDistance = Infinity;
  for (let i = 0; i < path.points.length; i++) {
    const a = path.points[i]!;
    const b = path.points[Math.min(i + 1, path.points.length - 1)]!;
    const shrink = Math.cos(rad(a[0]));
    const ab: LatLng = [b[0] - a[0], (b[1] - a[1]) * shrink];
    const ap: LatLng = [position[0] - a[0], (position[1] - a[1]) * shrink];
    const length2 = ab[0] ** 2 + ab[1] ** 2;
    const t = length2 === 0 ? 0 : Math.min(1, Math.max(0, (ap[0] * ab[0] + ap[1] * ab[1]) / length2));
    const nearest: LatLng = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    const d = distanceKm(nearest, position);
    if (d < bestDistance) {
      bestDistance = d;
      bestKm = path.at[i]! + t * ((path.at[i + 1] ?? path.at[i]!) - path.at[i]!);
    }
  }
  return bestKm;
}
