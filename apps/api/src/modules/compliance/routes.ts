import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ComplianceBody, ComplianceQuery, ComplianceSettings } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * GxP mode of an enterprise (X11): read by everyone of the enterprise (their screens ask a reason or a signature when it
 * is on), changed by its admins; the super admin reads and changes any, named by `?enterprise_id=`.
 */
export const complianceRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/enterprise/compliance',
    { schema: { querystring: ComplianceQuery, response: { 200: ComplianceSettings } }, config: { permission: 'devices:read' } },
    async (request) => services.compliance.get(requireAuth(request).scope, request.query.enterprise_id),
  );

  app.put(
    '/api/enterprise/compliance',
    { schema: { querystring: ComplianceQuery, body: ComplianceBody, response: { 200: ComplianceSettings } }, config: { permission: 'enterprise:compliance' } },
    async (request) => services.compliance.set(requireAuth(request).scope, request.query.enterprise_id, request.body),
  );
};
