import { connect, type IPublishPacket, type MqttClient } from 'mqtt';
import type { IngestPart, IngestService } from './ingest-service';
import { MicroBatcher } from './micro-batcher';
import { partFromMessage, READINGS_TOPIC_FILTER } from './mqtt-messages';
import { settleEachMessage } from './mqtt-settlement';
import { RUUVI_TOPIC_FILTER } from './ruuvi-gateway';

export interface ExternalSubscriber {
  /** Resolves once the first subscription is acknowledged by the broker. */
  whenSubscribed(): Promise<void>;
  close(): Promise<void>;
}

interface Logger {
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

/**
 * Reads readings from an external broker (MQTT_URL) instead of running the embedded one. Gateways
 * authenticate with that broker; what arrives here is attributed to the gateway of MQTT_GATEWAY_KEY.
 *
 * Nothing acknowledged is lost: the session is persistent (clean: false, a fixed client id), so the broker
 * keeps our subscription and queues messages while we are away, and a message is acknowledged only after
 * its transaction committed. A message delivered again after a reconnect is stored once, since readings
 * are idempotent on (device, time). mqtt.js hands messages over one at a time and acknowledges them in
 * order, so each message is its own transaction here; gateways behind an external broker should publish
 * batches (`{"readings": [...]}`).
 */
export async function startExternalSubscriber(options: {
  url: string;
  gatewayKey: string;
  clientId: string;
  ingest: IngestService;
  log: Logger;
  reconnectPeriodMs?: number;
}): Promise<ExternalSubscriber> {
  const { ingest, log } = options;
  const gateway = await ingest.authenticateKey(options.gatewayKey);
  if (!gateway) throw new Error('MQTT_GATEWAY_KEY is not the key of an active gateway');

  const batcher = new MicroBatcher<IngestPart>(settleEachMessage(ingest, log), { maxItems: 500, maxWaitMs: 0, maxConcurrent: 1 });

  const client: MqttClient = connect(options.url, {
    clientId: options.clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    connectTimeout: 10_000,
    resubscribe: true,
  });

  let subscribed!: () => void;
  const firstSubscription = new Promise<void>((resolve) => (subscribed = resolve));
  client.on('connect', (connack) => {
    log.info({ url: options.url, sessionPresent: connack.sessionPresent }, 'connected to the MQTT broker');
    client.subscribe(READINGS_TOPIC_FILTER, { qos: 1 }, (err) => {
      if (err) log.error({ err }, 'MQTT subscription refused');
      else subscribed();
    });
    // Ruuvi Gateways' own topics (ADR 33), a subscription of its own so that the readings one stays exactly as it was.
    client.subscribe(RUUVI_TOPIC_FILTER, { qos: 1 }, (err) => {
      if (err) log.error({ err }, 'MQTT subscription to Ruuvi Gateway topics refused');
    });
  });
  client.on('offline', () => log.warn({ url: options.url }, 'MQTT broker unreachable; reconnecting'));
  client.on('error', (err) => log.error({ err }, 'MQTT client error'));

  // The PUBACK is sent when this callback is called: after the commit. On a failed store we drop the
  // connection without acknowledging, and the broker delivers the message again after the reconnect.
  client.handleMessage = (packet: IPublishPacket, callback) => {
    const payload = typeof packet.payload === 'string' ? packet.payload : Buffer.from(packet.payload);
    const part = partFromMessage(gateway, packet.topic, payload, ingest.nowMs());
    batcher.submit(part, Math.max(1, part.readings.length)).then(
      () => callback(),
      (err: unknown) => {
        log.error({ err, topic: packet.topic }, 'MQTT message not stored; reconnecting to have it delivered again');
        client.stream?.destroy();
      },
    );
  };

  return {
    whenSubscribed: () => firstSubscription,
    async close() {
      await batcher.drain();
      await client.endAsync();
    },
  };
}
