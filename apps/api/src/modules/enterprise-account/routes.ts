import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADDRESS_MESSAGES,
  CepLookupResponse,
  CepParam,
  EnterpriseAddressBody,
  EnterpriseAddressResponse,
  EnterprisePlanResponse,
  PLAN_MESSAGES,
  PlanChangeBody,
  SuccessMessageResponse,
} from '@sentinela/contract';
import { conflict } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** /complete-register and /plans: the postal-code lookup, the enterprise's address and its plan (A4, A11). */
export const enterpriseAccountRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { enterpriseAccount, cepLookup } = services;

  app.get(
    '/api/cep/:cep',
    { schema: { params: CepParam, response: { 200: CepLookupResponse } }, config: { permission: 'enterprise:settings' } },
    async (request) => cepLookup.lookup(request.params.cep),
  );

  app.get(
    '/api/enterprise/address',
    { schema: { response: { 200: EnterpriseAddressResponse } }, config: { permission: 'enterprise:settings' } },
    async (request) => enterpriseAccount.address(requireAuth(request)),
  );

  app.post(
    '/api/enterprise/address',
    { schema: { body: EnterpriseAddressBody, response: { 200: SuccessMessageResponse } }, config: { permission: 'enterprise:settings' } },
    async (request) => {
      await enterpriseAccount.saveAddress(requireAuth(request), request.body);
      return { success: true as const, message: ADDRESS_MESSAGES.saved };
    },
  );

  // Every user of an enterprise sees its plan on /plans; only its administrators change it.
  app.get(
    '/api/enterprise/plan',
    { schema: { response: { 200: EnterprisePlanResponse } }, config: { permission: 'profile:own' } },
    async (request) => enterpriseAccount.plan(requireAuth(request)),
  );

  app.post(
    '/api/enterprise/plan',
    { schema: { body: PlanChangeBody, response: { 200: SuccessMessageResponse } }, config: { permission: 'enterprise:settings' } },
    // The same change as PUT /api/subscription (ADR 32); here choosing the plan one has is a 409, as it always was.
    async (request) => {
      const outcome = await services.subscriptions.apply(requireAuth(request), request.body);
      if (outcome.effect === 'none' && outcome.message === PLAN_MESSAGES.alreadyCurrent) throw conflict(PLAN_MESSAGES.alreadyCurrent);
      return { success: true as const, message: outcome.message };
    },
  );
};
