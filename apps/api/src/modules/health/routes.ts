import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from '@sentinela/contract';
import type { AppServices } from '../../services';
import { checkReadiness } from './readiness';

const Health = z.object({
  status: z.literal('ok'),
  time: z.string(),
  /** The process's load, as the load shedding sees it: mean event-loop delay (ms) and utilisation (0–1) of the last sample. */
  load: z.object({ eventLoopDelayMs: z.number(), eventLoopUtilization: z.number() }),
});

const Readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  /** Each check: "ok", "disabled" (not part of this process), or what fails. */
  checks: z.object({ database: z.string(), migrations: z.string(), ingestion: z.string() }),
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

  app.get(
    '/api/ready',
    // Readiness (X14): a load balancer or orchestrator sends traffic only while it answers 200.
    { schema: { response: { 200: Readiness, 503: Readiness } }, config: { permission: 'public', keepsAnsweringUnderLoad: true } },
    async (request, reply) => {
      const mqtt = app.mqtt;
      const result = await checkReadiness(services.db, mqtt ? { kind: mqtt.kind, up: mqtt.up() } : { kind: 'off' }, request.log);
      return reply.code(result.ready ? 200 : 503).header('cache-control', 'no-store').send({ status: result.ready ? 'ready' : 'not_ready', checks: result.checks });
    },
  );
};
