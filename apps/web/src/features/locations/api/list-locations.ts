import { LocationList } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** GET /api/locations: the locations of the caller's enterprise (every one for the super admin). */
export function locationsQueryOptions() {
  return queryOptions({
    queryKey: locationKeys.list,
    queryFn: ({ signal }) => apiRequest('/api/locations', { schema: LocationList, signal }),
  });
}

export function useLocations() {
  return useQuery(locationsQueryOptions());
}
