import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../lib/download';

/** GET /api/invoices/{id}/pdf: the invoice's PDF, signed like the reports, saved under the server's name. */
export const useDownloadInvoicePdf = () =>
  useMutation({
    mutationFn: (invoice: { id: string; number: number }) =>
      downloadFile(`/api/invoices/${encodeURIComponent(invoice.id)}/pdf`, `fatura-${invoice.number}.pdf`),
  });
