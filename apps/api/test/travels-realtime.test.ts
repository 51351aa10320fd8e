import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { MSG, SubscribeAck, TravelChangedEvent, TravelDevicesEvent, TravelLocationEvent } from '@sentinela/contract';
import { sha256 } from '../src/lib/tokens';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { CODES, MACS, deviceId, travelId } from './travel-helpers';

/**
 * Live updates (T6) with a real Socket.IO client against the listening app: who may join a travel's room,
 * and what arrives after readings are ingested through HTTP.
 */
let ctx: TestContext;
let url: string;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  for (const username of ['aurora.adm', 'joao.silva', 'maria.souza', 'admin']) tokens[username] = (await ctx.login(username)).token;
  for (const [name, code] of Object.entries(CODES)) ids[name] = await travelId(ctx, code);
});
// Each test's readings are newer than everything stored before (the demo's included): only those move a card.
beforeEach(() => ctx.clock.advance(10_000));
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => ctx.close());

interface Client {
  socket: Socket;
  /** Every event received, in order. */
  received: { event: string; payload: unknown }[];
  subscribe(payload: unknown): Promise<unknown>;
  next(event: string): Promise<unknown>;
  /** Every argument of the next message of this event. */
  nextArgs(event: string): Promise<unknown[]>;
}

function open(token?: string): Socket {
  const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
}

async function client(token?: string): Promise<Client> {
  const socket = open(token);
  const received: Client['received'] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return {
    socket,
    received,
    subscribe: async (payload) => SubscribeAck.parse(await socket.emitWithAck('subscribe', payload)),
    next: (event) => new Promise((resolve) => socket.once(event, resolve)),
    nextArgs: (event) => new Promise((resolve) => socket.once(event, (...args: unknown[]) => resolve(args))),
  };
}

function refusal(token: string): Promise<Error & { data?: { code: string } }> {
  const socket = open(token);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected')));
    socket.once('connect_error', resolve);
  });
}

const devicesTopic = (id: string) => `travel-logs:${id}`;

