import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountMessageResponse, MSG, ChangePasswordBody, PROFILE_MESSAGES, ProfileBody, ProfileResponse } from '@sentinela/contract';
import { clientMeta } from '../../lib/client-meta';
import { requireAuth, requireSession } from '../../plugins/auth';
import { takenAnswersLimit, userOrAddress } from '../../plugins/rate-limits';
import type { AppServices } from '../../services';

/** /profile (A7): the signed-in user's own data and password; nobody else's is reachable here. */
export const profileRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { profile } = services;
  const taken = takenAnswersLimit(services);

  app.get(
    '/api/profile',
    { schema: { response: { 200: ProfileResponse } }, config: { permission: 'profile:own' } },
    async (request) => profile.get(requireAuth(request).userId),
  );

  // The documents call it with a trailing slash; both spellings work.
  for (const url of ['/api/profile/', '/api/profile']) {
    app.post(
      url,
      { schema: { body: ProfileBody, response: { 200: AccountMessageResponse } }, config: { permission: 'profile:own', limits: [taken] } },
      async (request) => ({ success: true as const, message: await profile.update(requireAuth(request), request.body, clientMeta(request)) }),
    );
  }

  // ADR 82: "Cancelar alteração" of a new e-mail waiting for its confirmation link.
  app.delete(
    '/api/profile/pending-email',
    { schema: { response: { 200: AccountMessageResponse } }, config: { permission: 'profile:own' } },
    async (request) => ({ success: true as const, message: await profile.cancelPendingEmail(requireAuth(request).userId) }),
  );

  app.post(
    '/api/me/change-password',
    {
      schema: { body: ChangePasswordBody, response: { 200: AccountMessageResponse } },
      config: {
        permission: 'profile:own',
        // Per session: the current password must not be guessable through this form either.
        limits: [{ limit: services.rateLimits.limit({ name: 'change-password', points: services.config.loginMaxPerMinute, windowSeconds: 60 }), key: userOrAddress, message: MSG.tooManyRequests }],
      },
    },
    async (request) => {
      const auth = requireSession(request);
      await profile.changePassword(auth.userId, auth.sessionId, request.body.current_password, request.body.password, clientMeta(request));
      return { success: true as const, message: PROFILE_MESSAGES.passwordChanged };
    },
  );
};
