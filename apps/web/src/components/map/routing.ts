import type { LatLng } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMapServices } from './config';

/**
 * The planned driving route from an OSRM-compatible server (GET {base}/route/v1/driving/{lng},{lat};{lng},{lat}
 * ?overview=full&geometries=geojson). Without a server, or when it does not answer, the route is the straight line
 * between the two places ("approximate"); when it answers that it cannot route them, "failed" (also drawn straight).
 */
export type PlannedRoute =
  | { kind: 'road'; points: LatLng[]; distanceKm: number | null }
  | { kind: 'approximate'; points: LatLng[] }
  | { kind: 'failed'; points: LatLng[] };

export const ROUTE_MESSAGES = {
  approximate: 'Rota aproximada (serviço de rotas indisponível)',
  failed: 'Não foi possível traçar esse trajeto',
} as const;

const ROUTING_TIMEOUT_MS = 8_000;

interface OsrmAnswer {
  code?: string;
  routes?: { distance?: number; geometry?: { coordinates?: [number, number][] } }[];
}

export async function fetchPlannedRoute(
  routingUrl: string | null,
  origin: LatLng,
  destiny: LatLng,
  signal?: AbortSignal,
): Promise<PlannedRoute> {
  const straight: LatLng[] = [origin, destiny];
  if (!routingUrl) return { kind: 'approximate', points: straight };
  const base = routingUrl.replace(/\/+$/, '');
  const url = `${base}/route/v1/driving/${origin[1]},${origin[0]};${destiny[1]},${destiny[0]}?overview=full&geometries=geojson`;
  const timeout = AbortSignal.timeout(ROUTING_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { kind: 'approximate', points: straight };
  }
  // A server error or a gateway in front of a stopped server: the service is unavailable, not the route impossible.
  if (response.status >= 500) return { kind: 'approximate', points: straight };
  let answer: OsrmAnswer;
  try {
    answer = (await response.json()) as OsrmAnswer;
  } catch {
    return { kind: 'approximate', points: straight };
  }
  const route = answer.routes?.[0];
  const coordinates = route?.geometry?.coordinates;
  if (answer.code !== 'Ok' || !coordinates || coordinates.length < 2) return { kind: 'failed', points: straight };
  return {
    kind: 'road',
    points: coordinates.map(([lng, lat]) => [lat, lng] as LatLng),
    distanceKm: typeof route.distance === 'number' ? route.distance / 1000 : null,
  };
}

export function plannedRouteQueryOptions(routingUrl: string | null, origin: LatLng, destiny: LatLng) {
  return queryOptions({
    queryKey: ['planned-route', routingUrl, origin[0], origin[1], destiny[0], destiny[1]] as const,
    queryFn: ({ signal }) => fetchPlannedRoute(routingUrl, origin, destiny, signal),
    staleTime: Infinity,
    retry: false,
  });
}

/** The planned route between two places, once the map services are known; null without both places. */
export function usePlannedRoute(origin: LatLng | null, destiny: LatLng | null) {
  const services = useMapServices();
  return useQuery({
    ...plannedRouteQueryOptions(services?.routingUrl ?? null, origin ?? [0, 0], destiny ?? [0, 0]),
    enabled: !!services && !!origin && !!destiny,
  });
}
