import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { demoGatewayId, LiveDemo } from '../simulator/live-demo';
import type { IngestAnswer, PostJson } from '../simulator/reading-sender';
import type { AppServices } from '../services';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live demo (DEMO_LIVE, ADR 38); null when off or on a database that is not a demo one. */
    liveDemo: LiveDemo | null;
  }
}

/**
 * The live demo (ADR 38): with DEMO_LIVE on a demo database, the demo beacons report every DEMO_LIVE_INTERVAL_SECONDS
 * through this server's own ingestion routes, injected (the same routing, key check, body parsing and ingestion a
 * gateway's POST goes through, without a socket, so it works whatever HOST and PORT are). Started when the app is
 * ready, stopped before it closes, after the tick under way has been answered.
 */
async function liveDemo(app: FastifyInstance, { services }: { services: AppServices }) {
  const gatewayId = services.config.demoLive ? await demoGatewayId(services.db) : null;
  if (!gatewayId) {
    if (services.config.demoLive) app.log.info('DEMO_LIVE: no demo gateway in this database, the live demo stays off');
    app.decorate('liveDemo', null);
    return;
  }
  const post: PostJson = async (url, authorization, body) => {
    const res = await app.inject({ method: 'POST', url, headers: { authorization, 'content-type': 'application/json' }, payload: body });
    return { status: res.statusCode, json: parseAnswer(res.body) };
  };
  const demo = new LiveDemo({
    db: services.db,
    clock: services.clock,
    gatewayId,
    post,
    onError: (err) => app.log.warn({ err }, 'live demo tick failed'),
  });
  app.decorate('liveDemo', demo);
  app.addHook('onReady', async () => {
    const intervalMs = services.config.demoLiveIntervalSeconds * 1000;
    demo.start(intervalMs);
    app.log.info({ intervalSeconds: services.config.demoLiveIntervalSeconds }, 'live demo on: the demo beacons report through ingestion (DEMO_LIVE=0 turns it off)');
  });
  // Before the server and its services close: no reading may be on its way into a closing ingestion.
  app.addHook('preClose', async () => {
    await demo.stop();
  });
}

function parseAnswer(text: string): IngestAnswer {
  try {
    return JSON.parse(text) as IngestAnswer;
  } catch {
    return { error: text };
  }
}

export default fp(liveDemo, { name: 'live-demo' });
