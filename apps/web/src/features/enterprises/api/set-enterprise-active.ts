import { SuccessMessageResponse } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enterprisesKeys } from '../../../components/EnterprisePicker';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/client-active-inactive with client_id: status true deactivates, false activates (spec 001 §4). */
export function setEnterpriseActive(clientId: string, active: boolean): Promise<SuccessMessageResponse> {
  return apiRequest('/api/client-active-inactive', {
    method: 'POST',
    body: { client_id: clientId, status: !active },
    schema: SuccessMessageResponse,
  });
}

export function useSetEnterpriseActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, active }: { clientId: string; active: boolean }) => setEnterpriseActive(clientId, active),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enterprisesKeys.all }),
  });
}
