import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { MSG } from '@sentinela/contract';
import { RetryLaterError } from '../lib/errors';
import type { Limit } from '../lib/rate-limits/rate-limits';
import type { AppServices } from '../services';

/** One limit of a route: what is counted, and what a refused client reads. */
export interface RouteLimit {
  limit: Limit;
  /** The counted key; the client address by default. */
  key?: (request: FastifyRequest) => string;
  /** The pt-BR message of the 429. */
  message: string;
  /**
   * `onRequest` (default): before the body is read, so a refusal costs nothing. `preHandler`: when the key needs
   * the parsed body (a username).
   */
  hook?: 'onRequest' | 'preHandler';
  /** Close the connection with the refusal (uploads: the megabytes on their way are then never read). */
  closeConnection?: boolean;
  /**
   * Count only the requests whose answer has this status (e.g. 409 "taken": ADR 54, lists of people). Each request
   * is still consumed up front (atomically: parallel ones cannot all slip under the budget) and given back once
   * its answer turned out to be another.
   */
  countOnly?: number;
}

/** The signed-in user, or the client address of an anonymous caller. */
export const userOrAddress = (request: FastifyRequest): string => (request.auth ? `user:${request.auth.userId}` : `address:${request.ip}`);

/**
 * "E-mail/username taken" answers (409) per signed-in user and hour, one budget for every route that gives them
 * (Cadastrar usuário, Editar usuário, Perfil): nobody lists who has an account through them (issue 21 item 5, ADR 54).
 */
export function takenAnswersLimit(services: Pick<AppServices, 'rateLimits' | 'config'>): RouteLimit {
  return {
    limit: services.rateLimits.limit({ name: 'taken-answers', points: services.config.takenAnswersPerHour, windowSeconds: 3600 }),
    key: userOrAddress,
    countOnly: 409,
    message: MSG.tooManyRequests,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Attempts of `countOnly` limits to give back if the answer is not the counted one. */
    limitsToGiveBack?: { limit: Limit; key: string; countOnly: number }[];
  }
  interface FastifyContextConfig {
    /** Rate limits of the route (lib/rate-limits), checked in order: the first one spent answers 429 + Retry-After. */
    limits?: RouteLimit[];
  }
}

/**
 * Route limits: a route lists its `config.limits`; each becomes a hook of that route (after the session was read,
 * so a key may be the signed-in user). The shared store and its close belong to `services.rateLimits`.
 */
async function rateLimits(app: FastifyInstance, { services }: { services: AppServices }) {
  app.addHook('onRoute', (route) => {
    const limits = route.config?.limits;
    if (!limits?.length) return;
    for (const hook of ['onRequest', 'preHandler'] as const) {
      const mine = limits.filter((l) => (l.hook ?? 'onRequest') === hook);
      if (!mine.length) continue;
      const check: onRequestAsyncHookHandler & preHandlerAsyncHookHandler = async (request, reply) => {
        for (const { limit, key, message, closeConnection, countOnly } of mine) {
          const counted = key ? key(request) : request.ip;
          const answer = await limit.consume(counted);
          if (answer.allowed) {
            if (countOnly !== undefined) (request.limitsToGiveBack ??= []).push({ limit, key: counted, countOnly });
            continue;
          }
          if (closeConnection) reply.header('connection', 'close');
          throw new RetryLaterError('TOO_MANY_REQUESTS', message, answer.retryAfterSeconds);
        }
      };
      const existing = route[hook];
      route[hook] = existing ? [...(Array.isArray(existing) ? existing : [existing]), check] : [check];
    }
  });
  // Given back before the answer leaves (onSend, not onResponse): the client's next request must find the budget as
  // this answer left it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.limitsToGiveBack) return payload;
    const toGiveBack = request.limitsToGiveBack.filter((g) => reply.statusCode !== g.countOnly);
    request.limitsToGiveBack = undefined;
    await Promise.all(toGiveBack.map((g) => g.limit.reward(g.key).catch((err: unknown) => request.log.warn({ err }, 'rate limits: give back failed'))));
    return payload;
  });
  app.addHook('onClose', () => services.rateLimits.close());
}

export default fp(rateLimits, { name: 'rate-limits' });
