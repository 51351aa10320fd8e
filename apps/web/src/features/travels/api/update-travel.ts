import type { Travel, UpdateTravelBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

export type UpdateTravelInput = z.infer<typeof UpdateTravelBody>;

/** PUT /api/travels/{id} (T8): places, responsible and devices of a travel not finished. */
export function updateTravel(id: string, body: UpdateTravelInput): Promise<Travel> {
  return apiRequest<Travel>(`/api/travels/${id}`, { method: 'PUT', body });
}

export function useUpdateTravel(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTravelInput) => updateTravel(id, body),
    onSuccess: (travel) => {
      queryClient.setQueryData(travelKeys.detail(id), travel);
      return queryClient.invalidateQueries({ queryKey: travelKeys.list });
    },
  });
}
