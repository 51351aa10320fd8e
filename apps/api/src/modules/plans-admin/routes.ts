import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminFaqItem, AdminFaqList, AdminPlan, AdminPlanList, FaqBody, FaqOrderBody, OkResponse, PlanBody, PLAN_ADMIN_MESSAGES, FAQ_ADMIN_MESSAGES, z } from '@sentinela/contract';
import type { AppServices } from '../../services';

const PlanParam = z.object({ id: z.uuid(PLAN_ADMIN_MESSAGES.notFound) });
const FaqParam = z.object({ id: z.uuid(FAQ_ADMIN_MESSAGES.notFound) });

/**
 * The super admin's administration of plans and FAQ (issue 13, item 1; ADR 28). The public reads stay in the site
 * module (GET /api/plans, GET /api/faq), which show only what is offered.
 */
export const plansAdminRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const manage = { permission: 'plans:manage' } as const;
  const plans = services.plansAdmin;

  app.get('/api/admin/plans', { schema: { response: { 200: AdminPlanList } }, config: manage }, () => plans.list());

  app.post('/api/admin/plans', { schema: { body: PlanBody, response: { 201: AdminPlan } }, config: manage }, async (request, reply) =>
    reply.status(201).send(await plans.create(request.body)),
  );

  app.put('/api/admin/plans/:id', { schema: { params: PlanParam, body: PlanBody, response: { 200: AdminPlan } }, config: manage }, (request) =>
    plans.update(request.params.id, request.body),
  );

  app.post('/api/admin/plans/:id/retire', { schema: { params: PlanParam, response: { 200: AdminPlan } }, config: manage }, (request) =>
    plans.setRetired(request.params.id, true),
  );

  app.post('/api/admin/plans/:id/restore', { schema: { params: PlanParam, response: { 200: AdminPlan } }, config: manage }, (request) =>
    plans.setRetired(request.params.id, false),
  );

  app.delete('/api/admin/plans/:id', { schema: { params: PlanParam, response: { 200: OkResponse } }, config: manage }, async (request) => {
    await plans.remove(request.params.id);
    return { success: true as const };
  });

  app.get('/api/admin/faq', { schema: { response: { 200: AdminFaqList } }, config: manage }, () => plans.listFaq());

  app.post('/api/admin/faq', { schema: { body: FaqBody, response: { 201: AdminFaqItem } }, config: manage }, async (request, reply) =>
    reply.status(201).send(await plans.createFaq(request.body)),
  );

  // Registered before /:id so that "order" is never read as an id.
  app.put('/api/admin/faq/order', { schema: { body: FaqOrderBody, response: { 200: AdminFaqList } }, config: manage }, (request) =>
    plans.reorderFaq(request.body.ids),
  );

  app.put('/api/admin/faq/:id', { schema: { params: FaqParam, body: FaqBody, response: { 200: AdminFaqItem } }, config: manage }, (request) =>
    plans.updateFaq(request.params.id, request.body),
  );

  app.delete('/api/admin/faq/:id', { schema: { params: FaqParam, response: { 200: OkResponse } }, config: manage }, async (request) => {
    await plans.removeFaq(request.params.id);
    return { success: true as const };
  });
};
