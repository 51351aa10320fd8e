import { TravelLocation, z } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

const TravelLocationList = z.array(TravelLocation);

/** GET /api/travels/{id}/locations: the travelled path, oldest first (a bare list or `{ data }`). */
export function travelLocationsQueryOptions(id: string) {
  return queryOptions({
    queryKey: travelKeys.locations(id),
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<unknown>(`/api/travels/${encodeURIComponent(id)}/locations`, { signal });
      return TravelLocationList.parse(unwrapList(answer));
    },
  });
}

export function useTravelLocations(id: string | null, enabled = true) {
  return useQuery({ ...travelLocationsQueryOptions(id ?? ''), enabled: !!id && enabled });
}

/** Lists come bare or wrapped in `data` (the documents read both shapes from this API family). */
export function unwrapList(answer: unknown): unknown {
  if (answer && typeof answer === 'object' && !Array.isArray(answer) && 'data' in answer) {
    const data = (answer as { data: unknown }).data;
    if (data && typeof data === 'object' && !Array.isArray(data) && 'data' in data) return (data as { data: unknown }).data;
    return data;
  }
  return answer;
}
