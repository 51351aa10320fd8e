import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreatedGateway, CreateGatewayBody, GatewayList, IdParam, OkResponse } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Gateway keys: an enterprise admin manages its enterprise's gateways, the super admin all of them. */
export const gatewayRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/gateways',
    { schema: { response: { 200: GatewayList } }, config: { permission: 'gateways:manage' } },
    async (request) => services.gateways.list(requireAuth(request).scope),
  );

  app.post(
    '/api/gateways',
    { schema: { body: CreateGatewayBody, response: { 201: CreatedGateway } }, config: { permission: 'gateways:manage' } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const created = await services.gateways.create(auth.scope, request.body, auth.userId);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/gateways/:id',
    { schema: { params: IdParam, response: { 200: OkResponse } }, config: { permission: 'gateways:manage' } },
    async (request) => {
      await services.gateways.revoke(requireAuth(request).scope, request.params.id);
      return { success: true as const };
    },
  );
};