describe('a signed-in user following a travel', () => {
  it('receives the device list with the position beside it, and the position on travel-location-logs as documented', async () => {
    const joao = await client(tokens['joao.silva']);
    const travel = ids.auroraInProgress!;
    expect(await joao.subscribe({ travelId: travel })).toEqual({ ok: true, travelId: travel });

    const message = joao.nextArgs(devicesTopic(travel));
    const located = joao.next(`travel-location-logs:${travel}`);
    const ts = at(ctx, -5);
    expect((await postReadings(ctx, [{ mac: MACS.truck1, ts, temperature: 6.5, humidity: 70, battery: 81, lat: -23.01, lng: -45.5 }])).statusCode).toBe(200);

    const [cards, position] = await message;
    const devices = TravelDevicesEvent.parse(cards);
    expect(devices).toEqual([expect.objectContaining({ mac: MACS.truck1, temperature: { value: 6.5 }, humidity: { value: 70 }, battery: { value: 81 }, last_update_date: ts })]);
    expect(TravelLocationEvent.parse(position)).toEqual({ travelId: travel, last_position: [-23.01, -45.5], mac: MACS.truck1, createdAt: ts });
    // A client written from the documents moves its marker on travel-location-logs (spec 001 "Live updates").
    expect(TravelLocationEvent.parse(await located)).toEqual({ travelId: travel, last_position: [-23.01, -45.5], mac: MACS.truck1, createdAt: ts });
    await new Promise<void>((resolve) => joao.socket.emit('unsubscribe', { travelId: travel }, () => resolve()));
    expect(joao.received.map((r) => r.event)).toEqual([devicesTopic(travel), `travel-location-logs:${travel}`]);
  });

  it('gets no position beside the cards when no device moved', async () => {
    const joao = await client(tokens['joao.silva']);
    const travel = ids.auroraInProgress!;
    await joao.subscribe({ travelId: travel });
    const message = joao.nextArgs(devicesTopic(travel));
    expect((await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -5), temperature: 6.6 }])).statusCode).toBe(200);
    const args = await message;
    expect(args).toHaveLength(1);
    expect(TravelDevicesEvent.parse(args[0])[0]!.temperature.value).toBe(6.6);
  });

  it('gets the new cards when the travel changes', async () => {
    const joao = await client(tokens['joao.silva']);
    const travel = ids.auroraInProgress!;
    await joao.subscribe({ travelId: travel });
    const cards = joao.next(devicesTopic(travel));
    const res = await ctx.request('PUT', '/api/travels/edit-travel-device', tokens['aurora.adm'], {
      travel_id: travel, device_id: await deviceId(ctx, MACS.truck1), name: 'Baú ao vivo', config: {},
    });
    expect(res.statusCode).toBe(200);
    expect(TravelDevicesEvent.parse(await cards)[0]!.name).toBe('Baú ao vivo');
  });

  it('hears that the travel changed when its status does', async () => {
    const joao = await client(tokens['joao.silva']);
    const travel = ids.auroraInProgress!;
    await joao.subscribe({ travelId: travel });
    const changed = joao.next(`travel-changed:${travel}`);
    const paused = await ctx.request('POST', `/api/travels/${travel}/status`, tokens['aurora.adm'], { status: 3 });
    expect(paused.statusCode).toBe(200);
    expect(TravelChangedEvent.parse(await changed)).toEqual({ travelId: travel });
    expect((await ctx.request('POST', `/api/travels/${travel}/status`, tokens['aurora.adm'], { status: 1 })).statusCode).toBe(200);
  });

  it('stops receiving a travel it unsubscribed from', async () => {
    const admin = await client(tokens.admin);
    const maria = await client(tokens['maria.souza']);
    const vida = ids.vidaInProgress!;
    const auroraTravel = ids.auroraInProgress!;
    await admin.subscribe({ travelId: vida });
    await admin.subscribe({ travelId: auroraTravel });
    await maria.subscribe({ travelId: vida });
    expect(await admin.socket.emitWithAck('unsubscribe', { travelId: vida })).toEqual({ ok: true, travelId: vida });

    const mariaGot = maria.next(devicesTopic(vida));
    await postReadings(ctx, [{ mac: MACS.box2, ts: at(ctx, -4), temperature: 5.5 }]);
    await mariaGot;
    // Sent after the Vida update, on the same connection: had the admin still been in its room, it would be here.
    const adminGot = admin.next(devicesTopic(auroraTravel));
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -3), temperature: 5.1 }]);
    await adminGot;
    expect(admin.received.map((r) => r.event)).not.toContain(devicesTopic(vida));
  });
});

describe('a user of another enterprise', () => {
  it('cannot join the travel’s room, and receives nothing of it', async () => {
    const aurora = await client(tokens['aurora.adm']);
    const maria = await client(tokens['maria.souza']);
    const vida = ids.vidaInProgress!;
    expect(await aurora.subscribe({ travelId: vida })).toEqual({ ok: false, error: 'Viagem não encontrada.' });
    await aurora.subscribe({ travelId: ids.auroraInProgress });
    expect(await maria.subscribe({ travelId: vida })).toMatchObject({ ok: true });

    const mariaGot = maria.next(devicesTopic(vida));
    await postReadings(ctx, [{ mac: MACS.box2, ts: at(ctx, -2), temperature: 6.1, lat: -21, lng: -43.5 }]);
    await mariaGot;
    const auroraGot = aurora.next(devicesTopic(ids.auroraInProgress!));
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 4.2 }]);
    await auroraGot;
    expect(aurora.received.map((r) => r.event).filter((e) => e.includes(vida))).toEqual([]);
  });
});

