import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import type { AppServices } from '../services';
import type { GatewayIdentity } from './ingest-service';
import { INGEST_MESSAGES } from './messages';

export interface GatewayAuthentication {
  /** The route's onRequest hook: authenticates the gateway key before the body is even read. */
  onRequest(request: FastifyRequest): Promise<void>;
  /** The gateway onRequest authenticated for this request. */
  gatewayOf(request: FastifyRequest): GatewayIdentity;
}

/**
 * Gateway-key authentication of an ingestion route (POST /api/ingest/readings, /api/ingest/ruuvi): the routes are
 * public for the session layer, since a gateway has no user session. `readKey` reads the key the way the route's
 * gateways send it; a request without one gets `missingMessage`, an unknown or revoked key the same 401 everywhere.
 */
export function gatewayAuthentication(services: AppServices, readKey: (request: FastifyRequest) => string | null, missingMessage: string): GatewayAuthentication {
  const gateways = new WeakMap<FastifyRequest, GatewayIdentity>();
  return {
    async onRequest(request) {
      const key = readKey(request);
      if (!key) throw new AppError('UNAUTHENTICATED', missingMessage);
      const gateway = await services.ingest.authenticateKey(key);
      if (!gateway) throw new AppError('UNAUTHENTICATED', INGEST_MESSAGES.invalidKey);
      gateways.set(request, gateway);
    },
    gatewayOf(request) {
      const gateway = gateways.get(request);
      if (!gateway) throw new AppError('UNAUTHENTICATED', INGEST_MESSAGES.invalidKey);
      return gateway;
    },
  };
}
