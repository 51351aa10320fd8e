import { DeviceGroupList } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** GET /api/devices-groups/by-location/{locationId}. */
export function deviceGroupsQueryOptions(locationId: string) {
  return queryOptions({
    queryKey: locationKeys.groups(locationId),
    queryFn: ({ signal }) => apiRequest(`/api/devices-groups/by-location/${encodeURIComponent(locationId)}`, { schema: DeviceGroupList, signal }),
  });
}

export function useDeviceGroups(locationId: string | null) {
  return useQuery({ ...deviceGroupsQueryOptions(locationId ?? ''), enabled: locationId !== null });
}
