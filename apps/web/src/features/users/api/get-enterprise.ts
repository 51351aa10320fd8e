import { EnterpriseSummary } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { enterprisesKeys } from '../../../components/EnterprisePicker';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/client/{id}: one enterprise within the caller's scope (its name heads the users screen). */
export function enterpriseQueryOptions(id: string) {
  return queryOptions({
    queryKey: enterprisesKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(`/api/client/${encodeURIComponent(id)}`, { schema: EnterpriseSummary, signal }),
  });
}

export function useEnterprise(id: string | null) {
  return useQuery({ ...enterpriseQueryOptions(id ?? ''), enabled: !!id });
}
