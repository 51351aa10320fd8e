import {
  CreatedMonitorLink,
  DeviceList,
  MonitorLinkList,
  OkResponse,
  Profile,
  TravelListResponse,
  type CreateMonitorLinkBody,
  type SessionUser,
} from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const monitorLinkKeys = {
  all: ['monitor-links'] as const,
  list: () => [...monitorLinkKeys.all, 'list'] as const,
  devices: (userId: string) => [...monitorLinkKeys.all, 'devices', userId] as const,
  travels: () => [...monitorLinkKeys.all, 'travels'] as const,
};

/** GET /api/monitor-links: the caller's links (its enterprise's, or all for the super admin), newest first. */
export const useMonitorLinks = () =>
  useQuery({ queryKey: monitorLinkKeys.list(), queryFn: ({ signal }) => apiRequest('/api/monitor-links', { schema: MonitorLinkList, signal }) });

function useInvalidatingMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorLinkKeys.list() }) });
}

/** POST /api/monitor-links: a new link; the answer holds its address, shown only this once. */
export const useCreateMonitorLink = () =>
  useInvalidatingMutation((body: CreateMonitorLinkBody) => apiRequest('/api/monitor-links', { method: 'POST', body, schema: CreatedMonitorLink }));

/** DELETE /api/monitor-links/{id}: revokes the link at once (open monitors close). */
export const useRevokeMonitorLink = () =>
  useInvalidatingMutation((id: string) => apiRequest(`/api/monitor-links/${encodeURIComponent(id)}`, { method: 'DELETE', schema: OkResponse }));

/** The devices a link may show: the enterprise's (enterprise admin) or every enterprise's (super admin). */
export function useLinkableDevices(user: Pick<SessionUser, '_id' | 'profile'>) {
  const path = user.profile._id === Profile.SuperAdmin ? '/api/beacon-device/allAdmin' : '/api/beacon-device/all';
  return useQuery({ queryKey: monitorLinkKeys.devices(user._id), queryFn: ({ signal }) => apiRequest(path, { schema: DeviceList, signal }) });
}

/** The travels a link may show: those the caller sees (its enterprise's, or all for the super admin). */
export function useLinkableTravels() {
  return useQuery({
    queryKey: monitorLinkKeys.travels(),
    queryFn: async ({ signal }) => (await apiRequest('/api/travels?paginate=false', { schema: TravelListResponse, signal })).data.data,
  });
}
