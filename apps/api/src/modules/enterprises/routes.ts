import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateEnterpriseBody, CreateEnterpriseResponse, EnterpriseSummary, IdParam, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { notFound } from '../../lib/errors';
import { reachesEnterprise } from '../../lib/tenant-scope';
import type { AppServices } from '../../services';
import { findEnterprise, listEnterprises } from './repository';

export const enterpriseRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/client-all',
    { schema: { response: { 200: z.array(EnterpriseSummary) } }, config: { permission: 'enterprises:manage' } },
    async () => listEnterprises(services.db),
  );

  // Company registration (M3). The documents call it with a trailing slash; both spellings work.
  for (const url of ['/api/client/create/', '/api/client/create']) {
    app.post(
      url,
      {
        schema: { body: CreateEnterpriseBody, response: { 201: CreateEnterpriseResponse } },
        config: { permission: 'enterprises:manage' },
      },
      async (request, reply) => reply.status(201).send(await services.enterprises.create(request.body)),
    );
  }

  // One enterprise, for screens that show its name (Usuários da empresa {name}); only within the caller's scope.
  app.get(
    '/api/client/:id',
    { schema: { params: IdParam, response: { 200: EnterpriseSummary } }, config: { permission: 'users:read' } },
    async (request) => {
      const { scope } = requireAuth(request);
      const enterprise = reachesEnterprise(scope, request.params.id) ? await findEnterprise(services.db, request.params.id) : undefined;
      if (!enterprise) throw notFound('Empresa não encontrada.');
      return enterprise;
    },
  );
};
