import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccessLogEntry, AccessLogQuery, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { notFound } from '../../lib/errors';
import type { AppServices } from '../../services';
import { findUserInScope } from '../users/repository';
import { listAccessLogOfUser } from './repository';

export const accessLogRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/access-log',
    { schema: { querystring: AccessLogQuery, response: { 200: z.array(AccessLogEntry) } }, config: { permission: 'access-log:read' } },
    async (request) => {
      const auth = requireAuth(request);
      const user = await findUserInScope(services.db, auth.scope, request.query.user_id);
      if (!user) throw notFound('Usuário não encontrado.');
      // Rows of this very request are still in the buffer; write them so the log is current.
      await services.accessLog.flush();
      return listAccessLogOfUser(services.db, user.id);
    },
  );
};
