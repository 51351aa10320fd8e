import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { SubscribeAck } from '@sentinela/contract';
import { REALTIME_MESSAGES } from '../src/realtime/travel-rooms';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { CODES, MACS, deviceId, travelId, userId } from './travel-helpers';

/**
 * The live channel's limits (issue 9, items 4 and 5): a socket's message budget, free re-joins, sockets per
 * address, the message size cap, and rooms left when access ends. Real Socket.IO clients against the listening app.
 */
const SOCKETS_PER_ADDRESS = 6;
let ctx: TestContext;
let url: string;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { socketSubscribesPerMinute: 60, socketsPerAddress: SOCKETS_PER_ADDRESS, socketMaxMessageBytes: 2048 } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  for (const username of ['aurora.adm', 'joao.silva', 'maria.souza', 'vida.adm']) tokens[username] = (await ctx.login(username)).token;
  for (const [name, code] of Object.entries(CODES)) ids[name] = await travelId(ctx, code);
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const socket of sockets.splice(0)) socket.disconnect();
  // The server counts a socket per address until its close arrives.
  await vi.waitFor(() => expect(ctx.app.io.engine.clientsCount).toBe(0));
  ctx.clock.advance(10_000);
});
afterAll(() => ctx.close());

function open(token?: string): Socket {
  const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
}

async function connected(token?: string) {
  const socket = open(token);
  const received: string[] = [];
  socket.onAny((event: string) => received.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return {
    socket,
    received,
    subscribe: async (payload: unknown) => SubscribeAck.parse(await socket.emitWithAck('subscribe', payload)),
    next: (event: string) => new Promise((resolve) => socket.once(event, resolve)),
  };
}

const devicesTopic = (id: string) => `travel-logs:${id}`;
const closed = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve));

describe('a socket that floods subscriptions', () => {
  it('is refused beyond its budget and cut off, without stalling anyone else', async () => {
    const flooder = await connected(tokens['joao.silva']);
    const watchable = vi.spyOn(ctx.services.travels, 'watchable');
    const authenticate = vi.spyOn(ctx.services.sessions, 'authenticate');
    const gone = closed(flooder.socket);
    const acks: unknown[] = [];
    // 3,000 subscriptions to travels that do not exist: before the budget, each one was a session renewal and a query.
    for (let i = 0; i < 3000; i++) flooder.socket.emit('subscribe', { travelId: randomUUID() }, (ack: unknown) => acks.push(ack));

    // The server still answers others meanwhile (how fast is the realtime bench's business, not a test's).
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);

    expect(await gone).toBe('io server disconnect');
    // One minute's budget of database work, at most; the rest was refused or dropped unread.
    expect(watchable.mock.calls.length).toBeLessThanOrEqual(60);
    expect(authenticate.mock.calls.length).toBeLessThanOrEqual(60);
    expect(acks).toContainEqual({ ok: false, error: REALTIME_MESSAGES.tooManyMessages });

    // Another user's socket still subscribes at once.
    const other = await connected(tokens['maria.souza']);
    expect(await other.subscribe({ travelId: ids.vidaInProgress })).toEqual({ ok: true, travelId: ids.vidaInProgress });
  });

  it('refuses messages beyond the budget but keeps a socket that stops there', async () => {
    const client = await connected(tokens['aurora.adm']);
    const answers: unknown[] = [];
    for (let i = 0; i < 70; i++) answers.push(await client.socket.emitWithAck('unsubscribe', { travelId: ids.auroraInProgress }));
    expect(answers.slice(0, 60).every((a) => (a as { ok: boolean }).ok)).toBe(true);
    expect(answers.slice(60)).toEqual(Array.from({ length: 10 }, () => ({ ok: false, error: REALTIME_MESSAGES.tooManyMessages })));
    expect(client.socket.connected).toBe(true);
  });
});

describe('re-joining a room the socket is in', () => {
  it('answers at once, without touching the database', async () => {
    const joao = await connected(tokens['joao.silva']);
    expect(await joao.subscribe({ travelId: ids.auroraInProgress })).toEqual({ ok: true, travelId: ids.auroraInProgress });
    const watchable = vi.spyOn(ctx.services.travels, 'watchable');
    const authenticate = vi.spyOn(ctx.services.sessions, 'authenticate');
    for (let i = 0; i < 5; i++) expect(await joao.subscribe({ travelId: ids.auroraInProgress })).toEqual({ ok: true, travelId: ids.auroraInProgress });
    expect(watchable).not.toHaveBeenCalled();
    expect(authenticate).not.toHaveBeenCalled();
  });
});

