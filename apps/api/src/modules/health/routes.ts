import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from '@sentinela/contract';
import type { AppServices } from '../../services';

export const healthRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: z.object({ status: z.literal('ok'), time: z.string() }) } }, config: { permission: 'public' } },
    async () => {
      await sql`select 1`.execute(services.db);
      return { status: 'ok' as const, time: services.clock.now().toISOString() };
    },
  );
};
