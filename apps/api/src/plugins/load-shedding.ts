import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MSG } from '@sentinela/contract';
import type { EventLoopLoad } from '../lib/event-loop-load';
import { RetryLaterError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route keeps answering when the process is overloaded: the health check (a load balancer must not take
     * a busy server for a dead one) and ingestion (a reading refused is a reading a gateway must hold and resend).
     */
    keepsAnsweringUnderLoad?: boolean;
  }
  interface FastifyInstance {
    /** The event loop's load, sampled once a second (what shedding decides on, and what /api/health reports). */
    load: EventLoopLoad;
  }
}

export interface LoadSheddingOptions {
  load: EventLoopLoad;
  /** Mean event-loop delay (ms) over a sample above which requests are shed; 0: never. */
  maxEventLoopDelayMs: number;
  retryAfterSeconds: number;
}

/**
 * Load shedding (issue 9): while the event loop lags, requests are answered at once with a 503 and Retry-After
 * (pt-BR), before any session lookup, so the work already queued can finish and the lag drains instead of
 * growing. The loop's delay is sampled once a second (`EventLoopLoad`, which cannot throw: issue 21). Ingestion is
 * not shed here: the gateways that made the process busy are refused at a lower delay, by IngestAdmission (ADR 52).
 */
async function loadShedding(app: FastifyInstance, opts: LoadSheddingOptions) {
  const { load } = opts;
  app.decorate('load', load);
  app.addHook('onClose', async () => load.stop());
  if (opts.maxEventLoopDelayMs <= 0) return;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (load.get().eventLoopDelayMs <= opts.maxEventLoopDelayMs) return;
    if (request.routeOptions.config.keepsAnsweringUnderLoad) return;
    throw new RetryLaterError('SERVICE_UNAVAILABLE', MSG.overloaded, opts.retryAfterSeconds);
  });
}

export default fp(loadShedding, { name: 'load-shedding' });
