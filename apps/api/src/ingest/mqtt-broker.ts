import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { ConnectionGuard } from '../lib/connection-guard';
import { ThrottledLog } from '../lib/throttled-log';
import type { EventBus } from '../realtime/event-bus';
import type { IngestAdmission } from './ingest-admission';
import type { GatewayIdentity, IngestService } from './ingest-service';
import type { PayloadReader } from './payload-reader';
import { ShardedBatchers } from './micro-batcher';
import { mqttIntake } from './mqtt-intake';
import { PacketGuard, type PacketLimits } from './mqtt-packet-guard';
import { settleEachMessage } from './mqtt-settlement';

export interface EmbeddedBroker {
  port: number;
  /** The MQTT-over-TLS port, when a certificate was given. */
  tlsPort: number | null;
  /** Gateways connected and authenticated now (the metrics' gauge). */
  connections(): number;
  /** Whether the broker accepts connections (readiness). */
  listening(): boolean;
  close(): Promise<void>;
}

export interface BrokerTls {
  cert: Buffer;
  key: Buffer;
  host: string;
  port: number;
}

interface Logger {
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
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
 * has committed. The broker is for intake only: nobody may subscribe, and no message is retained.
 *
 * Settlement (ADR 12): a batch mixes gateways of different enterprises, yet each message is settled on its own.
 * Readings the service cannot use are rejected one by one and counted, and the message is acknowledged: a poison
 * message never comes back, nor costs its sender or anyone else the connection. Only when the database is
 * unavailable does a message stay unacknowledged: its client is disconnected and resends it after reconnecting.
 *
 * Every connection goes through a PacketGuard (oversize packets refused by their header, before authentication
 * too), and a client id is the gateway's own: the broker keys sessions by (gateway, client id), so another key
 * using the same id is another client and never takes the first one offline.
 *
 * Connection floods (issue 21, ADR 51): both listeners go through the process's connection guard (connections per
 * address and in all); from its TCP connection a client has `connectTimeoutMs` to finish the TLS handshake (mqtts)
 * and authenticate, however slowly it trickles bytes; once authenticated, a connection silent for `idleTimeoutMs`
 * (no message, not even a PINGREQ: a keep-alive of 0 or of hours) is closed.
 */
