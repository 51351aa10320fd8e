import { Coverage } from '@sentinela/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** GET /api/beacon-device/history/mac/{mac}/coverage?<filter> → coverage of the filter's period (ADR 0035). */
export function useCoverage(mac: string, filterQuery: string) {
  return useQuery({
    queryKey: deviceHistoryKeys.coverage(mac, filterQuery),
    queryFn: ({ signal }) =>
      apiRequest(`/api/beacon-device/history/mac/${encodeURIComponent(mac)}/coverage?${filterQuery}`, { schema: Coverage, signal }),
    placeholderData: keepPreviousData,
  });
}
