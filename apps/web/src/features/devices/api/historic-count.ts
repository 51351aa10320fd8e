import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { devicesKeys } from './list-my-devices';

/** GET /api/beacon-device/{mac}/historic-count → { count }. */

export function historicCountQueryOptions(mac: string) {
  return queryOptions({
    queryKey: devicesKeys.historicCount(mac),
    queryFn: ({ signal }) =>
      apiRequest(`/api/beacon-device/${encodeURIComponent(mac)}/historic-count`, {
        schema: () => import('./schemas').then((schemas) => schemas.HistoricCountResponse),
        signal,
      }).then((body) => body.count),
    // Counted on demand only ("Clique para ver").
    enabled: false,
    staleTime: 60_000,
  });
}

export function useHistoricCount(mac: string) {
  return useQuery(historicCountQueryOptions(mac));
}
