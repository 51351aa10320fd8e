import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreatedWebhook,
  CreateWebhookBody,
  OkResponse,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookList,
} from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

const WebhookIdParam = WebhookDeliveryParams.pick({ id: true });

/** Webhooks of the caller's enterprise and their delivery log (X13, ADR 66): its administrators only, never a token. */
export const webhookRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const manage = { permission: 'integrations:manage' as const };
  const { webhooks } = services;

  app.get('/api/webhooks', { schema: { response: { 200: WebhookList } }, config: manage }, async (request) => webhooks.list(requireAuth(request).scope));

  app.post('/api/webhooks', { schema: { body: CreateWebhookBody, response: { 201: CreatedWebhook } }, config: manage }, async (request, reply) => {
    const auth = requireAuth(request);
    return reply.status(201).send(await webhooks.create(auth.scope, auth.userId, request.body));
  });

  app.put('/api/webhooks/:id', { schema: { params: WebhookIdParam, body: UpdateWebhookBody, response: { 200: Webhook } }, config: manage }, async (request) =>
    webhooks.update(requireAuth(request).scope, request.params.id, request.body),
  );

  app.delete('/api/webhooks/:id', { schema: { params: WebhookIdParam, response: { 200: OkResponse } }, config: manage }, async (request) => {
    await webhooks.remove(requireAuth(request).scope, request.params.id);
    return { success: true as const };
  });

  app.get('/api/webhooks/:id/deliveries', { schema: { params: WebhookIdParam, response: { 200: WebhookDeliveryList } }, config: manage }, async (request) =>
    webhooks.deliveries(requireAuth(request).scope, request.params.id),
  );

  app.post('/api/webhooks/:id/test', { schema: { params: WebhookIdParam, response: { 202: WebhookDelivery } }, config: manage }, async (request, reply) =>
    reply.status(202).send(await webhooks.test(requireAuth(request).scope, request.params.id)),
  );

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    { schema: { params: WebhookDeliveryParams, response: { 202: WebhookDelivery } }, config: manage },
    async (request, reply) => reply.status(202).send(await webhooks.redeliver(requireAuth(request).scope, request.params.id, request.params.deliveryId)),
  );
};
