import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
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
}

/** The signed-in user, or the client address of an anonymous caller. */
export const userOrAddress = (request: FastifyRequest): string => (request.auth ? `user:${request.auth.userId}` : `address:${request.ip}`);

declare module 'fastify' {
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
        for (const { limit, key, message, closeConnection } of mine) {
          const answer = await limit.consume(key ? key(request) : request.ip);
          if (answer.allowed) continue;
          if (closeConnection) reply.header('connection', 'close');
          throw new RetryLaterError('TOO_MANY_REQUESTS', message, answer.retryAfterSeconds);
        }
      };
      const existing = route[hook];
      route[hook] = existing ? [...(Array.isArray(existing) ? existing : [existing]), check] : [check];
    }
  });
  app.addHook('onClose', () => services.rateLimits.close());
}

export default fp(rateLimits, { name: 'rate-limits' });
