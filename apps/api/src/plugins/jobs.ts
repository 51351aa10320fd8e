import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppServices } from '../services';

/**
 * Background jobs (ADR 9): on ready, the report files' folder and the signing certificate are made ready (a bad
 * certificate stops the start, not the first report), the queue starts its workers, and reports left waiting by
 * a previous run are queued again; then the Telegram bot starts (it queues messages), and alarm announcements a
 * stopped process did not queue are queued, then looked for every minute (ADR 21). On close, running jobs finish
 * before the queue and the render threads stop.
 */
async function jobs(app: FastifyInstance, { services }: { services: AppServices }) {
  let sweeper: NodeJS.Timeout | undefined;
  let billingTimer: NodeJS.Timeout | undefined;
  let retentionTimer: NodeJS.Timeout | undefined;
  let calibrationTimer: NodeJS.Timeout | undefined;
  let sealTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = services.alarmDeliveries
      .sweep()
      .catch((err: unknown) => app.log.error({ err }, 'alarm announcement sweep failed'))
      // Reminders and escalation of open, unacknowledged alarms (ADR 24).
      .then(() => services.alarmReminders.sweep())
      .catch((err: unknown) => app.log.error({ err }, 'alarm reminder sweep failed'))
      // Webhook deliveries a stopped process did not queue or finish, and the log's old entries (ADR 66).
      .then(() => services.webhooks.sweep())
      .catch((err: unknown) => app.log.error({ err }, 'webhook sweep failed'));
  };
  app.addHook('onReady', async () => {
    await services.reports.prepare();
    await services.jobs.start();
    services.metrics.setQueueDepthSource(() => services.jobs.depths());
    await services.reports.requeueWaiting();
    // After the queue: a /start or a button press may queue a message.
    await services.telegram.start();
    sweep();
    sweeper = setInterval(sweep, 60_000);
    sweeper.unref();
    // The billing cycle (ADR 27): queued every BILLING_CYCLE_MINUTES, run at most once an hour by whichever server
    // takes it. Tests turn the timer off and run the cycle themselves under their clock.
    const minutes = services.config.billingCycleMinutes;
    if (minutes > 0) {
      const queueBilling = () => void services.billingCycle.queue().catch((err: unknown) => app.log.error({ err }, 'billing cycle not queued'));
      queueBilling();
      billingTimer = setInterval(queueBilling, minutes * 60_000);
      billingTimer.unref();
    }
    // Retention (ADR 0081): the day's run, queued every RETENTION_CHECK_MINUTES and run once a day.
    const retentionMinutes = services.config.retentionCheckMinutes;
    if (retentionMinutes > 0) {
      const queueRetention = () => void services.retention.queue().catch((err: unknown) => app.log.error({ err }, 'retention not queued'));
      queueRetention();
      retentionTimer = setInterval(queueRetention, retentionMinutes * 60_000);
      retentionTimer.unref();
    }
    // Sealed days (ADR 0080): queued now (days before this server's start are sealed by the job, not in the start-up
    // path) and every SEAL_CHECK_MINUTES (late readings' addenda, days newly behind the roll-up line).
    const sealMinutes = services.config.sealCheckMinutes;
    if (sealMinutes > 0) {
      const queueSeals = () => void services.seals.queue().catch((err: unknown) => app.log.error({ err }, 'seal job not queued'));
      queueSeals();
      sealTimer = setInterval(queueSeals, sealMinutes * 60_000);
      sealTimer.unref();
    }
    // Certificates becoming due or overdue (ADR 0077): announced once each, looked for every CALIBRATION_CHECK_MINUTES
    // (the notice rows make a second look, or a second server, harmless). Tests run the sweep under their clock.
    const calibrationMinutes = services.config.calibrationCheckMinutes;
    if (calibrationMinutes > 0) {
      const lookForDue = () => void services.calibrationNotices.sweep().catch((err: unknown) => app.log.error({ err }, 'calibration notices not queued'));
      lookForDue();
      calibrationTimer = setInterval(lookForDue, calibrationMinutes * 60_000);
      calibrationTimer.unref();
    }
  });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    clearInterval(billingTimer);
    clearInterval(retentionTimer);
    clearInterval(calibrationTimer);
    clearInterval(sealTimer);
    await sweeping;
    // Announcements under way queue their deliveries: before the queue stops.
    await services.alarmDeliveries.close();
    await services.webhooks.settled();
    await services.telegram.stop();
    await services.jobs.stop();
    await services.renderPool.close();
    await services.spreadsheetReaders.close();
    await services.pdfChecker.close();
    services.mail.close();
  });
}

export default fp(jobs, { name: 'jobs' });
