import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BankAccountResponse, IdParam } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { fileResponse } from '../../openapi/route-schemas';
import type { AppServices } from '../../services';
import { attachment } from '../../lib/download';

/**
 * The Financeiro screen's own calls (A9, ADR 30): an invoice's signed PDF, and the platform's receiving bank account
 * (from settings, never from the database). Both for whoever reads invoices: enterprise administrators and the super
 * admin; the PDF is looked up within the caller's enterprise like the invoice itself.
 */
export const financialRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const read = { permission: 'financial:read' } as const;

  app.get('/api/invoices/:id/pdf', { schema: { params: IdParam, response: { 200: fileResponse('The invoice, signed like the reports.', 'application/pdf') } }, config: read }, async (request, reply) => {
    const file = await services.invoicePdfs.pdf(requireAuth(request), request.params.id);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', file.data.length)
      .header('content-disposition', attachment(file.filename))
      .header('cache-control', 'private, no-store')
      .send(file.data);
  });

  app.get('/api/financial/bank-account', { schema: { response: { 200: BankAccountResponse } }, config: read }, async () => ({
    bank_account: services.config.bankAccount,
  }));
};
