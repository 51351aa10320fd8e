import { SuccessMessageResponse } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enterprisesKeys } from '../../../components/EnterprisePicker';
import { apiRequest } from '../../../lib/api-client';
import { usersKeys } from './list-users-by-client';

/** POST /api/client-active-inactive with user_id: status true deactivates, false activates (spec 001 §4). */
export function setUserActive(userId: string, active: boolean): Promise<SuccessMessageResponse> {
  return apiRequest('/api/client-active-inactive', {
    method: 'POST',
    body: { user_id: userId, status: !active },
    schema: SuccessMessageResponse,
  });
}

export function useSetUserActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, active }: { userId: string; active: boolean }) => setUserActive(userId, active),
    // Both tabs change, and so do the enterprise counts.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: usersKeys.all }),
        queryClient.invalidateQueries({ queryKey: enterprisesKeys.all }),
      ]),
  });
}
