import { OkResponse } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** DELETE /api/devices-groups/{id}: its devices stay at the location, without a group. */
export function removeDeviceGroup(input: { locationId: string; id: string; reason?: string }) {
  // The reason (GxP mode, ADR 0063) in the body: the group's devices leave it.
  const body = input.reason ? { reason: input.reason } : undefined;
  return apiRequest(`/api/devices-groups/${encodeURIComponent(input.id)}`, { method: 'DELETE', body, schema: OkResponse });
}

export function useRemoveDeviceGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeDeviceGroup,
    onSuccess: (_ok, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: locationKeys.groups(input.locationId) }),
        queryClient.invalidateQueries({ queryKey: locationKeys.devices }),
      ]),
  });
}
