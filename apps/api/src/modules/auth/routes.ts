import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginBody, LoginResponse, MSG, OkResponse, SessionUser, UserClientIdResponse, z } from '@sentinela/contract';
import { requireAuth, requireSession } from '../../plugins/auth';
import { clientMeta } from '../../lib/client-meta';
import { notFound, RetryLaterError } from '../../lib/errors';
import { findUserById, findUserInScope } from '../users/repository';
import type { AppServices } from '../../services';
import type { Limit, LimitQueue } from '../../lib/rate-limits/rate-limits';

/** Logins that may wait for their turn per slowed address or username; one more is told to come back (429). */
const LOGIN_MAX_WAITING = 5;

export const authRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { config, rateLimits } = services;
  // Failed logins are counted three ways (issue 21 item 9; ADR 54, "Logins"):
  // - per address and username: guessing one account's password from one place; over the budget that pair waits
  //   for the end of the minute (429), right password or not — it is the one pair an attacker owns;
  const pairFailures = rateLimits.limit({ name: 'login-failures-pair', points: config.loginMaxPerMinute, windowSeconds: 60 });
  // - per address, whatever the username (password spraying), and per username, whatever the address (a botnet on
  //   one account): over either budget, logins from that address / on that username are slowed to one every
  //   LOGIN_SLOWDOWN_SECONDS, right password or not (so the answer tells nothing), but never refused outright: an
  //   office behind one address, or the account's owner, still gets in, a few seconds later.
  const addressFailures = rateLimits.limit({ name: 'login-failures-address', points: config.loginFailuresPerAddressPerMinute, windowSeconds: 60 });
  const usernameFailures = rateLimits.limit({ name: 'login-failures-username', points: config.loginFailuresPerUsernamePerHour, windowSeconds: 3600 });
  const pace = { points: 1, windowSeconds: config.loginSlowdownSeconds };
  const addressPace = rateLimits.queue({ name: 'login-pace-address', ...pace }, LOGIN_MAX_WAITING);
  const usernamePace = rateLimits.queue({ name: 'login-pace-username', ...pace }, LOGIN_MAX_WAITING);
  const tooMany = (seconds: number) => new RetryLaterError('TOO_MANY_REQUESTS', MSG.tooManyLoginAttempts, seconds);

  /**
   * Counts the attempt (atomically, so parallel requests cannot all slip under the budget) and, when `limit` is
   * spent for `key`, waits for a turn of its pace; too many already waiting: 429 with the time they need.
   */
  async function countOrSlowDown(limit: Limit, queue: LimitQueue, key: string): Promise<void> {
    if ((await limit.consume(key)).allowed) return;
    if (!(await queue.turn(key))) throw tooMany(config.loginSlowdownSeconds * LOGIN_MAX_WAITING);
  }

  app.post(
    '/api/authenticate',
    { schema: { body: LoginBody, response: { 200: LoginResponse } }, config: { permission: 'public' } },
    async (request) => {
      const username = request.body.username.toLowerCase();
      const pair = `${request.ip}|${username}`;
      // Every attempt counts until it succeeds: a successful login gives its attempts back, so the budgets are
      // budgets of failures (a company signing in at 8:00 spends nothing).
      const spent = await pairFailures.consume(pair);
      if (!spent.allowed) throw tooMany(spent.retryAfterSeconds);
      await countOrSlowDown(addressFailures, addressPace, request.ip);
      await countOrSlowDown(usernameFailures, usernamePace, username);
      const result = await services.auth.login(request.body.username, request.body.password, clientMeta(request));
      await Promise.all([pairFailures.reward(pair), addressFailures.reward(request.ip), usernameFailures.reward(username)]);
      return result;
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
