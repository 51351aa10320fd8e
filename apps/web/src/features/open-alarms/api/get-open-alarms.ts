import { OpenAlarmList } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { openAlarmKeys } from './keys';

/** GET /api/alarms/open → the counts and the newest open alarms across the devices the user may see. */
export function openAlarmsQueryOptions() {
  return queryOptions({
    queryKey: openAlarmKeys.list,
    queryFn: ({ signal }) => apiRequest('/api/alarms/open', { schema: OpenAlarmList, signal }),
  });
}

/** Loaded while the list is shown (the badge's count comes live from the socket). */
export function useOpenAlarms(enabled: boolean) {
  return useQuery({ ...openAlarmsQueryOptions(), enabled });
}
