import { Profile, type SessionUser } from '@sentinela/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, type FetchOptions } from '../../../lib/api-client';
import { ROUTE_PREFETCH_FRESH_MS } from '../../../lib/route-prefetch';

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

/**
 * `auth`: the session's token (default), or the token sign-in has just received, before the session is stored: the
 * list is asked for right after authenticate answers, beside the enterprise's call (ADR 0086). Fresh for a moment, so
 * the screen mounting once its code has loaded reads that answer instead of asking again. The screen reads it with
 * `useQuery(myDevicesQueryOptions(user))`: no hook here, this module is part of the entry (app/route-prefetch.ts) and
 * a `useQuery` in it would bring the query observer into /login's first load.
 */
export function myDevicesQueryOptions(user: Pick<SessionUser, '_id' | 'profile'>, auth?: FetchOptions['auth']) {
  return queryOptions({
    queryKey: devicesKeys.mine(user._id),
    queryFn: ({ signal }) => apiRequest(myDevicesPath(user), { auth, schema: () => import('./schemas').then((schemas) => schemas.DeviceList), signal }),
    staleTime: ROUTE_PREFETCH_FRESH_MS,
  });
}
