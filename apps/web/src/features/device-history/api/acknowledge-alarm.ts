import type { AlarmNotification } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { acknowledgeAlarm } from '../../../lib/acknowledge-alarm';
import { deviceHistoryKeys } from './keys';

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
