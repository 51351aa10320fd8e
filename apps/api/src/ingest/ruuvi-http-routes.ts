import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IngestResponse } from '@sentinela/contract';
import type { AppServices } from '../services';
import { httpIntake, takeJsonAsBytes } from './http-intake';
import { INGEST_MESSAGES } from './messages';

/**
 * The gateway key as a Ruuvi Gateway's "HTTP(S) custom server" settings can send it (docs.ruuvi.com, "Backend:
 * HTTP(s)"): Bearer <key>, Basic with the key as password (any user name), Token <key>, or the bare key ("API key"),
 * besides Sentinela's own ApiKey <key>.
 */
export function ruuviGatewayKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header || header.length > 1024) return null;
  const schemed = /^(Bearer|Token|ApiKey|Basic)\s+(\S+)$/i.exec(header.trim());
  if (!schemed) return /^\S+$/.test(header.trim()) ? header.trim() : null;
  if (schemed[1]!.toLowerCase() !== 'basic') return schemed[2]!;
  const decoded = Buffer.from(schemed[2]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : null;
}

/**
 * POST /api/ingest/ruuvi: a Ruuvi Gateway's relay of its tags' advertisements (ADR 33), decoded here and stored by the
 * same ingestion as /api/ingest/readings. Authenticated by the gateway key (and held to its quota, ADR 52) before the
 * body is read; the answer comes after the commit, with each rejected tag (index = the tag's position in `tags`) and
 * its reason.
 */
export const ruuviHttpRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const intake = httpIntake(services, 'ruuvi', ruuviGatewayKey, INGEST_MESSAGES.ruuviMissingKey);
  takeJsonAsBytes(app, services.config.ingestBodyLimitBytes);

  app.post(
    '/api/ingest/ruuvi',
    {
      bodyLimit: services.config.ingestBodyLimitBytes,
      config: { permission: 'public', keepsAnsweringUnderLoad: true },
      schema: { response: { 200: IngestResponse }, security: [{ gatewayBearer: [] }, { gatewayBasic: [] }] },
      onRequest: intake.onRequest,
    },
    (request) => intake.ingest(request),
  );
};
