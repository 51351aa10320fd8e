import { afterAll, describe, expect, it } from 'vitest';
import { connect, type MqttClient } from 'mqtt';
import { io as connectSocket } from 'socket.io-client';
import { openDatabase } from '../src/db/database';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { serverDatabase, startServerProcess } from './server-process';

/**
 * X14 Operations, clean shutdown (ADR 67): the real server process, a gateway posting over HTTP and another publishing
 * over MQTT (QoS 1) while SIGTERM arrives. The process exits 0; every reading acknowledged before or during the
 * shutdown (an HTTP 200, a PUBACK) is in the database afterwards; live sockets are closed so that clients reconnect.
 */
const HTTP_DEVICE = 'C3:00:00:00:01:02';
const MQTT_DEVICE = 'C3:00:00:00:01:04';
const disposals: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const dispose of disposals) await dispose();
});

describe('X14 clean shutdown with gateways sending', () => {
  it('stores every acknowledged reading, closes sockets with a reconnect hint and exits 0', async () => {
    const database = await serverDatabase();
    disposals.push(database.dispose);
    const server = await startServerProcess({ ...database.env, SHUTDOWN_TIMEOUT_SECONDS: '60' });
    disposals.push(async () => void server.child.kill('SIGKILL'));

    // Readings from twelve hours back, one second apart: unique per device, all within the accepted window (at most 43,000
    // of each; at an odd millisecond, so that no demo reading can stand for one of them).
    const start = Math.floor(Date.now() / 1000) * 1000 - 12 * 3_600_000 + 437;
    const ackedHttp = new Set<number>();
    const ackedMqtt = new Set<number>();
    let stop = false;

    // The HTTP gateway: batches of 20 readings, one after the other, until the server stops answering.
    let httpIndex = 0;
    let httpAnswers = 0;
    const httpGateway = (async () => {
      while (!stop) {
        const batch = Array.from({ length: 20 }, () => httpIndex++);
        try {
          const res = await fetch(`${server.url}/api/ingest/readings`, {
            method: 'POST',
            headers: { authorization: `ApiKey ${DEMO_GATEWAY_KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ readings: batch.map((i) => ({ mac: HTTP_DEVICE, ts: new Date(start + i * 1000).toISOString(), temperature: 4 + (i % 10) / 10 })) }),
          });
          if (res.status === 200) {
            const body = (await res.json()) as { accepted: number; duplicates: number; rejected: unknown[] };
            expect(body.rejected).toEqual([]);
            for (const i of batch) ackedHttp.add(i);
            httpAnswers++;
          } else await res.arrayBuffer();
        } catch {
          // Refused: the server is gone. Not acknowledged, so nothing is owed.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    })();

    // The MQTT gateway: one reading per message, QoS 1, many in flight; a PUBACK is the acknowledgement.
    const mqtt: MqttClient = connect(`mqtt://127.0.0.1:${server.mqttPort}`, { username: 'gateway', password: DEMO_GATEWAY_KEY, clientId: 'shutdown-test', reconnectPeriod: 0, clean: true });
    await new Promise<void>((resolve, reject) => {
      mqtt.once('connect', () => resolve());
      mqtt.once('error', reject);
    });
    mqtt.on('error', () => {});
    let mqttIndex = 0;
    const mqttGateway = (async () => {
      while (!stop && mqtt.connected && mqttIndex < 40_000) {
        const i = mqttIndex++;
        mqtt.publish(`devices/${MQTT_DEVICE}/readings`, JSON.stringify({ ts: new Date(start + i * 1000).toISOString(), temperature: 5 }), { qos: 1 }, (err) => {
          if (!err) ackedMqtt.add(i);
        });
        if (i % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    // A live-channel client: it must be told to reconnect, not be sent away.
    const socket = connectSocket(server.url, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const socketClosed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

    // Load running: some of each acknowledged before the signal.
    const deadline = Date.now() + 60_000;
    while ((ackedHttp.size < 100 || ackedMqtt.size < 100) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ackedHttp.size).toBeGreaterThanOrEqual(100);
    expect(ackedMqtt.size).toBeGreaterThanOrEqual(100);
    const answersAtSignal = httpAnswers;

    server.child.kill('SIGTERM');
    const code = await server.exited;
    stop = true;
    await Promise.all([httpGateway, mqttGateway]);
    mqtt.end(true);
    socket.close();

    expect(code, server.output().slice(-3000)).toBe(0);
    expect(server.output()).toContain('shut down cleanly');
    expect(await socketClosed).toBe('transport close');
    expect(httpAnswers).toBeGreaterThanOrEqual(answersAtSignal);

    // Every acknowledged reading is stored.
    const reopened = database.databaseUrl ? await openDatabase({ databaseUrl: database.databaseUrl, dataDir: '' }) : await openDatabase({ dataDir: database.dataDir });
    try {
      const storedOf = async (mac: string) => {
        const rows = await reopened.db
          .selectFrom('readings')
          .innerJoin('devices', 'devices.num', 'readings.device_num')
          .select('readings.ts')
          .where('devices.mac', '=', mac)
          .where('readings.ts', '>=', new Date(start))
          .execute();
        return new Set(rows.map((r) => (r.ts.getTime() - start) / 1000));
      };
      const storedHttp = await storedOf(HTTP_DEVICE);
      const storedMqtt = await storedOf(MQTT_DEVICE);
      const missingHttp = [...ackedHttp].filter((i) => !storedHttp.has(i));
      const missingMqtt = [...ackedMqtt].filter((i) => !storedMqtt.has(i));
      console.log(`[shutdown] HTTP acknowledged ${ackedHttp.size}, stored ${storedHttp.size}; MQTT acknowledged ${ackedMqtt.size} of ${mqttIndex} sent, stored ${storedMqtt.size}`);
      expect(missingHttp).toEqual([]);
      expect(missingMqtt).toEqual([]);
    } finally {
      await reopened.close();
    }
  }, 300_000);
});
