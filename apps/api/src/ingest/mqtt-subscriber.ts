import { connect, type IPublishPacket, type MqttClient } from 'mqtt';
import { readingsIn, type GatewayIdentity, type IngestPart, type IngestService } from './ingest-service';
import { MicroBatcher } from './micro-batcher';
import { DeferredAcks } from './mqtt-deferred-acks';
import { readingsFromMessage, READINGS_TOPIC_FILTER } from './mqtt-messages';
import { settleEachMessage } from './mqtt-settlement';
import { RUUVI_TOPIC_FILTER } from './ruuvi-gateway';

export interface ExternalSubscriber {
  /** Resolves once the readings subscription of every connection was first acknowledged by the broker. */
  whenSubscribed(): Promise<void>;
  /** Whether every session is connected to the broker now (readiness). */
  connected(): boolean;
  close(): Promise<void>;
}

interface Logger {
  error(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

type SubscriberOptions = Parameters<typeof startExternalSubscriber>[0];

/**
 * Messages of one connection read before the first of them is stored (their PUBACKs held until the commit). Brokers
 * limit it first (Mosquitto's max_inflight_messages, 20 by default; EMQX's max_inflight, 32).
 */
const MAX_MESSAGES_IN_FLIGHT = 1000;

/** A topic filter, as a member of the share group when there is one. */
export function sharedFilter(filter: string, group: string | undefined): string {
  return group ? `$share/${group}/${filter}` : filter;
}

/**
 * One persistent session with the broker. `onFirstSubscription` is called once, when its readings subscription is
 * first acknowledged.
 */
function subscriberConnection(
  options: SubscriberOptions,
  clientId: string,
  group: string | undefined,
  batcher: MicroBatcher<IngestPart>,
  gateway: GatewayIdentity,
  onFirstSubscription: () => void,
  closing: () => boolean,
): MqttClient {
  const { ingest, log } = options;
  const client: MqttClient = connect(options.url, {
    clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    connectTimeout: 10_000,
    resubscribe: true,
  });

  let first = true;
  client.on('connect', (connack) => {
    log.info({ url: options.url, clientId, sessionPresent: connack.sessionPresent }, 'connected to the MQTT broker');
    client.subscribe(sharedFilter(READINGS_TOPIC_FILTER, group), { qos: 1 }, (err) => {
      if (err) log.error({ err }, 'MQTT subscription refused');
      else if (first) {
        first = false;
        onFirstSubscription();
      }
    });
    // Ruuvi Gateways' own topics (ADR 33), a subscription of its own so that the readings one stays exactly as it was.
    client.subscribe(sharedFilter(RUUVI_TOPIC_FILTER, group), { qos: 1 }, (err) => {
      if (err) log.error({ err }, 'MQTT subscription to Ruuvi Gateway topics refused');
    });
  });
  client.on('offline', () => log.warn({ url: options.url, clientId }, 'MQTT broker unreachable; reconnecting'));
  client.on('error', (err) => log.error({ err }, 'MQTT client error'));

  // Each message's PUBACK waits for its micro-batch's commit while the connection's next messages are read (ADR 46):
  // many messages of one connection share a transaction. On a failed store we drop the connection without
  // acknowledging, and the broker delivers the message again after the reconnect.
  const acks = new DeferredAcks(client, MAX_MESSAGES_IN_FLIGHT);
  client.handleMessage = (packet: IPublishPacket, callback) => {
    // Shutting down (X14): the message is left unacknowledged and unread further (no callback); the broker keeps it in
    // the persistent session and delivers it again.
    if (closing()) return;
    const payload = typeof packet.payload === 'string' ? packet.payload : Buffer.from(packet.payload);
    const part: IngestPart = { gateway, ...readingsFromMessage(packet.topic, payload, ingest.nowMs()) };
    const stored = batcher.submit(part, Math.max(1, readingsIn(part)));
    stored.catch((err: unknown) => {
      log.error({ err, topic: packet.topic }, 'MQTT message not stored; reconnecting to have it delivered again');
      client.stream?.destroy();
    });
    if (packet.qos === 1 && packet.messageId !== undefined) acks.hold(packet.messageId, stored);
    // QoS 0 has no PUBACK to hold; it keeps one message at a time, as before.
    if (packet.qos === 1) acks.whenRoom(() => callback());
    else stored.then(() => callback(), () => {});
  };
  return client;
}

/**
 * Reads readings from an external broker (MQTT_URL) instead of running the embedded one. Gateways
 * authenticate with that broker; what arrives here is attributed to the gateway of MQTT_GATEWAY_KEY.
 *
 * Nothing acknowledged is lost: the session is persistent (clean: false, a fixed client id), so the broker
 * keeps our subscription and queues messages while we are away, and a message is acknowledged only after
 * its transaction committed. A message delivered again after a reconnect is stored once, since readings
 * are idempotent on (device, time). Each connection reads its next messages while the earlier ones are being stored
 * (their PUBACKs held until the commit, in order: DeferredAcks), so the messages the broker lets a session have in
 * flight share one micro-batch's transaction; with a share group, `connections` sessions add theirs to the same
 * batches. Gateways behind an external broker should still publish batches (`{"readings": [...]}`) where they can.
 */
export async function startExternalSubscriber(options: {
  url: string;
  gatewayKey: string;
  clientId: string;
  ingest: IngestService;
  log: Logger;
  reconnectPeriodMs?: number;
  /**
   * A shared-subscription group ($share/{group}/…, MQTT 5 and, in Mosquitto, EMQX, VerneMQ and HiveMQ, 3.1.1 too):
   * the broker hands each message to one member, so several servers (and several connections of one server) split
   * the messages instead of each storing all of them.
   */
  shareGroup?: string;
  /** With a share group: sessions this server subscribes with (client ids `{clientId}-1`…), messages in flight at once. */
  connections?: number;
}): Promise<ExternalSubscriber> {
  const { ingest, log } = options;
  const gateway = await ingest.authenticateKey(options.gatewayKey);
  if (!gateway) throw new Error('MQTT_GATEWAY_KEY is not the key of an active gateway');

  const batcher = new MicroBatcher<IngestPart>(settleEachMessage(ingest, log), { maxItems: 4000, maxWaitMs: 0, maxConcurrent: 1 });
  let closing = false;

  const group = options.shareGroup;
  const count = group ? Math.max(1, options.connections ?? 1) : 1;
  let subscribed!: () => void;
  const firstSubscription = new Promise<void>((resolve) => (subscribed = resolve));
  let subscribedClients = 0;
  const clients: MqttClient[] = [];
  for (let i = 0; i < count; i++) {
    const clientId = count === 1 ? options.clientId : `${options.clientId}-${i + 1}`;
    clients.push(subscriberConnection(options, clientId, group, batcher, gateway, () => {
      if (++subscribedClients === count) subscribed();
    }, () => closing));
  }

  return {
    whenSubscribed: () => firstSubscription,
    connected: () => clients.every((client) => client.connected),
    /** Stops taking messages, stores those taken (their PUBACKs sent once committed), then disconnects. */
    async close() {
      closing = true;
      await batcher.drain();
      await new Promise<void>((resolve) => setImmediate(resolve));
      await Promise.all(clients.map((client) => client.endAsync()));
    },
  };
}
