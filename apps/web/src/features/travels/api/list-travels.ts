import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ROUTE_PREFETCH_FRESH_MS } from '../../../lib/route-prefetch';
import { travelKeys } from './keys';

/**
 * GET /api/travels?paginate=false: the documents' client reads the list at `data.data`. Asked for by the route when
 * /directions is entered (ADR 0086); the table reads the same query, fresh for a moment so it does not ask again.
 */
export function travelsQueryOptions() {
  return queryOptions({
    queryKey: travelKeys.list,
    queryFn: async ({ signal }) => {
      const answer = await apiRequest('/api/travels?paginate=false', { schema: () => import('./schemas').then((schemas) => schemas.TravelListResponse), signal });
      return answer.data.data;
    },
    staleTime: ROUTE_PREFETCH_FRESH_MS,
  });
}

export function useTravels() {
  return useQuery(travelsQueryOptions());
}
