import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from '@sentinela/contract';
import type { AppServices } from '../../services';

const Health = z.object({
  status: z.literal('ok'),
  time: z.string(),
  /** The process's load, as the load shedding sees it: mean event-loop delay (ms) and utilisation (0–1) of the last sample. */
  load: z.object({ eventLoopDelayMs: z.number(), eventLoopUtilization: z.number() }),
});

export const healthRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/health',
    // Answers even while requests are shed: a busy server is not a dead one.
    { schema: { response: { 200: Health } }, config: { permission: 'public', keepsAnsweringUnderLoad: true } },
    async () => {
      await sql`select 1`.execute(services.db);
      const load = app.load.get();
      const finite = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : 0);
      return {
        status: 'ok' as const,
        time: services.clock.now().toISOString(),
        load: { eventLoopDelayMs: finite(load.eventLoopDelayMs), eventLoopUtilization: finite(load.eventLoopUtilization) },
      };
    },
  );
};
