import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ROUTE_PREFETCH_FRESH_MS } from '../../../lib/route-prefetch';
import { travelKeys } from './keys';

/**
 * GET /api/travels?paginate=false: the documents' client reads the list at `data.data`. Asked for by the route when
 * /directions is entered (ADR 0086); the table reads the same query (`useQuery(travelsQueryOptions())`), fresh for a
 * moment so it does not ask again. No hook here: this module is part of the entry, and a `useQuery` in it would bring
 * the query observer into /login's first load.
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
