import { AuditTrailPage, AuditVerifyResult } from '@sentinela/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
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

/**
 * GET /api/audit-trail/export/{pdf|csv} (ADR 0063): the filtered trail (without the page) signed — a PDF, or a ZIP of
 * the CSV and its detached signature — saved under the server's name.
 */
export function useExportAuditTrail() {
  return useMutation({
    mutationFn: ({ format, filters }: { format: 'pdf' | 'csv'; filters: AuditFilters }) => {
      const { page: _page, ...rest } = filters;
      return downloadFile(withQuery(`/api/audit-trail/export/${format}`, { ...rest }), format === 'pdf' ? 'trilha-de-auditoria.pdf' : 'trilha-de-auditoria.zip');
    },
  });
}
