import type { CreateTravelBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

export type CreateTravelInput = z.infer<typeof CreateTravelBody>;

/** What the creation answers that the screen reads: the tracking code to hand out (when the answer carries it). */
export interface CreatedTravel {
  _id?: string;
  code?: string;
}

/** POST /api/travels (T8). */
export function createTravel(body: CreateTravelInput): Promise<CreatedTravel | undefined> {
  return apiRequest<CreatedTravel | undefined>('/api/travels', { method: 'POST', body });
}

export function useCreateTravel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTravel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: travelKeys.list }),
  });
}
