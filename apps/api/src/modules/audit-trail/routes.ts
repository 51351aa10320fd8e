import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditTrailExportQuery, AuditTrailPage, AuditTrailQuery, AuditVerifyQuery, AuditVerifyResult, z } from '@sentinela/contract';
import { fileResponse } from '../../openapi/route-schemas';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** The audit trail (X11): read and verified by the enterprise's admins (their chain) and the super admin (all). */
export const auditTrailRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/audit-trail',
    { schema: { querystring: AuditTrailQuery, response: { 200: AuditTrailPage } }, config: { permission: 'audit-trail:read' } },
    async (request) => services.auditTrail.list(requireAuth(request).scope, request.query),
  );

  app.get(
    '/api/audit-trail/verify',
    { schema: { querystring: AuditVerifyQuery, response: { 200: AuditVerifyResult } }, config: { permission: 'audit-trail:read' } },
    async (request) => services.auditTrail.verify(requireAuth(request).scope, request.query.enterprise_id),
  );

  app.get(
    '/api/audit-trail/export/:format',
    {
      schema: {
        params: z.object({ format: z.enum(['pdf', 'csv'], { message: 'Formato de exportação inválido: use pdf ou csv.' }) }),
        querystring: AuditTrailExportQuery,
        response: { 200: fileResponse('The filtered trail: a signed PDF, or a ZIP of the CSV and its detached signature (ADR 0063).', 'application/pdf', 'application/zip') },
      },
      config: { permission: 'audit-trail:read' },
    },
    async (request, reply) => {
      const file = await services.auditTrailExports.export(requireAuth(request), request.query, request.params.format);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.data.length)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .send(file.data);
    },
  );
};
