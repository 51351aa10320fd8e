import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddCardBody, CardListQuery, CardListResponse, IdParam, OkResponse, PaymentCard } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * The Financeiro carousel's cards (issue 13 item 4, ADR 31), for the enterprise's administrators (the super admin:
 * any enterprise's, named by enterprise_id). The body of POST /api/cards is the provider's token only: a card number
 * or security code sent here is refused by the schema before any handler sees it.
 */
export const cardRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const cards = services.cards;
  const manage = { permission: 'financial:cards' } as const;

  app.get('/api/cards', { schema: { querystring: CardListQuery, response: { 200: CardListResponse } }, config: manage }, async (request) =>
    cards.list(requireAuth(request), request.query.enterprise_id),
  );

  app.post('/api/cards', { schema: { body: AddCardBody, response: { 201: PaymentCard } }, config: manage }, async (request, reply) =>
    reply.status(201).send(await cards.add(requireAuth(request), request.body)),
  );

  app.post('/api/cards/:id/main', { schema: { params: IdParam, response: { 200: PaymentCard } }, config: manage }, async (request) =>
    cards.makeMain(requireAuth(request), request.params.id),
  );

  app.delete('/api/cards/:id', { schema: { params: IdParam, response: { 200: OkResponse } }, config: manage }, async (request) => {
    await cards.remove(requireAuth(request), request.params.id);
    return { success: true as const };
  });
};
