import { TravelListResponse } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

/** GET /api/travels?paginate=false: the documents' client reads the list at `data.data`. */
export function travelsQueryOptions() {
  return queryOptions({
    queryKey: travelKeys.list,
    queryFn: async ({ signal }) => {
      const answer = await apiRequest('/api/travels?paginate=false', { schema: TravelListResponse, signal });
      return answer.data.data;
    },
  });
}

export function useTravels() {
  return useQuery(travelsQueryOptions());
}
