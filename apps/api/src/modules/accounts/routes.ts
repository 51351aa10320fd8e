import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_MESSAGES,
  AccountMessageResponse,
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
} from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Sign-up, e-mail confirmation and password recovery (A3, A5, A6): public routes, limited per client address. */
export const accountRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { accounts, config } = services;
  // Each route counted apart, per client address (README: ACCOUNT_REQUESTS_MAX_PER_HOUR).
  const perHour = (name: string) => ({
    limits: [{ limit: services.rateLimits.limit({ name: `account-${name}`, points: config.accountRequestsMaxPerHour, windowSeconds: 3600 }), message: ACCOUNT_MESSAGES.tooManyAccountRequests }],
  });

  app.post(
    '/api/user/email-available',
    {
      schema: { body: EmailAvailableBody, response: { 200: EmailAvailableResponse } },
      config: {
        permission: 'public',
        limits: [{ limit: services.rateLimits.limit({ name: 'email-available', points: config.emailAvailableMaxPerMinute, windowSeconds: 60 }), message: ACCOUNT_MESSAGES.tooManyAccountRequests }],
      },
    },
    // The documents' answer: truthy when the e-mail is taken (a bare boolean).
    async (request) => !(await accounts.isEmailAvailable(request.body.email)),
  );

  app.post(
    '/api/client',
    { schema: { body: SignUpBody, response: { 200: AccountMessageResponse } }, config: { permission: 'public', ...perHour('sign-up') } },
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
      schema: { params: VerifyEmailParams, response: { 200: VerifyEmailResponse, 404: VerifyEmailNotFoundResponse } },
      config: { permission: 'public', ...perHour('verify-email') },
    },
    async (request, reply) => {
      if (await accounts.verifyEmail(request.params.token)) return { success: true as const, message: ACCOUNT_MESSAGES.emailConfirmed, confirmed: true as const };
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
