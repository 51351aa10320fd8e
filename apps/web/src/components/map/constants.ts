import type { LatLng } from '@sentinela/contract';

/** Map constants of the documents (spec 001 §9, spec 000 §9). */
export const BRASILIA: LatLng = [-15.78, -47.93];
export const DEFAULT_ZOOM = 12;
export const MAX_ZOOM = 20;
/** Zoom when following a travel's position (live updates, the last position, a reading's position). */
export const TRACKING_ZOOM = 15;
/** The Locais map (spec 000 §9): all locations at zoom 10, one location ("Local") at 18. */
export const LOCATIONS_ZOOM = 10;
export const LOCATION_ZOOM = 18;
