import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_MESSAGES,
  AccountMessageResponse,
  EMAIL_CHANGE_MESSAGES,
  EmailAvailableBody,
  EmailAvailableResponse,
  ProtectAccountBody,
  ProtectAccountResponse,
  RequestPasswordResetBody,
  ResetPasswordBody,
  SignUpBody,
  VerifyEmailNotFoundResponse,
  VerifyEmailParams,
  VerifyEmailResponse,
  z,
} from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Sign-up, e-mail confirmation and password recovery (A3, A5, A6): public routes, limited per client address. */
export const accountRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { accounts, config, rateLimits } = services;
  const tooMany = ACCOUNT_MESSAGES.tooManyAccountRequests;
  // Each route counted apart, per client address (README: ACCOUNT_REQUESTS_MAX_PER_HOUR).
  const perHour = (name: string) => ({
    limits: [{ limit: rateLimits.limit({ name: `account-${name}`, points: config.accountRequestsMaxPerHour, windowSeconds: 3600 }), message: tooMany }],
  });

  // No lists of people (issue 21 item 5; ADR 54): whether an e-mail or a username is taken is answered a few times an
  // hour per target, whoever asks, besides the per-address budgets; the refusal says nothing about the target.
  const perTarget = rateLimits.limit({ name: 'account-checks-target', points: config.accountChecksPerTargetPerHour, windowSeconds: 3600 });
  const bodyField = (field: 'email' | 'username') => (request: FastifyRequest) => {
    const value = (request.body as Record<string, unknown> | undefined)?.[field];
    return `${field}:${typeof value === 'string' ? value.trim().toLowerCase() : ''}`;
  };

  app.post(
    '/api/user/email-available',
    {
      schema: { body: EmailAvailableBody, response: { 200: EmailAvailableResponse } },
      config: {
        permission: 'public',
        limits: [
          { limit: rateLimits.limit({ name: 'email-available', points: config.emailAvailableMaxPerMinute, windowSeconds: 60 }), message: tooMany },
          { limit: rateLimits.limit({ name: 'email-available-hour', points: config.emailAvailableMaxPerHour, windowSeconds: 3600 }), message: tooMany },
          { limit: perTarget, key: bodyField('email'), hook: 'preHandler', message: tooMany },
        ],
      },
    },
    // The documents' answer: truthy when the e-mail is taken (a bare boolean).
    async (request) => !(await accounts.isEmailAvailable(request.body.email)),
  );

  // The sign-up's "not a robot" challenge (issue 21 item 5): the contact form's proof of work, asked on page load.
  const challenges = rateLimits.limit({ name: 'sign-up-challenges', points: 60, windowSeconds: 60 });
  app.get(
    '/api/client/challenge',
    {
      schema: { response: { 200: z.object({ parameters: z.record(z.string(), z.unknown()), signature: z.string().optional() }) } },
      config: { permission: 'public', limits: [{ limit: challenges, message: tooMany }] },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const challenge = await services.humanCheck.createChallenge();
      return { parameters: { ...challenge.parameters }, signature: challenge.signature };
    },
  );

  app.post(
    '/api/client',
    {
      schema: { body: SignUpBody, response: { 200: AccountMessageResponse } },
      // The proof of work is spent first (the route's own hook runs before its limits' preHandlers): probing a
      // username costs a solved challenge each time, and nobody spends a registrant's per-target budget for free.
      preHandler: async (request) => services.humanCheck.spend(request.body.altcha),
      config: {
        permission: 'public',
        limits: [
          ...perHour('sign-up').limits,
          { limit: perTarget, key: bodyField('email'), hook: 'preHandler', message: tooMany },
          { limit: perTarget, key: bodyField('username'), hook: 'preHandler', message: tooMany },
        ],
      },
    },
    async (request) => {
      const signedUp = await accounts.signUp(request.body);
      // The plan chosen on the landing page is billed from today: its first invoice is there for step 3 (ADR 32).
      if (signedUp.withPlan) await services.billingCycle.issueFor(signedUp.enterpriseId);
      return { success: true as const, message: ACCOUNT_MESSAGES.registered };
    },
  );

  app.get(
    '/api/verify-email/:token',
    {
      schema: { params: VerifyEmailParams, response: { 200: VerifyEmailResponse, 404: VerifyEmailNotFoundResponse, 409: VerifyEmailNotFoundResponse } },
      config: { permission: 'public', ...perHour('verify-email') },
    },
    async (request, reply) => {
      const outcome = await accounts.verifyEmail(request.params.token);
      if (outcome === 'confirmed') return { success: true as const, message: ACCOUNT_MESSAGES.emailConfirmed, confirmed: true as const };
      // A change of e-mail (ADR 82): applied, or refused because the address has an account meanwhile.
      if (outcome === 'changed') return { success: true as const, message: EMAIL_CHANGE_MESSAGES.confirmed, confirmed: true as const };
      if (outcome === 'unavailable') return reply.status(409).send({ statusCode: 409, code: 'CONFLICT', error: EMAIL_CHANGE_MESSAGES.unavailable, confirmed: false as const });
      return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', error: ACCOUNT_MESSAGES.userNotFound, confirmed: false as const });
    },
  );

  app.post(
    '/api/verify-email/resend',
    { schema: { response: { 200: AccountMessageResponse } }, config: { permission: 'profile:own', ...perHour('resend-confirmation') } },
    async (request) => ({ success: true as const, message: await accounts.resendConfirmation(requireAuth(request).userId) }),
  );

  app.post(
    '/api/password/request/reset',
    { schema: { body: RequestPasswordResetBody, response: { 200: AccountMessageResponse } }, config: { permission: 'public', ...perHour('password-reset-request') } },
    async (request) => {
      await accounts.requestPasswordReset(request.body.email);
      return { success: true as const, message: ACCOUNT_MESSAGES.resetRequested };
    },
  );

  // "Não fui eu" (ADR 58): the link of a change notice secures the account. A POST from the page's button, never the
  // GET of the link itself, so that a mail scanner opening every link secures nothing by accident.
  app.post(
    '/api/account/protect',
    { schema: { body: ProtectAccountBody, response: { 200: ProtectAccountResponse } }, config: { permission: 'public', ...perHour('protect') } },
    async (request) => ({ success: true as const, ...(await services.accountProtection.protect(request.body.token)) }),
  );

  app.post(
    '/api/password/reset',
    { schema: { body: ResetPasswordBody, response: { 200: AccountMessageResponse } }, config: { permission: 'public', ...perHour('password-reset') } },
    async (request) => {
      await accounts.resetPassword(request.body);
      return { success: true as const, message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );
};
