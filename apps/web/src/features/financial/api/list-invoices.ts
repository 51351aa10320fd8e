import { InvoiceListResponse } from '@sentinela/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { invoiceKeys } from '../../../components/PixPayment';
import { apiRequest } from '../../../lib/api-client';
import { withQuery } from '../../../lib/paths';

/** Invoices per page of the Faturas table. */
export const INVOICES_PAGE_SIZE = 10;

export interface InvoiceFilter {
  /** The super admin's chosen enterprise (null: every enterprise); others: their own, which the server applies. */
  enterpriseId: string | null;
  search: string;
  page: number;
}

/** GET /api/invoices: one page of invoices, searched and paged by the server. */
export function invoicesQueryOptions(filter: InvoiceFilter) {
  return queryOptions({
    queryKey: [...invoiceKeys.all, 'list', filter] as const,
    queryFn: ({ signal }) =>
      apiRequest(
        withQuery('/api/invoices', { enterprise_id: filter.enterpriseId, search: filter.search.trim(), page: filter.page, limit: INVOICES_PAGE_SIZE }),
        { schema: InvoiceListResponse, signal },
      ),
  });
}

// Unlike the app's default, asked again when the window regains focus: the payer often returns from the bank's app.
export const useInvoices = (filter: InvoiceFilter) =>
  useQuery({ ...invoicesQueryOptions(filter), placeholderData: keepPreviousData, refetchOnWindowFocus: true });
