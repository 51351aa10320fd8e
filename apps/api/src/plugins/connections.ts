import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config/config';
import { automaticConnectionsMax, ConnectionGuard } from '../lib/connection-guard';

declare module 'fastify' {
  interface FastifyInstance {
    /** The connection guard of every raw listener (HTTP here, the MQTT broker's own): one count per process. */
    connections: ConnectionGuard;
  }
}

/** Fewer connections than this is a small server (Linux's usual default of 1,024 open files leaves 256). */
const FEW_CONNECTIONS = 4096;

/**
 * Connection floods (issue 21, ADR 51): the HTTP listener (and Socket.IO on it) goes through the process's
 * connection guard, and its timeouts close what sends nothing. Node's HTTP server closes a connection that has not
 * sent a whole request head within `headersTimeout` (answering 408) — including one that sent nothing at all —, a
 * request not received whole within `requestTimeout`, and an idle keep-alive connection after `keepAliveTimeout`.
 * It checks the first two every `connectionsCheckingInterval` (30 s by default: far too coarse for a 10 s timeout).
 * Behind a trusted proxy every connection comes from the proxy, so only the total applies to HTTP there (the proxy
 * limits its clients); the MQTT listeners are not behind it.
 */
async function connections(app: FastifyInstance, { config }: { config: AppConfig }) {
  const automatic = config.connectionsMax > 0 ? null : automaticConnectionsMax();
  if (automatic && automatic.fileLimit !== null && automatic.max < FEW_CONNECTIONS) {
    app.log.warn({ fileLimit: automatic.fileLimit, connectionsMax: automatic.max }, 'the open-files limit leaves few connections: raise it (LimitNOFILE=65536, docs/scaling.md)');
  }
  const guard = new ConnectionGuard({ perAddress: config.connectionsPerAddress, maxTotal: automatic ? automatic.max : config.connectionsMax, log: app.log });
  app.decorate('connections', guard);
  const server = app.server;
  guard.watch(server, 'http', { perAddress: !config.trustProxy });
  server.headersTimeout = config.httpHeadersTimeoutSeconds * 1000;
  server.requestTimeout = config.httpRequestTimeoutSeconds * 1000;
  server.keepAliveTimeout = config.httpKeepAliveTimeoutSeconds * 1000;
  // An option of http.createServer (which Fastify calls), read again when the server starts listening; not typed.
  Object.assign(server, { connectionsCheckingInterval: Math.min(1000, server.headersTimeout / 2) });
}

export default fp(connections, { name: 'connections' });
