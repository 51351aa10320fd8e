import type { EditTravelDeviceBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { isTravel, travelKeys } from './keys';

export type EditTravelDeviceInput = z.infer<typeof EditTravelDeviceBody>;

/** PUT /api/travels/edit-travel-device (T9): a device's name and limits within one travel. */
export function editTravelDevice(body: EditTravelDeviceInput): Promise<unknown> {
  return apiRequest('/api/travels/edit-travel-device', { method: 'PUT', body });
}

export function useEditTravelDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editTravelDevice,
    onSuccess: (_answer, body) =>
      queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] === travelKeys.all[0] && isTravel(query.state.data, body.travel_id),
      }),
  });
}
