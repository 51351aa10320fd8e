import { Travel } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

/** GET /api/travels/{id}: the travel with its devices (the device cards). */
export function travelQueryOptions(id: string) {
  return queryOptions({
    queryKey: travelKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(`/api/travels/${encodeURIComponent(id)}`, { schema: Travel, signal }),
  });
}

export function useTravel(id: string | null) {
  return useQuery({ ...travelQueryOptions(id ?? ''), enabled: !!id });
}
