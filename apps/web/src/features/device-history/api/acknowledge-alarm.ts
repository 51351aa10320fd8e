import type { AlarmNotification, SignatureMeaning } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { acknowledgeAlarm } from '../../../lib/acknowledge-alarm';
import { deviceHistoryKeys } from './keys';

export function useAcknowledgeAlarm(mac: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // In GxP mode the acknowledgement is signed: the password again and the meaning (ADR 0062).
    mutationFn: ({ id, ...body }: { id: string; message: string; password?: string; meaning?: SignatureMeaning }) => acknowledgeAlarm(id, body),
    onSuccess: (alarm) => {
      queryClient.setQueryData<AlarmNotification[]>(deviceHistoryKeys.alarms(mac), (list) =>
        list?.map((item) => (item._id === alarm._id ? alarm : item)),
      );
      return queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.alarms(mac) });
    },
  });
}
