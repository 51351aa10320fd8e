import { DeviceEventsResponse } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** GET /api/beacon-device/{mac}/logs → { content }: the device events log (D7). */
export function deviceEventsQueryOptions(mac: string) {
  return queryOptions({
    queryKey: deviceHistoryKeys.events(mac),
    queryFn: ({ signal }) =>
      apiRequest(`/api/beacon-device/${encodeURIComponent(mac)}/logs`, { schema: DeviceEventsResponse, signal }).then(
        (body) => body.content,
      ),
  });
}

export function useDeviceEvents(mac: string) {
  return useQuery(deviceEventsQueryOptions(mac));
}
