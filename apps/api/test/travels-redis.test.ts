import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { SubscribeAck, TravelDevicesEvent, TravelLocationEvent } from '@sentinela/contract';
import { buildApp } from '../src/app';
import { createTestContext, testConfig, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { CODES, MACS, deviceId, travelId } from './travel-helpers';

/**
 * Several API processes (T6): with REDIS_URL the rooms are shared through Debian's redis-server, so readings
 * stored by one server reach the sockets connected to another. Two apps on one database stand for two processes.
 */
let redis: { url: string; stop(): Promise<void> };
let ctx: TestContext;
let second: FastifyInstance;
const sockets: Socket[] = [];

const address = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  // @ts-expect-error plain ESM helper shared with the scripts
  const { startRedis } = await import('../../../scripts/lib/redis.mjs');
  redis = await startRedis();
  ctx = await createTestContext({ demo: true, config: { redisUrl: redis.url } });
  second = (await buildApp({ config: testConfig({ redisUrl: redis.url }), db: ctx.db, clock: ctx.clock, logger: false })).app;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  await second.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await second?.close();
  await ctx?.close();
  await redis?.stop();
});

/** Every argument of the socket's next message of this event. */
const nextArgs = (socket: Socket, event: string) => new Promise<unknown[]>((resolve) => socket.once(event, (...args: unknown[]) => resolve(args)));

async function follow(app: FastifyInstance, token: string, id: string): Promise<Socket> {
  const socket = connectClient(address(app), { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  expect(SubscribeAck.parse(await socket.emitWithAck('subscribe', { travelId: id }))).toEqual({ ok: true, travelId: id });
  return socket;
}

describe('live updates across API processes', () => {
  it('reach the sockets of every process, from the process that stored the readings', async () => {
    const { token } = await ctx.login('joao.silva');
    const id = await travelId(ctx, CODES.auroraInProgress);
    const onSecond = await follow(second, token, id);
    const onFirst = await follow(ctx.app, token, id);
    const fromSecond = new Promise((resolve) => onSecond.once(`travel-logs:${id}`, resolve));
    const fromFirst = new Promise((resolve) => onFirst.once(`travel-logs:${id}`, resolve));

    // Stored by the first app (HTTP ingestion into ctx.app), newer than the demo's readings.
    ctx.clock.advance(10_000);
    expect((await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 7.25 }])).statusCode).toBe(200);
    for (const payload of await Promise.all([fromSecond, fromFirst])) {
      expect(TravelDevicesEvent.parse(payload)[0]!.temperature.value).toBe(7.25);
    }
  });

  it('carry the position beside the cards, and a travel change, to the other process; never to another enterprise', async () => {
    const joao = (await ctx.login('joao.silva')).token;
    const maria = (await ctx.login('maria.souza')).token;
    const aurora = await travelId(ctx, CODES.auroraInProgress);
    const vida = await travelId(ctx, CODES.vidaInProgress);
    const auroraWatcher = await follow(second, joao, aurora);
    const vidaWatcher = await follow(second, maria, vida);
    const vidaGot: string[] = [];
    vidaWatcher.onAny((event: string) => vidaGot.push(event));

    const message = nextArgs(auroraWatcher, `travel-logs:${aurora}`);
    ctx.clock.advance(10_000);
    const ts = at(ctx, -1);
    expect((await postReadings(ctx, [{ mac: MACS.truck1, ts, temperature: 5.75, lat: -22.5, lng: -44.1 }])).statusCode).toBe(200);
    const [cards, position] = await message;
    expect(TravelDevicesEvent.parse(cards)[0]!.temperature.value).toBe(5.75);
    expect(TravelLocationEvent.parse(position)).toEqual({ travelId: aurora, last_position: [-22.5, -44.1], mac: MACS.truck1, createdAt: ts });

    // A change made through the first process: the second one's feed sends its watchers the new cards.
    const renamed = nextArgs(auroraWatcher, `travel-logs:${aurora}`);
    const changed = nextArgs(auroraWatcher, `travel-changed:${aurora}`);
    const admin = (await ctx.login('aurora.adm')).token;
    const res = await ctx.request('PUT', '/api/travels/edit-travel-device', admin, { travel_id: aurora, device_id: await deviceId(ctx, MACS.truck1), name: 'Baú entre processos', config: {} });
    expect(res.statusCode).toBe(200);
    expect(TravelDevicesEvent.parse((await renamed)[0])[0]!.name).toBe('Baú entre processos');
    expect(await changed).toEqual([{ travelId: aurora }]);

    // Vida's watcher on the same process: its own travel's update arrives after Aurora's, and nothing of Aurora's.
    const vidaMessage = nextArgs(vidaWatcher, `travel-logs:${vida}`);
    ctx.clock.advance(10_000);
    expect((await postReadings(ctx, [{ mac: MACS.box2, ts: at(ctx, -1), temperature: 3.5 }])).statusCode).toBe(200);
    expect(TravelDevicesEvent.parse((await vidaMessage)[0])[0]!.temperature.value).toBe(3.5);
    expect(vidaGot).toEqual([`travel-logs:${vida}`]);
  });
});
