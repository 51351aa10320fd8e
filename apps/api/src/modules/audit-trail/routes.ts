import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditTrailPage, AuditTrailQuery, AuditVerifyQuery, AuditVerifyResult } from '@sentinela/contract';
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
};
