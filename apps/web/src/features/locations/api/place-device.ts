import { Device } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** PUT /api/devices/{id} with location_id and group_id (null: none), and the reason in GxP mode (ADR 0063). */
export function placeDevice(input: { deviceId: string; locationId: string | null; groupId: string | null; reason?: string }) {
  return apiRequest(`/api/devices/${encodeURIComponent(input.deviceId)}`, {
    method: 'PUT',
    body: { location_id: input.locationId, group_id: input.groupId, ...(input.reason ? { reason: input.reason } : {}) },
    schema: Device,
  });
}

export function usePlaceDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeDevice,
    // Counts of locations and groups change with it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: locationKeys.all }),
  });
}
