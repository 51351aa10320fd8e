import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import { MSG } from '@sentinela/contract';
import { RetryLaterError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route keeps answering when the process is overloaded: the health check (a load balancer must not take
     * a busy server for a dead one) and ingestion (a reading refused is a reading a gateway must hold and resend).
     */
    keepsAnsweringUnderLoad?: boolean;
  }
}

export interface LoadSheddingOptions {
  /** Mean event-loop delay (ms) over a sample above which requests are shed; 0: never. */
  maxEventLoopDelayMs: number;
  retryAfterSeconds: number;
}

/**
 * Load shedding (issue 9): while the event loop lags, requests are answered at once with a 503 and Retry-After
 * (pt-BR), before any session lookup, so the work already queued can finish and the lag drains instead of
 * growing. The loop's delay is sampled once a second by @fastify/under-pressure (`app.memoryUsage()`).
 */
async function loadShedding(app: FastifyInstance, opts: LoadSheddingOptions) {
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    retryAfter: opts.retryAfterSeconds,
    pressureHandler: (request) => {
      if (request.routeOptions.config.keepsAnsweringUnderLoad) return undefined;
      return Promise.reject(new RetryLaterError('SERVICE_UNAVAILABLE', MSG.overloaded, opts.retryAfterSeconds));
    },
  });
}

export default fp(loadShedding, { name: 'load-shedding' });
