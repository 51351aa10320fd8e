import type { TravelStatusId } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

/** POST /api/travels/{id}/status (T8): a transition of TRAVEL_TRANSITIONS; the server refuses others with its message. */
export function setTravelStatus(id: string, status: TravelStatusId): Promise<unknown> {
  return apiRequest(`/api/travels/${encodeURIComponent(id)}/status`, { method: 'POST', body: { status } });
}

export function useSetTravelStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: TravelStatusId }) => setTravelStatus(id, status),
    onSuccess: (_answer, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: travelKeys.list }),
        queryClient.invalidateQueries({ queryKey: travelKeys.detail(id) }),
      ]),
  });
}
