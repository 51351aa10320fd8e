import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DaySeal, SealQuery, SealVerifyResult } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * Sealed days of readings (X12, issue 24 point 3, ADR 0080): read by the enterprise's administrators (an auditor's
 * account); the super admin names the enterprise with `?enterprise_id=`.
 */
export const sealRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/seals',
    { schema: { querystring: SealQuery, response: { 200: DaySeal } }, config: { permission: 'enterprise:compliance' } },
    async (request) => services.seals.get(requireAuth(request).scope, request.query),
  );

  app.get(
    '/api/seals/verify',
    { schema: { querystring: SealQuery, response: { 200: SealVerifyResult } }, config: { permission: 'enterprise:compliance' } },
    async (request) => services.seals.verify(requireAuth(request).scope, request.query),
  );
};
