import { AlarmEscalationSettings } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const escalationKey = ['alarm-escalation'] as const;

/** GET /api/enterprise/alarm-escalation: the caller's enterprise's reminder and escalation minutes. */
export const useAlarmEscalation = () =>
  useQuery({ queryKey: escalationKey, queryFn: () => apiRequest('/api/enterprise/alarm-escalation', { schema: AlarmEscalationSettings }) });

/** PUT /api/enterprise/alarm-escalation. */
export function useSaveAlarmEscalation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmEscalationSettings) => apiRequest('/api/enterprise/alarm-escalation', { method: 'PUT', body, schema: AlarmEscalationSettings }),
    onSuccess: (saved) => queryClient.setQueryData(escalationKey, saved),
  });
}
