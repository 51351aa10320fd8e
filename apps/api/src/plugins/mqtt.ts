import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startEmbeddedBroker, type EmbeddedBroker } from '../ingest/mqtt-broker';
import { startExternalSubscriber, type ExternalSubscriber } from '../ingest/mqtt-subscriber';
import type { AppServices } from '../services';

/** MQTT intake as the app sees it: which kind, and the embedded broker's port once it listens. */
export interface MqttIngest {
  kind: 'embedded' | 'external';
  port: number | null;
  /** The embedded broker's MQTT-over-TLS port, when MQTT_TLS_CERT/MQTT_TLS_KEY are set. */
  tlsPort: number | null;
  /** Embedded: resolves when listening. External: when the first subscription is acknowledged. */
  ready(): Promise<void>;
  /** Now: the embedded broker listens, or every external session is connected (GET /api/ready). */
  up(): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** null when MQTT_ENABLED=0. */
    mqtt: MqttIngest | null;
  }
}

/**
 * MQTT ingestion (D5): the embedded broker, or with MQTT_URL a subscriber to an external one. Started when
 * the app is ready (building the app never opens a port) and closed with it, after its last batch is stored.
 */
async function mqtt(app: FastifyInstance, { services }: { services: AppServices }) {
  const config = services.config;
  if (!config.mqttEnabled) {
    app.decorate('mqtt', null);
    return;
  }
  let started!: () => void;
  let failed!: (err: unknown) => void;
  const listening = new Promise<void>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  listening.catch(() => {}); // reported through onReady; ready() callers see it too
  let broker: EmbeddedBroker | undefined;
  let subscriber: ExternalSubscriber | undefined;
  const state: MqttIngest = {
    kind: config.mqttUrl ? 'external' : 'embedded',
    port: null,
    tlsPort: null,
    ready: () => (subscriber ? listening.then(() => subscriber!.whenSubscribed()) : listening),
    up: () => (broker ? broker.listening() : subscriber ? subscriber.connected() : false),
  };
  app.decorate('mqtt', state);

  app.addHook('onReady', async () => {
    try {
      if (config.mqttUrl) {
        subscriber = await startExternalSubscriber({
          url: config.mqttUrl,
          gatewayKey: config.mqttGatewayKey ?? '',
          clientId: config.mqttClientId,
          shareGroup: config.mqttShareGroup,
          connections: config.mqttSubscriberConnections,
          ingest: services.ingest,
          log: app.log,
        });
      } else {
        const tls = config.mqttTls;
        broker = await startEmbeddedBroker({
          ingest: services.ingest,
          admission: services.ingestAdmission,
          payloads: services.payloads,
          events: services.events,
          host: config.mqttHost,
          port: config.mqttPort,
          limits: { maxPacketBytes: config.mqttMaxPacketBytes, maxConnectBytes: config.mqttConnectMaxBytes },
          connectTimeoutMs: config.mqttConnectTimeoutSeconds * 1000,
          idleTimeoutMs: config.mqttIdleTimeoutSeconds * 1000,
          connections: app.connections,
          tls: tls && { cert: await readFile(tls.certPath), key: await readFile(tls.keyPath), host: tls.host, port: tls.port },
          log: app.log,
        });
        state.port = broker.port;
        const running = broker;
        services.metrics.setMqttConnectionSource(() => running.connections());
        state.tlsPort = broker.tlsPort;
      }
      started();
    } catch (err) {
      failed(err);
      throw err;
    }
  });

  app.addHook('onClose', async () => {
    await broker?.close();
    await subscriber?.close();
  });
}

export default fp(mqtt, { name: 'mqtt', dependencies: ['connections'] });
