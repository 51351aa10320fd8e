import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IngestResponse } from '@sentinela/contract';
import type { AppServices } from '../services';
import { httpIntake, takeJsonAsBytes } from './http-intake';
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
 * gateway has no user session; it is authenticated here by its API key, before the body is even read, and held to
 * its quota (ADR 52). The answer comes only after the batch's transaction committed.
 */
export const ingestHttpRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const intake = httpIntake(services, 'readings', apiKey, INGEST_MESSAGES.missingKey);
  takeJsonAsBytes(app, services.config.ingestBodyLimitBytes);

  app.post(
    '/api/ingest/readings',
    {
      bodyLimit: services.config.ingestBodyLimitBytes,
      config: { permission: 'public', keepsAnsweringUnderLoad: true },
      schema: { body: IngestBatchDoc, response: { 200: IngestResponse }, security: [{ gatewayKey: [] }] },
      // Each reading is checked on its own (one bad reading does not reject the batch): the body schema only describes.
      validatorCompiler: bodyReadByHandler,
      onRequest: intake.onRequest,
    },
    (request) => intake.ingest(request),
  );
};
