import { LinkDevicesResult, type LinkDevicesToClientBody, type LinkDevicesToUserBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export type LinkRequest =
  | { kind: 'client'; body: LinkDevicesToClientBody }
  | { kind: 'user'; body: LinkDevicesToUserBody };

/**
 * POST /api/devices/link/client (super admin: devices into an enterprise) or /api/devices/link/user (an enterprise's
 * devices to one of its users), with to_update 0: the selection is the whole new set (ADR 18).
 */
export function linkDevices(request: LinkRequest): Promise<LinkDevicesResult> {
  const path = request.kind === 'client' ? '/api/devices/link/client' : '/api/devices/link/user';
  return apiRequest(path, { method: 'POST', body: request.body, schema: LinkDevicesResult });
}

export function useLinkDevices() {
  const queryClient = useQueryClient();
  // Counts of devices per enterprise and user, device lists: everything may have changed.
  return useMutation({ mutationFn: linkDevices, onSuccess: () => queryClient.invalidateQueries() });
}
