import { useMutation, useQueryClient } from '@tanstack/react-query';
import { acknowledgeAlarm } from '../../../lib/acknowledge-alarm';
import { openAlarmKeys } from './keys';

/** Acknowledges an alarm from the list; the list reloads (the socket tells the other screens). */
export function useAcknowledgeOpenAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) => acknowledgeAlarm(id, { message }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: openAlarmKeys.list }),
  });
}
