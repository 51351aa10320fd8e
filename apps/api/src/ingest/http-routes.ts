import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { INGEST_MAX_BATCH, IngestResponse } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import type { AppServices } from '../services';
import { gatewayAuthentication } from './gateway-authentication';
import { INGEST_MESSAGES } from './messages';
import { IngestBatchDoc } from './http-body';
import { bodyReadByHandler } from '../openapi/route-schemas';

function apiKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header ? /^ApiKey\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * POST /api/ingest/readings: a gateway's batch of readings (D5). Public for the session layer, since a
 * gateway has no user session; it is authenticated here by its API key, before the body is even read.
 * The answer comes only after the batch's transaction committed.
 */
export const ingestHttpRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const authentication = gatewayAuthentication(services, apiKey, INGEST_MESSAGES.missingKey);

  app.post(
    '/api/ingest/readings',
    {
      bodyLimit: services.config.ingestBodyLimitBytes,
      config: { permission: 'public', keepsAnsweringUnderLoad: true },
      schema: { body: IngestBatchDoc, response: { 200: IngestResponse }, security: [{ gatewayKey: [] }] },
      // Each reading is checked on its own (one bad reading does not reject the batch): the body schema only describes.
      validatorCompiler: bodyReadByHandler,
      onRequest: authentication.onRequest,
    },
    async (request) => {
      const gateway = authentication.gatewayOf(request);
      const body = request.body as { readings?: unknown } | null;
      const readings = body && typeof body === 'object' && !Array.isArray(body) ? body.readings : undefined;
      if (!Array.isArray(readings)) throw new AppError('VALIDATION', INGEST_MESSAGES.badBody);
      if (readings.length > INGEST_MAX_BATCH) throw new AppError('PAYLOAD_TOO_LARGE', INGEST_MESSAGES.tooMany);
      return services.ingest.ingest([{ gateway, readings }]);
    },
  );
};
