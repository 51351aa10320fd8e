import { DeviceList, Profile, UserDetail, z, type SessionUser } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

export interface ResponsibleOption {
  _id: string;
  name: string;
}

const UserList = z.array(UserDetail);

/**
 * The users who may be responsible for a travel: the active users of the enterprise
 * (GET /api/users-by-client/{clientId}?disabled=false). Profiles that may not list users (403, 404) get themselves only.
 */
export function responsiblesQueryOptions(clientId: string, self: Pick<SessionUser, '_id' | 'name'>) {
  return queryOptions({
    queryKey: travelKeys.users(clientId),
    queryFn: async ({ signal }): Promise<ResponsibleOption[]> => {
      const own = { _id: self._id, name: self.name };
      try {
        const users = await apiRequest(`/api/users-by-client/${encodeURIComponent(clientId)}?disabled=false`, { schema: UserList, signal });
        const options = users.map((user) => ({ _id: user._id, name: user.name }));
        return options.some((user) => user._id === self._id) ? options : [own, ...options];
      } catch (error) {
        if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return [own];
        throw error;
      }
    },
  });
}

export function useResponsibles(clientId: string | null, self: Pick<SessionUser, '_id' | 'name'>) {
  return useQuery({ ...responsiblesQueryOptions(clientId ?? '', self), enabled: !!clientId });
}

/** The devices the user can see (spec 001 §6): all (super admin), the client's (enterprise admin), else their own. */
function visibleDevicesPath(user: Pick<SessionUser, '_id' | 'profile'>): string {
  switch (user.profile._id) {
    case Profile.SuperAdmin:
      return '/api/beacon-device/allAdmin';
    case Profile.EnterpriseAdmin:
      return '/api/beacon-device/all';
    default:
      return `/api/devices-by-user/${encodeURIComponent(user._id)}`;
  }
}

export function useVisibleDevices(user: Pick<SessionUser, '_id' | 'profile'>) {
  return useQuery({
    queryKey: travelKeys.devices(user._id),
    queryFn: ({ signal }) => apiRequest(visibleDevicesPath(user), { schema: DeviceList, signal }),
  });
}
