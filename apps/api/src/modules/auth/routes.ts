import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginBody, LoginResponse, MSG, OkResponse, SessionUser, UserClientIdResponse, z } from '@sentinela/contract';
import { requireAuth, requireSession } from '../../plugins/auth';
import { clientMeta } from '../../lib/client-meta';
import { AppError, notFound, RetryLaterError } from '../../lib/errors';
import { findUserById, findUserInScope } from '../users/repository';
import type { AppServices } from '../../services';

export const authRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  // Failed logins per address, whatever the username: password spraying tries one password on many (predictable)
  // usernames, which the per-username limit below never sees. Once spent, every login from the address waits
  // for the window, right password or not, so the answer tells nothing.
  const failuresByAddress = services.rateLimits.limit({ name: 'login-failures-address', points: services.config.loginFailuresPerAddressPerMinute, windowSeconds: 60 });
  // Per address and username: slows guessing without letting one client lock others out.
  const attempts = services.rateLimits.limit({ name: 'login-attempts', points: services.config.loginMaxPerMinute, windowSeconds: 60 });

  app.post(
    '/api/authenticate',
    {
      schema: { body: LoginBody, response: { 200: LoginResponse } },
      config: {
        permission: 'public',
        limits: [
          {
            limit: attempts,
            hook: 'preHandler',
            key: (request) => {
              const body = request.body as { username?: unknown } | undefined;
              const username = typeof body?.username === 'string' ? body.username.toLowerCase() : '';
              return `${request.ip}|${username}`;
            },
            message: MSG.tooManyLoginAttempts,
          },
        ],
      },
    },
    async (request) => {
      const spent = await failuresByAddress.check(request.ip);
      if (!spent.allowed) throw new RetryLaterError('TOO_MANY_REQUESTS', MSG.tooManyLoginAttempts, spent.retryAfterSeconds);
      try {
        return await services.auth.login(request.body.username, request.body.password, clientMeta(request));
      } catch (err) {
        if (err instanceof AppError && err.code === 'INVALID_CREDENTIALS') await failuresByAddress.penalty(request.ip);
        throw err;
      }
    },
  );

  app.post(
    '/api/logout',
    { schema: { response: { 200: OkResponse } }, config: { permission: 'profile:own' } },
    async (request) => {
      await services.sessions.revoke(requireSession(request).sessionId);
      return { success: true as const };
    },
  );

  // Presence on a live screen (issue 11): while a travel or device is on screen in the foreground, the page calls
  // this about once a minute so that watching counts as activity for the 5-minute window, like any authorised
  // request. A hidden or closed tab stops calling, and its session expires as the documents require.
  app.post(
    '/api/session/presence',
    { schema: { response: { 200: OkResponse } }, config: { permission: 'profile:own' } },
    async () => ({ success: true as const }),
  );

  app.get(
    '/api/me',
    { schema: { response: { 200: SessionUser } }, config: { permission: 'profile:own' } },
    async (request) => {
      const user = await findUserById(services.db, requireAuth(request).userId);
      if (!user) throw notFound();
      return user;
    },
  );

  app.get(
    '/api/user-client-id/:userId',
    {
      schema: { params: z.object({ userId: z.uuid(MSG.notFound) }), response: { 200: UserClientIdResponse } },
      config: { permission: 'profile:own' },
    },
    async (request) => {
      const auth = requireAuth(request);
      const user = await findUserInScope(services.db, auth.scope, request.params.userId);
      if (!user) throw notFound('Usuário não encontrado.');
      return { _id: user.enterprise?._id ?? null, name: user.enterprise?.name ?? null };
    },
  );
};