describe('sockets per address', () => {
  it('refuses a handshake over the cap and accepts again once one closed', async () => {
    const open6 = await Promise.all(Array.from({ length: SOCKETS_PER_ADDRESS }, () => connected()));
    const refused = open();
    const error = await new Promise<Error>((resolve, reject) => {
      refused.once('connect', () => reject(new Error('connected over the cap')));
      refused.once('connect_error', resolve);
    });
    expect(error.message).toBeTruthy();
    open6[0]!.socket.disconnect();
    await vi.waitFor(() => expect(ctx.app.io.engine.clientsCount).toBe(SOCKETS_PER_ADDRESS - 1));
    const again = await connected();
    expect(again.socket.connected).toBe(true);
  });
});

describe('a message larger than the cap', () => {
  it('closes that socket only', async () => {
    const other = await connected(tokens['maria.souza']);
    const big = await connected();
    const gone = closed(big.socket);
    big.socket.emit('subscribe', { code: 'X'.repeat(4096) });
    expect(await gone).toBe('transport close');
    expect(await other.subscribe({ travelId: ids.vidaInProgress })).toMatchObject({ ok: true });
  });
});

describe('access that ends', () => {
  it('takes a user out of a travel’s room when the travel no longer involves them', async () => {
    const travel = ids.auroraInProgress!;
    const joao = await connected(tokens['joao.silva']);
    const admin = await connected(tokens['aurora.adm']);
    expect(await joao.subscribe({ travelId: travel })).toMatchObject({ ok: true });
    await admin.subscribe({ travelId: travel });

    // João is no longer linked to the truck's device (device linking announces it) but is still responsible: he stays.
    const joaoId = await userId(ctx, 'joao.silva');
    await ctx.db.deleteFrom('device_users').where('user_id', '=', joaoId).where('device_id', '=', await deviceId(ctx, MACS.truck1)).execute();
    ctx.services.events.emit('access.changed', { userId: joaoId });
    let joaoGot = joao.next(devicesTopic(travel));
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -5), temperature: 4.4 }]);
    await joaoGot;

    // The travel changes hands: João leaves the room, the admin still follows it.
    const res = await ctx.request('PUT', `/api/travels/${travel}`, tokens['aurora.adm'], { responsible_user_id: await userId(ctx, 'aurora.adm') });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(ctx.app.io.of('/').adapter.rooms.get(`travel:${travel}`)?.has(joao.socket.id!)).not.toBe(true));
    joao.received.length = 0;
    const adminGot = admin.next(devicesTopic(travel));
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -3), temperature: 4.8 }]);
    await adminGot;
    // On the same connection, after the admin's copy: had João still been in the room, it would be here.
    joaoGot = new Promise((resolve) => setTimeout(resolve, 200));
    await joaoGot;
    expect(joao.received).not.toContain(devicesTopic(travel));
    expect(await joao.subscribe({ travelId: travel })).toEqual({ ok: false, error: 'Viagem não encontrada.' });
  });

  it('takes a user out when their links change (access.changed)', async () => {
    const travel = ids.vidaInProgress!;
    const maria = await connected(tokens['maria.souza']);
    const admin = await connected(tokens['vida.adm']);
    expect(await maria.subscribe({ travelId: travel })).toMatchObject({ ok: true });
    await admin.subscribe({ travelId: travel });

    // Maria is neither responsible nor linked any more; the device unlink announces her access changed.
    const mariaId = await userId(ctx, 'maria.souza');
    await ctx.db.updateTable('travels').set({ responsible_user_id: await userId(ctx, 'vida.adm') }).where('id', '=', travel).execute();
    await ctx.db.deleteFrom('device_users').where('user_id', '=', mariaId).execute();
    ctx.services.events.emit('access.changed', { userId: mariaId });
    await vi.waitFor(() => expect(ctx.app.io.of('/').adapter.rooms.get(`travel:${travel}`)?.has(maria.socket.id!)).not.toBe(true));

    const adminGot = admin.next(devicesTopic(travel));
    await postReadings(ctx, [{ mac: MACS.box2, ts: at(ctx, -2), temperature: 5.2 }]);
    await adminGot;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(maria.received).not.toContain(devicesTopic(travel));
    expect(maria.socket.connected).toBe(true);
  });

  it('takes a visitor out when the link its code followed is revoked (a finished travel’s link works until it expires, ADR 36)', async () => {
    const travel = ids.auroraNotStarted!;
    const visitor = await connected();
    expect(await visitor.subscribe({ code: CODES.auroraNotStarted })).toEqual({ ok: true, travelId: travel });
    const res = await ctx.request('POST', `/api/travels/${travel}/tracking-link/revoke`, tokens['aurora.adm']);
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(ctx.app.io.of('/').adapter.rooms.get(`travel:${travel}`)?.has(visitor.socket.id!)).not.toBe(true));
  });
});
