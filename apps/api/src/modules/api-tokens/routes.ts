import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiTokenList, CreateApiTokenBody, CreatedApiToken, IdParam, OkResponse } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** API tokens of the caller's enterprise (X13, ADR 64): its administrators only, never with a token. */
export const apiTokenRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const manage = { permission: 'integrations:manage' as const };

  app.get('/api/api-tokens', { schema: { response: { 200: ApiTokenList } }, config: manage }, async (request) =>
    services.apiTokens.list(requireAuth(request).scope),
  );

  app.post('/api/api-tokens', { schema: { body: CreateApiTokenBody, response: { 201: CreatedApiToken } }, config: manage }, async (request, reply) => {
    const auth = requireAuth(request);
    return reply.status(201).send(await services.apiTokens.create(auth.scope, auth.userId, request.body));
  });

  app.delete('/api/api-tokens/:id', { schema: { params: IdParam, response: { 200: OkResponse } }, config: manage }, async (request) => {
    await services.apiTokens.revoke(requireAuth(request).scope, request.params.id);
    return { success: true as const };
  });
};
