import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppServices } from '../services';

/**
 * Background jobs (ADR 9): on ready, the report files' folder and the signing certificate are made ready (a bad
 * certificate stops the start, not the first report), the queue starts its workers, and reports left waiting by
 * a previous run are queued again; then the Telegram bot starts (it queues messages). On close, running jobs finish before the queue and the render threads stop.
 */
async function jobs(app: FastifyInstance, { services }: { services: AppServices }) {
  app.addHook('onReady', async () => {
    await services.reports.prepare();
    await services.jobs.start();
    await services.reports.requeueWaiting();
    // After the queue: a /start or a button press may queue a message.
    await services.telegram.start();
  });
  app.addHook('onClose', async () => {
    await services.telegram.stop();
    await services.jobs.stop();
    await services.renderPool.close();
    await services.spreadsheetReaders.close();
    services.mail.close();
  });
}

export default fp(jobs, { name: 'jobs' });
