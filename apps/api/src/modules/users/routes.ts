import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParam, UserDetail } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { notFound } from '../../lib/errors';
import type { AppServices } from '../../services';
import { findUserInScope } from './repository';

export const userRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/user/show/:id',
    { schema: { params: IdParam, response: { 200: UserDetail } }, config: { permission: 'users:read' } },
    async (request) => {
      const user = await findUserInScope(services.db, requireAuth(request).scope, request.params.id);
      if (!user) throw notFound('Usuário não encontrado.');
      return user;
    },
  );
};
