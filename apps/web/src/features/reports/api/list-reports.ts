import { ReportListResponse, ReportStatus, type Report } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { withQuery } from '../../../lib/paths';
import { reportKeys } from './keys';

/** The list's period filters as ISO instants; null leaves that side open (an empty filter is null, spec 001 §5). */
export interface ReportListFilters {
  dateInit: string | null;
  dateEnd: string | null;
}

/** How often the list refreshes by itself while a report it shows is still queued. */
export const QUEUED_REFRESH_MS = 3_000;

/**
 * A queued report older than this is stuck (its job died): the list stops refreshing for it, so an idle tab does not
 * keep the session window sliding forever (P2).
 */
const QUEUED_REFRESH_LIMIT_MS = 10 * 60_000;

/** Whether the list shows a report that the job queue is still working on. */
export function hasFreshQueued(reports: readonly Report[] | undefined, now: number = Date.now()): boolean {
  return !!reports?.some(
    (report) => report.status.id === ReportStatus.Queued && now - Date.parse(report.created_at) < QUEUED_REFRESH_LIMIT_MS,
  );
}

/** GET /api/reports?dateInit&dateEnd: the reports the user may see, newest first. */
export function reportListQueryOptions(filters: ReportListFilters) {
  return queryOptions({
    queryKey: reportKeys.list(filters),
    queryFn: ({ signal }) =>
      apiRequest(withQuery('/api/reports', { dateInit: filters.dateInit, dateEnd: filters.dateEnd }), {
        schema: ReportListResponse,
        signal,
      }),
    refetchInterval: (query) => (hasFreshQueued(query.state.data) ? QUEUED_REFRESH_MS : false),
  });
}

export function useReports(filters: ReportListFilters) {
  return useQuery(reportListQueryOptions(filters));
}
