import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppMetrics } from '../metrics/metrics';
import type { AppServices } from '../services';

declare module 'fastify' {
  interface FastifyInstance {
    /** The port of the metrics listener (METRICS_PORT) once listening; null when metrics are served on the app's port or not at all. */
    metricsPort: number | null;
  }
}

/** The label of a request's route: its pattern, never the URL (which holds ids, MACs, tokens). */
function routeLabel(pattern: string | undefined): string {
  return pattern ?? 'unmatched';
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Prometheus metrics (X14, ADR 67). Every request's duration is observed by route pattern, method and status. GET
 * /metrics answers the registry in the text format: on the app's port behind METRICS_TOKEN (Bearer; 401 without it),
 * or only on METRICS_PORT (a port the proxy does not expose), behind the token too when one is set. Without either
 * setting nothing is served: metrics tell how busy the platform is, which is nobody's business by default.
 */
async function metricsPlugin(app: FastifyInstance, { services }: { services: AppServices }) {
  const metrics = services.metrics;
  const settings = services.config.metrics;
  app.decorate('metricsPort', null);

  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequestDuration.observe(
      { method: request.method, route: routeLabel(request.routeOptions.url), status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  if (!settings) return;
  const token = settings.token;

  if (settings.port === undefined) {
    app.get(
      '/metrics',
      // Scraped while overloaded too: that is when the figures matter most.
      { config: { permission: 'public', keepsAnsweringUnderLoad: true }, schema: { hide: true } },
      async (request, reply) => {
        if (!token || !bearerMatches(request.headers.authorization, token)) {
          return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').type('text/plain; charset=utf-8').send('Unauthorized\n');
        }
        return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      },
    );
    return;
  }

  const server = createServer((req, res) => void answer(metrics, token, req, res));
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new Error(`METRICS_PORT ${settings.port} is in use: set another (0 for any free port)`) : err),
      );
      server.listen(settings.port, settings.host, () => resolve());
    });
    app.metricsPort = (server.address() as AddressInfo).port;
    app.log.info({ port: app.metricsPort, host: settings.host }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

/** The METRICS_PORT listener: GET /metrics, and 404 for anything else. */
async function answer(metrics: AppMetrics, token: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' || path !== '/metrics') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  if (token && !bearerMatches(req.headers.authorization, token)) {
    res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' }).end('Unauthorized\n');
    return;
  }
  try {
    const body = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body);
  } catch {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
  }
}

export default fp(metricsPlugin, { name: 'metrics' });
