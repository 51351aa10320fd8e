import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { devicesKeys } from './list-my-devices';

/** Under devicesKeys.lists, so a rename refreshes this list too. */
export const clientDevicesKey = (clientId: string) => [...devicesKeys.lists, 'client', clientId] as const;

/** GET /api/devices-by-client/{clientId}: the devices of one enterprise, as far as the caller may see them. */
export function clientDevicesQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientDevicesKey(clientId),
    queryFn: ({ signal }) => apiRequest(`/api/devices-by-client/${encodeURIComponent(clientId)}`, { schema: () => import('./schemas').then((schemas) => schemas.DeviceList), signal }),
  });
}

export function useClientDevices(clientId: string | null) {
  return useQuery({ ...clientDevicesQueryOptions(clientId ?? ''), enabled: !!clientId });
}
