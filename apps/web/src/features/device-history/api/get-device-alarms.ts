import { AlarmNotificationList } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** GET /api/beacon-device/{mac}/notifications → the alarms of the device (D6). */
export function deviceAlarmsQueryOptions(mac: string) {
  return queryOptions({
    queryKey: deviceHistoryKeys.alarms(mac),
    queryFn: ({ signal }) =>
      apiRequest(`/api/beacon-device/${encodeURIComponent(mac)}/notifications`, { schema: AlarmNotificationList, signal }),
  });
}

export function useDeviceAlarms(mac: string) {
  return useQuery(deviceAlarmsQueryOptions(mac));
}
