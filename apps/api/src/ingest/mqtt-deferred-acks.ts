import type { MqttClient } from 'mqtt';

/** What mqtt.js (5.16) calls to write a packet; private, hence this module's narrow use of it. */
type SendPacket = (packet: { cmd: string; messageId?: number }, cb?: (err?: Error) => void, ...rest: unknown[]) => void;

/**
 * Many QoS 1 messages of one subscriber connection in flight at once, each acknowledged only after it is stored
 * (ADR 46).
 *
 * mqtt.js reads a connection's next packet only once the previous QoS 1 message's PUBACK was written, and writes that
 * PUBACK when `handleMessage` calls back. Called back after the commit, that is one message in flight per connection:
 * behind an external broker, a transaction per message (3,283 readings/s for two servers, docs/performance.md). Here
 * `handleMessage` holds the message's PUBACK on a promise (`hold`) and calls back at once (`whenRoom`): mqtt.js reads
 * the next message while the first is being stored, and the PUBACK it then writes is held until the message's
 * micro-batch committed. Messages settle in the order they arrived (one batcher, one flush at a time), so the PUBACKs
 * still go out in the order of the PUBLISHes (MQTT 3.1.1, 4.6). A message whose batch failed is never acknowledged:
 * the caller drops the connection and the broker delivers it again (the readings are idempotent on device and time).
 *
 * Once more than `maxInFlight` messages are held, `whenRoom` waits and mqtt.js stops reading the connection until one
 * settles (the broker's own in-flight limit, e.g. Mosquitto's max_inflight_messages, usually binds first).
 */
export class DeferredAcks {
  private readonly held = new Map<number, Promise<void>>();
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    client: MqttClient,
    private readonly maxInFlight: number,
  ) {
    const target = client as unknown as { _sendPacket: SendPacket };
    const send = target._sendPacket.bind(client) as SendPacket;
    target._sendPacket = (packet, cb, ...rest) => {
      const stored = packet.cmd === 'puback' && packet.messageId !== undefined ? this.held.get(packet.messageId) : undefined;
      if (!stored) return send(packet, cb, ...rest);
      this.held.delete(packet.messageId!);
      // mqtt.js goes on to the connection's next packet now; the PUBACK itself waits for the commit.
      cb?.();
      stored.then(
        () => send(packet, undefined, ...rest),
        () => {
          /* not stored: no PUBACK, the broker delivers the message again */
        },
      );
    };
  }

  /** The PUBACK of `messageId` waits for `stored`. Call before `handleMessage` calls back. */
  hold(messageId: number, stored: Promise<void>): void {
    this.held.set(messageId, stored);
    this.inFlight++;
    const settled = () => {
      this.inFlight--;
      while (this.waiting.length > 0 && this.inFlight <= this.maxInFlight) this.waiting.shift()!();
    };
    stored.then(settled, settled);
  }

  /** Calls `next` (mqtt.js's callback, which lets it read the next packet) once fewer than maxInFlight are held. */
  whenRoom(next: () => void): void {
    if (this.inFlight <= this.maxInFlight) next();
    else this.waiting.push(next);
  }
}
