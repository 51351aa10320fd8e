import { Device } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** GET /api/show-beacon-device/{id} → the device (header fallback after a reload, limits for the configuration). */
export function deviceQueryOptions(id: string) {
  return queryOptions({
    queryKey: deviceHistoryKeys.device(id),
    queryFn: ({ signal }) => apiRequest(`/api/show-beacon-device/${encodeURIComponent(id)}`, { schema: Device, signal }),
  });
}

export function useDevice(id: string) {
  return useQuery(deviceQueryOptions(id));
}
