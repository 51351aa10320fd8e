import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { EventBus } from '../realtime/event-bus';
import type { GatewayIdentity, IngestService } from './ingest-service';
import { ShardedBatchers } from './micro-batcher';
import { partFromMessage } from './mqtt-messages';

export interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

interface Logger {
  error(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

/** CONNACK return codes of MQTT 3.1.1. */
const BAD_USERNAME_OR_PASSWORD = 4;
const SERVER_UNAVAILABLE = 3;

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The embedded MQTT broker (Aedes). Gateways connect with their API key as the password and publish QoS 1
 * to `devices/{mac}/readings`. A message is acknowledged (PUBACK) only once it is stored: Aedes sends the
 * PUBACK after `authorizePublish` calls back, and we call back when the micro-batch holding the message
 * has committed. If the store fails, the client is disconnected and resends the message when it reconnects.
 * The broker is for intake only: nobody may subscribe, and no message is retained.
 */
export async function startEmbeddedBroker(options: {
  ingest: IngestService;
  events: EventBus;
  host: string;
  port: number;
  log: Logger;
}): Promise<EmbeddedBroker> {
  const { ingest, log } = options;
  const gatewayOf = new WeakMap<Client, GatewayIdentity>();
  const connected = new Set<Client>();

  // When a batch commits, its messages' PUBACKs are written one by one; corking each connection until the
  // loop turns sends them in one write per connection instead of one system call per message.
  const corked = new Set<Client['conn']>();
  const corkUntilNextTurn = (conn: Client['conn']) => {
    if (corked.has(conn) || !('cork' in conn)) return;
    conn.cork();
    corked.add(conn);
    if (corked.size === 1) {
      setImmediate(() => {
        for (const c of corked) c.uncork();
        corked.clear();
      });
    }
  };

  const batchers = new ShardedBatchers(async (parts) => {
    const result = await ingest.ingest(parts);
    if (result.rejected.length > 0) log.info({ rejected: result.rejected.length, first: result.rejected[0] }, 'mqtt readings rejected');
  });

  const broker = await Aedes.createBroker({
    authenticate: (client, _username, password, done) => {
      ingest.authenticateKey(password ? password.toString('utf8') : '').then(
        (gateway) => {
          if (!gateway) return done(authError('Chave de gateway inválida ou revogada.', BAD_USERNAME_OR_PASSWORD), false);
          gatewayOf.set(client, gateway);
          connected.add(client);
          done(null, true);
        },
        (err: unknown) => {
          log.error({ err }, 'mqtt authentication failed');
          done(authError('Serviço indisponível.', SERVER_UNAVAILABLE), false);
        },
      );
    },
    authorizeSubscribe: (_client, _subscription, done) => done(null, null),
    authorizePublish: (client, packet, done) => {
      if (!client) return done(null); // the broker's own $SYS messages
      const gateway = gatewayOf.get(client);
      if (!gateway) return done(new Error('not authenticated'));
      packet.retain = false;
      const part = partFromMessage(gateway, packet.topic, packet.payload);
      batchers.submit(part).then(
        () => {
          corkUntilNextTurn(client.conn);
          done(null);
        },
        (err: unknown) => {
          log.error({ err, clientId: client.id }, 'mqtt batch not stored; the client will resend');
          done(err instanceof Error ? err : new Error(String(err)));
        },
      );
    },
  });
  broker.on('clientDisconnect', (client) => connected.delete(client));

  // A revoked key stops working at once, also for gateways connected with it.
  const offRevoked = options.events.on('gateway.revoked', ({ gatewayId }) => {
    for (const client of connected) if (gatewayOf.get(client)?.id === gatewayId) client.close();
  });

  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      broker.close();
      reject(err.code === 'EADDRINUSE' ? new Error(`MQTT port ${options.port} is in use: set MQTT_PORT (0 for any free port) or MQTT_ENABLED=0`) : err);
    };
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port }, 'embedded MQTT broker listening');

  return {
    port,
    async close() {
      offRevoked();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        broker.close();
      });
      await batchers.drain();
    },
  };
}
