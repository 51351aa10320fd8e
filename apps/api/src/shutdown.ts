import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * A clean shutdown on SIGTERM or SIGINT (X14, ADR 67), bounded in time. `app.close()` does it in order: /api/ready and
 * any new request answer 503 (Fastify's closing state) and the listeners stop accepting; Socket.IO connections are
 * closed at the transport, so clients reconnect by themselves to the next server; requests in flight are answered
 * (an ingestion request after its commit); MQTT stops taking messages, stores those it took and acknowledges them
 * (PUBACK after the commit only) before closing its connections; running jobs finish. Then the database closes and
 * the process exits 0. Past `timeoutMs` it exits 1 anyway, so that a supervisor is never kept waiting.
 */
export function exitCleanlyOnSignals(options: {
  app: FastifyInstance;
  closeDatabase: () => Promise<void>;
  logger: Logger;
  timeoutMs: number;
}): void {
  const { app, closeDatabase, logger, timeoutMs } = options;
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, timeoutMs }, 'shutting down: no new connections; finishing requests, batches and jobs');
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown took longer than SHUTDOWN_TIMEOUT_SECONDS: exiting now');
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    try {
      await app.close();
      await closeDatabase();
      logger.info('shut down cleanly');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
}
