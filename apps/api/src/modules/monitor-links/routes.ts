import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreatedMonitorLink, CreateMonitorLinkBody, IdParam, MONITOR_LINK_MESSAGES, MonitorLinkList, MonitorTokenParam, MonitorView, OkResponse } from '@sentinela/contract';
import { clientMeta } from '../../lib/client-meta';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * Monitor links (ADR 26). An enterprise's administrators (the super admin for any enterprise) create, list and
 * revoke them; GET /api/monitor/{token} is the read-only view a wall display opens without a session.
 */
export const monitorLinkRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const manage = { permission: 'monitor-links:manage' } as const;

  app.get('/api/monitor-links', { schema: { response: { 200: MonitorLinkList } }, config: manage }, async (request) =>
    services.monitorLinks.list(requireAuth(request).scope),
  );

  app.post('/api/monitor-links', { schema: { body: CreateMonitorLinkBody, response: { 201: CreatedMonitorLink } }, config: manage }, async (request, reply) => {
    const auth = requireAuth(request);
    return reply.status(201).send(await services.monitorLinks.create(auth.scope, request.body, auth.userId));
  });

  app.delete('/api/monitor-links/:id', { schema: { params: IdParam, response: { 200: OkResponse } }, config: manage }, async (request) => {
    await services.monitorLinks.revoke(requireAuth(request).scope, request.params.id);
    return { success: true as const };
  });

  app.get(
    '/api/monitor/:token',
    {
      schema: { params: MonitorTokenParam, response: { 200: MonitorView } },
      config: {
        // The token is the only credential: no session is read, and a session sent along changes nothing.
        permission: 'public',
        // Per address, found or not: tokens must not be guessed by brute force.
        limits: [{ limit: services.rateLimits.limit({ name: 'monitor-lookups-http', points: services.config.monitorLookupsPerMinute, windowSeconds: 60 }), message: MONITOR_LINK_MESSAGES.tooManyLookups }],
      },
    },
    async (request, reply) => {
      const link = await services.monitorLinks.open(request.params.token, clientMeta(request), 'page');
      // A wall display's view is live data: never from a cache.
      void reply.header('cache-control', 'no-store');
      return services.monitorLinks.view(link);
    },
  );
};
