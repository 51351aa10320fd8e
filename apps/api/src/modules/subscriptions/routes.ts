import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Subscription, SubscriptionChangeBody, SubscriptionChangeResponse, SubscriptionQuery, SubscriptionStanding, SuccessMessageResponse } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * The enterprise's subscription on /plans (issue 13 item 1, ADR 32): its administrators (the super admin: any
 * enterprise's, named by enterprise_id) read and change it; every user of the enterprise reads its standing for the
 * overdue/restricted banner.
 */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { subscriptions } = services;
  const admins = { permission: 'enterprise:settings' } as const;

  app.get('/api/subscription/standing', { schema: { response: { 200: SubscriptionStanding } }, config: { permission: 'profile:own' } }, async (request) =>
    subscriptions.standing(requireAuth(request)),
  );

  app.get('/api/subscription', { schema: { querystring: SubscriptionQuery, response: { 200: Subscription } }, config: admins }, async (request) =>
    subscriptions.get(requireAuth(request), request.query.enterprise_id),
  );

  app.put('/api/subscription', { schema: { body: SubscriptionChangeBody, response: { 200: SubscriptionChangeResponse } }, config: admins }, async (request) =>
    subscriptions.change(requireAuth(request), request.body),
  );

  app.delete(
    '/api/subscription/pending-change',
    { schema: { querystring: SubscriptionQuery, response: { 200: SuccessMessageResponse } }, config: admins },
    async (request) => ({ success: true as const, message: await subscriptions.cancelPending(requireAuth(request), request.query.enterprise_id) }),
  );
};
