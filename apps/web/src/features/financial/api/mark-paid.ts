import { Invoice } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invoiceKeys } from '../../../components/PixPayment';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/invoices/{id}/mark-paid: the super admin settles an invoice by hand, with a reason (ADR 27). */
export function useMarkPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiRequest(`/api/invoices/${encodeURIComponent(id)}/mark-paid`, { method: 'POST', body: { reason }, schema: Invoice }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
}
