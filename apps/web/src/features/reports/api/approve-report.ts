import { Report, type ApproveReportBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { reportKeys } from './keys';

/** POST /api/reports/{id}/approve (X11, ADR 0062): the approval is an electronic signature (password and meaning). */
export function useApproveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: ApproveReportBody & { id: string }) =>
      apiRequest(`/api/reports/${encodeURIComponent(id)}/approve`, { method: 'POST', body, schema: Report }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all }),
  });
}
