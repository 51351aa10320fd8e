import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppServices } from '../services';

/**
 * The payload reader's threads (ADR 52): started before the port opens in production, so the first large payload
 * does not wait for a thread to load its sources (tests start them on first use: most files never need one), and
 * stopped with the app once the MQTT broker has drained.
 */
async function ingestion(app: FastifyInstance, { services }: { services: AppServices }) {
  if (services.config.env === 'production') app.addHook('onReady', async () => services.payloads.warm());
  app.addHook('onClose', async () => services.payloads.close());
}

export default fp(ingestion, { name: 'ingestion' });
