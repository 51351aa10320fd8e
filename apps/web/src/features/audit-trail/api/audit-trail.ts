import { AuditTrailPage, AuditVerifyResult } from '@sentinela/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { withQuery } from '../../../lib/paths';

export interface AuditFilters {
  entity?: string;
  entity_id?: string;
  actor?: string;
  from?: string;
  to?: string;
  enterprise_id?: string;
  page: number;
}

/** GET /api/audit-trail (X11): a page of entries, newest first, filtered as the URL says. */
export function useAuditTrail(filters: AuditFilters) {
  return useQuery({
    queryKey: ['audit-trail', filters],
    queryFn: ({ signal }) => apiRequest(withQuery('/api/audit-trail', { ...filters }), { schema: AuditTrailPage, signal }),
    placeholderData: (previous) => previous,
  });
}

/** GET /api/audit-trail/verify: the chain recomputed by the server. */
export function useVerifyAuditTrail() {
  return useMutation({ mutationFn: (enterpriseId?: string) => apiRequest(withQuery('/api/audit-trail/verify', { enterprise_id: enterpriseId }), { schema: AuditVerifyResult }) });
}
