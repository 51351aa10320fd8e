import { DeviceGroup } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** POST /api/devices-groups {location_id, name} (new) or PUT /api/devices-groups/{id} {name} (rename). */
export function saveDeviceGroup(input: { locationId: string; id: string | null; name: string }): Promise<DeviceGroup> {
  return input.id
    ? apiRequest(`/api/devices-groups/${encodeURIComponent(input.id)}`, { method: 'PUT', body: { name: input.name }, schema: DeviceGroup })
    : apiRequest('/api/devices-groups', { method: 'POST', body: { location_id: input.locationId, name: input.name }, schema: DeviceGroup });
}

export function useSaveDeviceGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDeviceGroup,
    onSuccess: (_group, input) => queryClient.invalidateQueries({ queryKey: locationKeys.groups(input.locationId) }),
  });
}