export async function startEmbeddedBroker(options: {
  ingest: IngestService;
  admission: IngestAdmission;
  payloads: PayloadReader;
  events: EventBus;
  host: string;
  port: number;
  limits: PacketLimits;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  connections: ConnectionGuard;
  tls?: BrokerTls | undefined;
  log: Logger;
}): Promise<EmbeddedBroker> {
  const { ingest, log } = options;
  const warnings = new ThrottledLog(log);
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

  const batchers = new ShardedBatchers(settleEachMessage(ingest, log));
  /** Set once the broker is closing: messages from then on are refused (not acknowledged; the gateway resends them). */
  let closing = false;
  const intake = mqttIntake(options.admission, options.payloads, () => ingest.nowMs());

  const broker = await Aedes.createBroker({
    connectTimeout: options.connectTimeoutMs,
    authenticate: (client, _username, password, done) => {
      ingest.authenticateKey(password ? password.toString('utf8') : '').then(
        (gateway) => {
          if (!gateway) return done(authError('Chave de gateway inválida ou revogada.', BAD_USERNAME_OR_PASSWORD), false);
          // The session's identity is (gateway, client id): two gateways may pick the same id without either one
          // replacing the other, and a gateway reconnecting with its own id replaces its own stale connection.
          client.id = `${gateway.id}/${client.id}`;
          if (client.conn instanceof PacketGuard) client.conn.authenticate();
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
      // Shutting down (X14): no new message is taken in; Aedes closes the connection without a PUBACK, and the
      // gateway sends it again to the next server.
      if (closing) return done(new Error('server shutting down'));
      packet.retain = false;
      // Paced and read (ADR 52), then stored with its micro-batch: the PUBACK follows the commit.
      let stored: Promise<void>;
      try {
        const part = intake(gateway, packet.topic, packet.payload);
        stored = part instanceof Promise ? part.then((p) => batchers.submit(p)) : batchers.submit(part);
      } catch (err) {
        stored = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      stored.then(
        () => {
          corkUntilNextTurn(client.conn);
          done(null);
        },
        (err: unknown) => {
          // Not acknowledged: Aedes closes the connection, and the client resends the message once reconnected.
          log.error({ err, clientId: client.id }, 'mqtt message not stored; the client will resend');
          done(err instanceof Error ? err : new Error(String(err)));
        },
      );
    },
  });
  broker.on('clientDisconnect', (client) => connected.delete(client));
  skipFanOutOfClientMessages(broker);

  // A revoked key stops working at once, also for gateways connected with it.
  const offRevoked = options.events.on('gateway.revoked', ({ gatewayId }) => {
    for (const client of connected) if (gatewayOf.get(client)?.id === gatewayId) client.close();
  });

  /**
   * One accepted TCP connection: TLS layered on it when `secureContext` is given (here rather than by tls.Server, so
   * that the connection guard sees the TCP connection before any handshake work, and so that the deadline runs from
   * the TCP connection: tls.Server's handshake timeout restarts with every byte, and a client trickling bytes would
   * never meet it), then handed to Aedes behind a PacketGuard.
   */
  const accept = (raw: Socket, secureContext?: SecureContext) => {
    if (raw.destroyed) return; // refused by the connection guard
    // The handshake, the CONNECT and the key's check, all within connectTimeoutMs of the TCP connection.
    const deadline = setTimeout(() => raw.destroy(), options.connectTimeoutMs);
    raw.once('close', () => clearTimeout(deadline));
    const serve = (socket: Socket) => {
      const guard = new PacketGuard(socket, options.limits, {
        onRefused: (reason, declaredBytes) => {
          warnings.warn(`packet:${reason}`, { reason, declaredBytes, remoteAddress: raw.remoteAddress }, 'mqtt packet refused; connection closed');
        },
        onAuthenticated: () => {
          clearTimeout(deadline);
          socket.setTimeout(options.idleTimeoutMs, () => socket.destroy());
        },
      });
      broker.handle(guard as unknown as Socket);
    };
    if (!secureContext) return serve(raw);
    const socket = new TLSSocket(raw, { isServer: true, secureContext });
    let secure = false;
    socket.once('secure', () => {
      secure = true;
      serve(socket);
    });
    // A handshake that fails (a plain-text client, a bad certificate) concerns that connection only.
    socket.on('error', (err) => {
      if (!secure) warnings.warn('tls-handshake', { err: err.message, remoteAddress: raw.remoteAddress }, 'mqtts handshake failed');
      socket.destroy();
    });
  };
  const server: Server = createServer((raw) => accept(raw));
  options.connections.watch(server, 'mqtt');
  const port = await listen(server, options.port, options.host, 'MQTT_PORT', () => broker.close());
  log.info({ port }, 'embedded MQTT broker listening');
  let tlsServer: Server | undefined;
  let tlsPort: number | null = null;
  if (options.tls) {
    const secureContext = createSecureContext({ cert: options.tls.cert, key: options.tls.key });
    tlsServer = createServer((raw) => accept(raw, secureContext));
    options.connections.watch(tlsServer, 'mqtts');
    tlsPort = await listen(tlsServer, options.tls.port, options.tls.host, 'MQTT_TLS_PORT', () => {
      server.close();
      broker.close();
    });
    log.info({ port: tlsPort }, 'embedded MQTT broker listening over TLS');
  }

  return {
    port,
    tlsPort,
    connections: () => connected.size,
    listening: () => server.listening && !broker.closed,
    /**
     * A clean shutdown (X14, ADR 67): no new connection and no new message; the messages already taken in are stored
     * and acknowledged (their PUBACKs written to connections still open); only then are the connections closed. A
     * message refused meanwhile was never acknowledged, so its gateway sends it again.
     */
    async close() {
      offRevoked();
      closing = true;
      const listenersClosed = Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        tlsServer ? new Promise<void>((resolve) => tlsServer.close(() => resolve())) : undefined,
      ]);
      await batchers.drain();
      // The PUBACKs of the last batches are written when the loop turns (corked per connection).
      await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await listenersClosed;
    },
  };
}

/** Aedes's publish as it runs: `client` is the sender, null or the callback itself for the broker's own messages. */
type PublishWithOrigin = (packet: unknown, client: Client | null | ((err?: Error) => void), done?: (err?: Error) => void) => void;

/**
 * Once `authorizePublish` has stored a message and Aedes has acknowledged it, Aedes publishes it to its subscribers:
 * a subscription lookup, its emitter, the 'publish' event. Here nobody may subscribe and nothing is retained, so a
 * client's message (its will too) has nowhere to go: it skips that fan-out, which took about 15 % of the server's CPU on the
 * one-reading-per-message load (ADR 42). The broker's own messages ($SYS) keep the usual path.
 */
function skipFanOutOfClientMessages(broker: Aedes): void {
  const target = broker as unknown as { publish: PublishWithOrigin };
  const publish = target.publish.bind(broker);
  target.publish = (packet, client, done) => {
    if (client !== null && typeof client === 'object') done?.();
    else publish(packet, client, done);
  };
}

async function listen(server: Server, port: number, host: string, setting: string, onFailure: () => void): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      onFailure();
      reject(err.code === 'EADDRINUSE' ? new Error(`MQTT port ${port} is in use: set ${setting} (0 for any free port) or MQTT_ENABLED=0`) : err);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
