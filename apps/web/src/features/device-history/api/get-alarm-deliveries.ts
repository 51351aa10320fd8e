import { AlarmDeliveryList } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** GET /api/alarms/{id}/deliveries → who was told of the alarm, through which channel, and how it went (D6). */
export function useAlarmDeliveries(mac: string, alarmId: string) {
  return useQuery({
    queryKey: deviceHistoryKeys.deliveries(mac, alarmId),
    queryFn: ({ signal }) => apiRequest(`/api/alarms/${encodeURIComponent(alarmId)}/deliveries`, { schema: AlarmDeliveryList, signal }),
    // Messages still being sent settle within seconds: look again while any is pending.
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 3000 : false),
  });
}
