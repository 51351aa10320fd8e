import { DiscoveredDevice, z } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { beaconsKeys } from './keys';

const DiscoveredList = z.array(DiscoveredDevice);

/** GET /api/beacon-device/discovered: MACs gateways sent readings for that are not registered. */
export function discoveredQueryOptions() {
  return queryOptions({
    queryKey: beaconsKeys.discovered,
    queryFn: ({ signal }) => apiRequest('/api/beacon-device/discovered', { schema: DiscoveredList, signal }),
    // Gateways keep reporting: the list is worth a refresh while the screen is open.
    refetchInterval: 30_000,
  });
}

export function useDiscoveredDevices() {
  return useQuery(discoveredQueryOptions());
}
