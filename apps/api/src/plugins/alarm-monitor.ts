import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppServices } from '../services';
import { asSystem } from '../lib/audit-context';

/**
 * The periodic "no data" check (D6): every NO_DATA_CHECK_SECONDS, devices silent for longer than their
 * no_data_minutes get an alarm. Safe with several servers running it: devices are locked with SKIP LOCKED
 * and an active alarm is never doubled. Tests call `services.alarms.checkNoData()` themselves.
 */
async function alarmMonitor(app: FastifyInstance, { services }: { services: AppServices }) {
  const seconds = services.config.noDataCheckSeconds;
  if (seconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running = asSystem('verificação de ausência de dados', () => services.alarms.checkNoData()).catch((err: unknown) => app.log.error({ err }, 'no-data alarm check failed'));
    }, seconds * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

export default fp(alarmMonitor, { name: 'alarm-monitor' });
