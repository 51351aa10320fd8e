import { UserDetail } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { linkKeys } from './keys';

/** GET /api/user/show/{id}: the user whose devices are being chosen, with those already linked (available_devices). */
export function linkUserQueryOptions(id: string) {
  return queryOptions({
    queryKey: linkKeys.user(id),
    queryFn: ({ signal }) => apiRequest(`/api/user/show/${encodeURIComponent(id)}`, { schema: UserDetail, signal }),
  });
}

export function useLinkUser(id: string | null) {
  return useQuery({ ...linkUserQueryOptions(id ?? ''), enabled: !!id });
}
