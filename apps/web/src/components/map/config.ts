import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

/**
 * Where the map gets its tiles and driving routes (T7). Set at build time (VITE_TILE_URL, VITE_TILE_ATTRIBUTION,
 * VITE_ROUTING_URL) and overridable at run time by an optional /config.json at the site root, so one build serves
 * any deployment (and the tests' local fakes). OpenStreetMap tiles by default; no routing server by default, which
 * draws the planned route as a straight line with a note.
 */
export interface MapServices {
  /** Leaflet URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png */
  tileUrl: string;
  tileAttribution: string;
  /** Base address of an OSRM-compatible server (…/route/v1/driving/…), or null for none. */
  routingUrl: string | null;
}

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export function buildTimeMapServices(env: Record<string, unknown> = import.meta.env): MapServices {
  return {
    tileUrl: text(env.VITE_TILE_URL) ?? DEFAULT_TILE_URL,
    tileAttribution: text(env.VITE_TILE_ATTRIBUTION) ?? DEFAULT_TILE_ATTRIBUTION,
    routingUrl: text(env.VITE_ROUTING_URL) ?? null,
  };
}

/** The runtime file's fields; anything else in it is ignored. `routingUrl: null` turns routing off. */
const RuntimeConfig = z.object({
  tileUrl: z.string().min(1).optional(),
  tileAttribution: z.string().optional(),
  routingUrl: z.string().nullable().optional(),
});

export function mergeMapServices(base: MapServices, runtime: unknown): MapServices {
  const parsed = RuntimeConfig.safeParse(runtime);
  if (!parsed.success) return base;
  const { tileUrl, tileAttribution, routingUrl } = parsed.data;
  return {
    tileUrl: tileUrl ?? base.tileUrl,
    tileAttribution: tileAttribution ?? (tileUrl ? '' : base.tileAttribution),
    routingUrl: routingUrl === undefined ? base.routingUrl : text(routingUrl) ?? null,
  };
}

/** GET /config.json, when the site has one; its absence (or the app page served in its place) is not an error. */
async function fetchRuntimeConfig(signal?: AbortSignal): Promise<unknown> {
  try {
    const response = await fetch('/config.json', { headers: { accept: 'application/json' }, cache: 'no-store', signal });
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return undefined;
    return await response.json();
  } catch {
    return undefined;
  }
}

export function mapServicesQueryOptions() {
  return queryOptions({
    queryKey: ['web-config', 'map'] as const,
    queryFn: async ({ signal }) => mergeMapServices(buildTimeMapServices(), await fetchRuntimeConfig(signal)),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

/** The map services, once known (undefined while /config.json is read, so no tile is asked of the wrong server). */
export function useMapServices(): MapServices | undefined {
  return useQuery(mapServicesQueryOptions()).data;
}
