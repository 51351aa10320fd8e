import { Profile, type SessionUser } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * The list behind "Meus Dispositivos" depends on the profile (spec 001 §6): super admin sees every device,
 * an enterprise admin the devices of its client, anyone else the devices linked to them.
 */
export function myDevicesPath(user: Pick<SessionUser, '_id' | 'profile'>): string {
  switch (user.profile._id) {
    case Profile.SuperAdmin:
      return '/api/beacon-device/allAdmin';
    case Profile.EnterpriseAdmin:
      return '/api/beacon-device/all';
    default:
      return `/api/devices-by-user/${encodeURIComponent(user._id)}`;
  }
}

export const devicesKeys = {
  lists: ['devices', 'list'] as const,
  mine: (userId: string) => ['devices', 'list', 'mine', userId] as const,
  historicCount: (mac: string) => ['devices', 'historic-count', mac] as const,
};

export function myDevicesQueryOptions(user: Pick<SessionUser, '_id' | 'profile'>) {
  return queryOptions({
    queryKey: devicesKeys.mine(user._id),
    queryFn: ({ signal }) => apiRequest(myDevicesPath(user), { schema: () => import('./schemas').then((schemas) => schemas.DeviceList), signal }),
  });
}

export function useMyDevices(user: Pick<SessionUser, '_id' | 'profile'>) {
  return useQuery(myDevicesQueryOptions(user));
}
