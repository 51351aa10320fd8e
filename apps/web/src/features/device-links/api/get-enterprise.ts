import { EnterpriseSummary } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { linkKeys } from './keys';

/** GET /api/client/{id}: the enterprise whose devices are being chosen (its name for the heading). */
export function linkEnterpriseQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...linkKeys.all, 'enterprise', id] as const,
    queryFn: ({ signal }) => apiRequest(`/api/client/${encodeURIComponent(id)}`, { schema: EnterpriseSummary, signal }),
  });
}

export function useLinkEnterprise(id: string | null) {
  return useQuery({ ...linkEnterpriseQueryOptions(id ?? ''), enabled: !!id });
}
