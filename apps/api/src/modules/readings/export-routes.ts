import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ReadingsExportPage, ReadingsExportQuery, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';
import { attachment } from '../../lib/download';

/** Whether the caller asked for CSV (`Accept: text/csv`); anything else gets JSON pages. */
const wantsCsv = (accept: string | undefined) => !!accept && /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept);

/** GET /api/readings (X13, ADR 65): readings in pages with a stable cursor, or the whole period as streamed CSV. */
export const readingsExportRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/readings',
    {
      schema: {
        querystring: ReadingsExportQuery,
        response: {
          200: {
            description: 'A page of readings (JSON), or with `Accept: text/csv` the whole period as CSV.',
            content: {
              'application/json': { schema: ReadingsExportPage },
              'text/csv': { schema: z.unknown().meta({ type: 'string', description: 'mac;ts;temperature;humidity;battery;lat;lng — UTF-8 with BOM, decimal commas, ISO instants (UTC).' }) },
            },
          },
        },
      },
      config: { permission: 'readings:read' },
    },
    async (request, reply) => {
      const scope = requireAuth(request).scope;
      if (!wantsCsv(request.headers.accept)) return reply.type('application/json; charset=utf-8').send(await services.readingsExport.page(scope, request.query));
      const { filename, chunks } = await services.readingsExport.csv(scope, request.query);
      const body = Readable.from(chunks, { objectMode: false });
      // A client that hangs up stops the reading: the generator ends at its next step.
      body.on('error', (err) => request.log.warn({ err }, 'readings CSV export interrupted'));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(filename)).header('cache-control', 'no-store').send(body);
    },
  );
};
