import type { LatLng } from '@sentinela/contract';
import L from 'leaflet';

/**
 * Markers drawn with CSS (no image files to bundle or fetch). The position is written on the element as
 * data-lat / data-lng, which tests and assistive tools can read.
 */
function attrs(kind: string, position: LatLng, data: Record<string, string> = {}): string {
  const extra = Object.entries(data)
    .filter(([name, value]) => /^[a-z-]+$/.test(name) && /^[\w-]*$/.test(value))
    .map(([name, value]) => ` data-${name}="${value}"`)
    .join('');
  return `data-marker="${kind}" data-lat="${position[0].toFixed(6)}" data-lng="${position[1].toFixed(6)}"${extra}`;
}

/** A pin; `data` adds data-* attributes (word characters only), e.g. a state that tests and tools read. */
export function pinIcon(kind: string, color: string, position: LatLng, data?: Record<string, string>): L.DivIcon {
  return L.divIcon({
    className: 'sentinela-marker',
    html: `<span class="sentinela-marker__pin" style="background:${color}" ${attrs(kind, position, data)}></span>`,
    iconSize: [22, 22],
    iconAnchor: [11, 26],
    popupAnchor: [0, -26],
  });
}

export function dotIcon(kind: string, color: string, position: LatLng): L.DivIcon {
  return L.divIcon({
    className: 'sentinela-marker',
    html: `<span class="sentinela-marker__dot" style="background:${color}" ${attrs(kind, position)}></span>`,
    iconSize: [18, 18],
    iconAnchor: [9, 9],
    popupAnchor: [0, -10],
  });
}
