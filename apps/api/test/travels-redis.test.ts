import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { SubscribeAck, TravelDevicesEvent } from '@sentinela/contract';
import { buildApp } from '../src/app';
import { createTestContext, testConfig, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { CODES, MACS, travelId } from './travel-helpers';

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
});
