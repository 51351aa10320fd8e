import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppServices } from '../services';

/**
 * The roll-up job (ADR 0045), every ROLLUP_INTERVAL_SECONDS, in this process: on PostgreSQL with several servers each
 * runs it and an advisory lock lets one work at a time; on PGlite it is the only way it runs. A run still going when
 * the next is due is not doubled. The first run starts with the server. Tests call `services.rollups.run()` themselves.
 */
async function rollupMaintenance(app: FastifyInstance, { services }: { services: AppServices }) {
  const seconds = services.config.rollupIntervalSeconds;
  if (seconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = services.rollups
      .run()
      .catch((err: unknown) => app.log.error({ err }, 'reading roll-up job failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    // Once at start (hours that fell behind the line while no server ran), then on the interval.
    tick();
    timer = setInterval(tick, seconds * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

export default fp(rollupMaintenance, { name: 'rollup-maintenance' });
