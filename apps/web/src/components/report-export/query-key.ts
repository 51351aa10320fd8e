/** Root of every reports query (the reports screen's lists): a finished export refreshes them all. */
export const REPORTS_QUERY_KEY = ['reports'] as const;
