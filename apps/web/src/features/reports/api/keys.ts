import type { ReportListFilters } from './list-reports';

/** Query keys of the reports screens. */
export const reportKeys = {
  all: ['reports'] as const,
  list: (filters: ReportListFilters) => ['reports', 'list', filters.dateInit, filters.dateEnd] as const,
};
