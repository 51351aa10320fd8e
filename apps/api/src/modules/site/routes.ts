import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FaqItem, Plan, PlanIdParam, z } from '@sentinela/contract';
import { notFound } from '../../lib/errors';
import type { AppServices } from '../../services';
import { listFaq, listPlans } from './repository';

/** What the public landing page shows: plans (A1, A11) and FAQ. */
export const siteRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get('/api/plans', { schema: { response: { 200: z.array(Plan) } }, config: { permission: 'public' } }, () => listPlans(services.db));

  app.get('/api/plans/:id', { schema: { params: PlanIdParam, response: { 200: Plan } }, config: { permission: 'public' } }, async (request) => {
    const [plan] = await listPlans(services.db, request.params.id);
    if (!plan) throw notFound('Plano não encontrado.');
    return plan;
  });

  app.get('/api/faq', { schema: { response: { 200: z.array(FaqItem) } }, config: { permission: 'public' } }, () => listFaq(services.db));
};
