import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RetentionBody, RetentionQuery, RetentionSettings } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * Retention of an enterprise's records (issue 25 point 5, ADR 0081): read by its administrators, changed by them; the
 * super admin reads and changes any, named by `?enterprise_id=`.
 */
export const retentionRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/enterprise/retention',
    { schema: { querystring: RetentionQuery, response: { 200: RetentionSettings } }, config: { permission: 'enterprise:compliance' } },
    async (request) => services.retention.get(requireAuth(request).scope, request.query.enterprise_id),
  );

  app.put(
    '/api/enterprise/retention',
    { schema: { querystring: RetentionQuery, body: RetentionBody, response: { 200: RetentionSettings } }, config: { permission: 'enterprise:compliance' } },
    async (request) => services.retention.set(requireAuth(request).scope, request.query.enterprise_id, request.body),
  );
};
