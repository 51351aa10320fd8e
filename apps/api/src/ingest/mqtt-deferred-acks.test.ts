import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { DeferredAcks } from './mqtt-deferred-acks';

/** A stand-in for mqtt.js's client: records what it writes. */
function fakeClient() {
  const written: { cmd: string; messageId?: number }[] = [];
  const client = {
    _sendPacket(packet: { cmd: string; messageId?: number }, cb?: () => void) {
      written.push(packet);
      cb?.();
    },
  };
  return { client: client as unknown as MqttClient, written, send: (packet: { cmd: string; messageId?: number }, cb?: () => void) => client._sendPacket(packet, cb) };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DeferredAcks', () => {
  it('lets mqtt.js read on at once and writes each PUBACK only once its message is stored, in order', async () => {
    const { client, written, send } = fakeClient();
    const acks = new DeferredAcks(client, 100);
    const stored = [deferred(), deferred(), deferred()];
    let readOn = 0;
    stored.forEach((s, i) => {
      acks.hold(i + 1, s.promise);
      send({ cmd: 'puback', messageId: i + 1 }, () => readOn++);
    });
    expect(readOn).toBe(3);
    await tick();
    expect(written).toEqual([]);

    stored[0]!.resolve();
    await tick();
    expect(written).toEqual([{ cmd: 'puback', messageId: 1 }]);
    stored[1]!.resolve();
    stored[2]!.resolve();
    await tick();
    expect(written.map((p) => p.messageId)).toEqual([1, 2, 3]);
  });

  it('never acknowledges a message whose batch failed, and passes other packets through untouched', async () => {
    const { client, written, send } = fakeClient();
    const acks = new DeferredAcks(client, 100);
    const failed = deferred();
    acks.hold(7, failed.promise);
    send({ cmd: 'puback', messageId: 7 });
    failed.reject(new Error('database down'));
    send({ cmd: 'pingreq' });
    send({ cmd: 'puback', messageId: 8 }); // not held: QoS 1 handled elsewhere goes out as it comes
    await tick();
    expect(written).toEqual([{ cmd: 'pingreq' }, { cmd: 'puback', messageId: 8 }]);
  });

  it('stops reading the connection while more than maxInFlight messages are held, and reads on as they settle', async () => {
    const { client } = fakeClient();
    const acks = new DeferredAcks(client, 2);
    const stored = [deferred(), deferred(), deferred(), deferred()];
    const readOn: number[] = [];
    // As mqtt.js does: the next message is read only once the previous one's handler called back.
    let next = 1;
    const readMessage = () => {
      const i = next++;
      acks.hold(i, stored[i - 1]!.promise);
      acks.whenRoom(() => {
        readOn.push(i);
        if (next <= stored.length) readMessage();
      });
    };
    readMessage();
    expect(readOn).toEqual([1, 2]);
    stored[0]!.resolve();
    await tick();
    expect(readOn).toEqual([1, 2, 3]);
    stored[1]!.reject(new Error('database down'));
    await tick();
    expect(readOn).toEqual([1, 2, 3, 4]);
  });
});