describe('a visitor with the tracking code', () => {
  it('follows the travel through the code, in any case, and gets updates', async () => {
    const visitor = await client();
    const travel = ids.auroraInProgress!;
    expect(await visitor.subscribe({ code: 'aur7k2m9qx' })).toEqual({ ok: true, travelId: travel });
    const cards = visitor.next(devicesTopic(travel));
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 3.3 }]);
    expect(TravelDevicesEvent.parse(await cards)[0]!.temperature.value).toBe(3.3);
  });

  it('cannot join by travel id, nor with a wrong code (expired and revoked ones: tracking-links.test.ts)', async () => {
    const visitor = await client();
    expect(await visitor.subscribe({ travelId: ids.auroraInProgress })).toEqual({ ok: false, error: MSG.unauthenticated });
    expect(await visitor.subscribe({ code: 'ZZZZZZZZZZ' })).toEqual({ ok: false, error: 'Viagem não encontrada para este código.' });
    expect(await visitor.subscribe({ nothing: true })).toMatchObject({ ok: false });
  });
});

describe('sessions', () => {
  it('refuses an unknown token at the handshake', async () => {
    const err = await refusal('not-a-session');
    expect(err.message).toBe(MSG.sessionExpired);
    expect(err.data?.code).toBe('SESSION_EXPIRED');
  });

  it('refuses subscriptions once the session was ended, even when no announcement closed the socket', async () => {
    const { token } = await ctx.login('joao.silva');
    const joao = await client(token);
    // As if another server process revoked it and its announcement was lost: the subscription checks anyway.
    await ctx.services.db.updateTable('sessions').set({ revoked_at: ctx.clock.now() }).where('token_hash', '=', sha256(token)).execute();
    expect(await joao.subscribe({ travelId: ids.auroraInProgress })).toEqual({ ok: false, error: MSG.sessionExpired });
  });

  /** Resolves with the reason when the server closes the socket. */
  const closedByServer = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

  it('closes the socket at once when its session logs out, and only that one', async () => {
    const first = await ctx.login('joao.silva');
    const second = await ctx.login('joao.silva');
    const leaving = await client(first.token);
    const staying = await client(second.token);
    const closed = closedByServer(leaving.socket);
    expect((await ctx.request('POST', '/api/logout', first.token)).statusCode).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await staying.subscribe({ travelId: ids.auroraInProgress })).toEqual({ ok: true, travelId: ids.auroraInProgress });
    expect(staying.socket.connected).toBe(true);
  });

  it('closes every socket of a user an administrator deactivates', async () => {
    const maria = await ctx.login('maria.souza');
    const vidaAdm = await ctx.login('vida.adm');
    const sockets = [await client(maria.token), await client(maria.token)];
    const admin = await client(vidaAdm.token);
    const closed = sockets.map((c) => closedByServer(c.socket));
    const off = await ctx.request('POST', '/api/client-active-inactive', vidaAdm.token, { user_id: maria.user._id, status: true });
    expect(off.statusCode).toBe(200);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(admin.socket.connected).toBe(true);
    await ctx.request('POST', '/api/client-active-inactive', vidaAdm.token, { user_id: maria.user._id, status: false });
  });

  it('closes the sockets of a deactivated enterprise, not those of others', async () => {
    const vida = await ctx.login('vida.adm');
    const vidaSocket = await client(vida.token);
    const auroraSocket = await client(tokens['aurora.adm']);
    const closed = closedByServer(vidaSocket.socket);
    const enterpriseId = vida.user.enterprise!._id;
    expect((await ctx.request('POST', '/api/client-active-inactive', tokens.admin, { client_id: enterpriseId, status: true })).statusCode).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await auroraSocket.subscribe({ travelId: ids.auroraInProgress })).toMatchObject({ ok: true });
    await ctx.request('POST', '/api/client-active-inactive', tokens.admin, { client_id: enterpriseId, status: false });
  });

  it('refuses an expired token at the handshake', async () => {
    const { token } = await ctx.login('aurora.adm');
    ctx.clock.advance(6 * 60_000);
    expect((await refusal(token)).message).toBe(MSG.sessionExpired);
  });
});
