import { HistoryPage } from '@sentinela/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

/** Readings per page of the Dados tab (server-paged, newest first). */
export const HISTORY_PAGE_SIZE = 50;

/**
 * GET /api/beacon-device/history/mac/{mac}/page?<filter>&page&limit → a page of readings and the total (the documents'
 * path without /page answers the window's readings as a plain list, ADR 0071).
 */
export function historyPageQueryOptions(mac: string, filterQuery: string, page: number) {
  const query = new URLSearchParams(filterQuery);
  query.set('page', String(page));
  query.set('limit', String(HISTORY_PAGE_SIZE));
  return queryOptions({
    queryKey: deviceHistoryKeys.page(mac, filterQuery, page),
    queryFn: ({ signal }) =>
      apiRequest(`/api/beacon-device/history/mac/${encodeURIComponent(mac)}/page?${query}`, { schema: HistoryPage, signal }),
    // Keep the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useHistoryPage(mac: string, filterQuery: string, page: number) {
  return useQuery(historyPageQueryOptions(mac, filterQuery, page));
}
