import type { LatLng } from '@sentinela/contract';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { Marker, Polyline, Tooltip, useMap } from 'react-leaflet';
import { TRACKING_ZOOM } from './constants';
import { dotIcon, pinIcon } from './markers';
import type { PlannedRoute } from './routing';

export const MAP_COLORS = {
  origin: '#2f9e44',
  destiny: '#e03131',
  route: '#1c7ed6',
  path: '#0ca678',
  position: '#0ca678',
  reading: '#f08c00',
} as const;

/** A labelled pin (origin, destination, a chosen point). */
export function PlaceMarker({ kind, position, color, label }: { kind: string; position: LatLng; color: string; label: string }) {
  const icon = useMemo(() => pinIcon(kind, color, position), [kind, color, position]);
  return (
    <Marker position={position} icon={icon} title={label} alt={label}>
      <Tooltip direction="top" offset={[0, -24]}>
        {label}
      </Tooltip>
    </Marker>
  );
}

/** The planned route: the road from the routing server, or a dashed straight line. */
export function PlannedRouteLayer({ route }: { route: PlannedRoute }) {
  const road = route.kind === 'road';
  return (
    <Polyline
      positions={route.points}
      pathOptions={{ color: MAP_COLORS.route, weight: road ? 4 : 3, opacity: 0.75, dashArray: road ? undefined : '8 8' }}
    />
  );
}

/** The travelled path, from the recorded positions. */
export function TravelledPathLayer({ points }: { points: LatLng[] }) {
  if (points.length < 2) return null;
  return <Polyline positions={points} pathOptions={{ color: MAP_COLORS.path, weight: 5, opacity: 0.9 }} />;
}

/**
 * The travel's last position. When it moves (a live update), the map centres on it at the tracking zoom (T6); the
 * first position is placed without moving the map, which its screen frames.
 */
export function LastPositionMarker({ position, label }: { position: LatLng; label: string }) {
  const map = useMap();
  const icon = useMemo(() => dotIcon('last-position', MAP_COLORS.position, position), [position]);
  const previous = useRef<LatLng | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = position;
    if (before && (before[0] !== position[0] || before[1] !== position[1])) map.setView(position, TRACKING_ZOOM);
  }, [map, position]);
  return (
    <Marker position={position} icon={icon} title={label} alt={label} zIndexOffset={1000}>
      <Tooltip direction="top" offset={[0, -10]}>
        {label}
      </Tooltip>
    </Marker>
  );
}

/**
 * Frames the given points once per `frameKey` (a new travel): one point at `zoom`, several to fit. A map that has no
 * size yet (inside an opening modal) is framed once it gets one.
 */
export function FrameOnce({ frameKey, points, zoom = TRACKING_ZOOM }: { frameKey: string; points: LatLng[]; zoom?: number }) {
  const map = useMap();
  const framed = useRef<string | null>(null);
  useEffect(() => {
    if (framed.current === frameKey || points.length === 0) return;
    const frame = () => {
      const size = map.getSize();
      if (size.x === 0 || size.y === 0) return false;
      framed.current = frameKey;
      if (points.length === 1) map.setView(points[0]!, zoom);
      else map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: zoom });
      return true;
    };
    if (frame()) return;
    const onResize = () => {
      if (frame()) map.off('resize', onResize);
    };
    map.on('resize', onResize);
    return () => {
      map.off('resize', onResize);
    };
  }, [map, frameKey, points, zoom]);
  return null;
}

/** Centres the map on a position each time `focusKey` changes (e.g. "Localização" of a reading). */
export function FocusOn({ focusKey, position, zoom = TRACKING_ZOOM }: { focusKey: number; position: LatLng | null; zoom?: number }) {
  const map = useMap();
  useEffect(() => {
    if (position) map.setView(position, zoom);
  }, [map, focusKey, position, zoom]);
  return null;
}

/** Calls back with the clicked position (forms that set a place on the map). */
export function ClickToPick({ onPick }: { onPick: (position: LatLng) => void }) {
  const map = useMap();
  useEffect(() => {
    const handler = (event: L.LeafletMouseEvent) => onPick([round(event.latlng.lat), round(event.latlng.lng)]);
    map.on('click', handler);
    return () => {
      map.off('click', handler);
    };
  }, [map, onPick]);
  return null;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Leaflet measures its container once; a map inside a modal that is opening, or a tab that was hidden, must measure
 * again whenever its container changes size.
 */
export function InvalidateSizeOnShow() {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(container);
    return () => observer.disconnect();
  }, [map]);
  return null;
}
