import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EnterpriseSummary, z } from '@sentinela/contract';
import type { AppServices } from '../../services';
import { listEnterprises } from './repository';

export const enterpriseRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/client-all',
    { schema: { response: { 200: z.array(EnterpriseSummary) } }, config: { permission: 'enterprises:manage' } },
    async () => listEnterprises(services.db),
  );
};
