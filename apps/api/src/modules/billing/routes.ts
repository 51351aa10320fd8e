import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BILLING_MESSAGES, IdParam, Invoice, InvoiceDetail, InvoiceListQuery, InvoiceListResponse, InvoicePix, MarkPaidBody, OkResponse, PixWebhookBody } from '@sentinela/contract';
import { AppError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * Invoices (issue 13 item 2) for the enterprise's administrators (the super admin: any enterprise's), their PIX code
 * (item 3), the PSP's webhook in the Banco Central's API Pix format, and the super admin's manual settlement (ADR 27).
 */
export const billingRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const billing = services.billing;
  const read = { permission: 'financial:read' } as const;

  app.get('/api/invoices', { schema: { querystring: InvoiceListQuery, response: { 200: InvoiceListResponse } }, config: read }, async (request) =>
    billing.list(requireAuth(request), request.query),
  );

  app.get('/api/invoices/:id', { schema: { params: IdParam, response: { 200: InvoiceDetail } }, config: read }, async (request) =>
    billing.get(requireAuth(request), request.params.id),
  );

  app.get('/api/invoices/:id/pix', { schema: { params: IdParam, response: { 200: InvoicePix } }, config: read }, async (request) =>
    billing.pix(requireAuth(request), request.params.id),
  );

  app.post(
    '/api/invoices/:id/mark-paid',
    { schema: { params: IdParam, body: MarkPaidBody, response: { 200: Invoice } }, config: { permission: 'financial:manage' } },
    async (request) => billing.markPaid(requireAuth(request), request.params.id, request.body.reason),
  );

  // The API Pix has the PSP post to the registered address followed by /pix: both are answered the same.
  for (const url of ['/api/pix/webhook', '/api/pix/webhook/pix']) {
    app.post(
      url,
      {
        schema: { body: PixWebhookBody, response: { 200: OkResponse }, security: [{ pixWebhookToken: [] }] },
        config: { permission: 'public' },
        // Before the body is read as a PIX list: a caller without the token learns nothing of the format.
        onRequest: async (request) => {
          if (!billing.webhookAuthorized(request.headers.authorization)) {
            request.log.warn({ ip: request.ip }, 'PIX webhook call with a wrong or missing token');
            throw new AppError('UNAUTHENTICATED', BILLING_MESSAGES.webhookUnauthorized);
          }
        },
      },
      async (request) => {
        await billing.receivePix(request.body);
        return { success: true as const };
      },
    );
  }
};
