import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MSG, OkResponse, PushSubscriptionBody, PushSubscriptionInfo, PushSubscriptionList, PushUnsubscribeBody, VapidPublicKey } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { userOrAddress } from '../../plugins/rate-limits';
import type { AppServices } from '../../services';

/**
 * Web push (D6, ADR 22): the key browsers subscribe with, and the signed-in user's own browsers. A user reaches only
 * their own subscriptions; another user's endpoint cannot be listed or removed.
 */
export const pushRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { push } = services;
  const own = { permission: 'settings:own' } as const;

  app.get('/api/push/vapid-public-key', { schema: { response: { 200: VapidPublicKey } }, config: own }, async () => ({ public_key: await push.publicKey() }));
  app.get('/api/me/push-subscriptions', { schema: { response: { 200: PushSubscriptionList } }, config: own }, async (request) => push.list(requireAuth(request).userId));
  app.post(
    '/api/me/push-subscriptions',
    {
      schema: { body: PushSubscriptionBody, response: { 200: PushSubscriptionInfo } },
      config: { ...own, limits: [{ limit: services.rateLimits.limit({ name: 'push-subscribe', points: 20, windowSeconds: 60 }), key: userOrAddress, message: MSG.tooManyRequests }] },
    },
    async (request) => push.subscribe(requireAuth(request).userId, request.body),
  );
  app.delete('/api/me/push-subscriptions', { schema: { body: PushUnsubscribeBody, response: { 200: OkResponse } }, config: own }, async (request) => {
    await push.unsubscribe(requireAuth(request).userId, request.body.endpoint);
    return { success: true as const };
  });
};
