import { DeviceList } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { linkKeys } from './keys';

/**
 * The devices /add-beacons offers. Into an enterprise (super admin): every device, from GET
 * /api/beacon-device/allAdmin, of which the screen keeps those free or already there. To a user: the user's
 * enterprise's devices, from GET /api/devices-by-client/{clientId}.
 */
export function linkCandidatesQueryOptions(target: { kind: 'client'; clientId: string } | { kind: 'user'; clientId: string }) {
  const path = target.kind === 'client' ? '/api/beacon-device/allAdmin' : `/api/devices-by-client/${encodeURIComponent(target.clientId)}`;
  return queryOptions({
    queryKey: linkKeys.candidates(target.kind, target.clientId),
    queryFn: ({ signal }) => apiRequest(path, { schema: DeviceList, signal }),
  });
}

export function useLinkCandidates(target: { kind: 'client' | 'user'; clientId: string } | null) {
  return useQuery({ ...linkCandidatesQueryOptions(target ?? { kind: 'user', clientId: '' }), enabled: !!target?.clientId });
}
