import { HistorySeries } from '@sentinela/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/**
 * Buckets asked for a chart: the server answers min, max and mean per bucket, so a 90-day range stays at
 * about this many points whatever the number of readings.
 */
export const CHART_POINTS = 1000;

/** GET /api/beacon-device/history/mac/{mac}/series?<filter>&points → the downsampled chart series. */
export function historySeriesQueryOptions(mac: string, filterQuery: string) {
  const query = new URLSearchParams(filterQuery);
  query.set('points', String(CHART_POINTS));
  return queryOptions({
    queryKey: deviceHistoryKeys.series(mac, filterQuery, CHART_POINTS),
    queryFn: ({ signal }) =>
      apiRequest(`/api/beacon-device/history/mac/${encodeURIComponent(mac)}/series?${query}`, { schema: HistorySeries, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useHistorySeries(mac: string, filterQuery: string) {
  return useQuery(historySeriesQueryOptions(mac, filterQuery));
}
