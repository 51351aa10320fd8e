import { REPORTS_QUERY_KEY } from '../../../components/report-export/query-key';
import type { ReportListFilters } from './list-reports';

/** Query keys of the reports screens. */
export const reportKeys = {
  all: REPORTS_QUERY_KEY,
  list: (filters: ReportListFilters) => [...REPORTS_QUERY_KEY, 'list', filters.dateInit, filters.dateEnd] as const,
};
