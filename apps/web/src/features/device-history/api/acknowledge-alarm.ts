import { AlarmNotification, type AcknowledgeAlarmBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** POST /api/alarms/{id}/acknowledge { message } → the acknowledged alarm (D6). */
export function acknowledgeAlarm(id: string, body: z.input<typeof AcknowledgeAlarmBody>): Promise<AlarmNotification> {
  return apiRequest(`/api/alarms/${encodeURIComponent(id)}/acknowledge`, { method: 'POST', body, schema: AlarmNotification });
}

export function useAcknowledgeAlarm(mac: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) => acknowledgeAlarm(id, { message }),
    onSuccess: (alarm) => {
      queryClient.setQueryData<AlarmNotification[]>(deviceHistoryKeys.alarms(mac), (list) =>
        list?.map((item) => (item._id === alarm._id ? alarm : item)),
      );
      return queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.alarms(mac) });
    },
  });
}
