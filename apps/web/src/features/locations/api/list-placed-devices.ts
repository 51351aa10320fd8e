import { PlacedDeviceList } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** GET /api/locations/devices: the devices the caller may see, with their place and newest values (the live feed updates them). */
export function placedDevicesQueryOptions() {
  return queryOptions({
    queryKey: locationKeys.devices,
    queryFn: ({ signal }) => apiRequest('/api/locations/devices', { schema: PlacedDeviceList, signal }),
  });
}

export function usePlacedDevices() {
  return useQuery(placedDevicesQueryOptions());
}
