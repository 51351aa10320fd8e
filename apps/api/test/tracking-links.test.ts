import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { SubscribeAck, Travel, TravelDevicesEvent } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { CODES, MACS, travelId } from './travel-helpers';

/**
 * Safer tracking links (issue 14, item 4; ADR 36): expiry under a moved clock, revocation and a new code, the scope
 * enforced by the API over HTTP and the live socket, lookup counts for the managers, and no reach into another
 * enterprise's links.
 */
let ctx: TestContext;
let url: string;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const sockets: Socket[] = [];
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  for (const username of ['aurora.adm', 'joao.silva', 'maria.souza']) tokens[username] = (await ctx.login(username)).token;
  for (const [name, code] of Object.entries(CODES)) ids[name] = await travelId(ctx, code);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => ctx.close());

const lookup = (code: string, token?: string) => ctx.request('GET', `/api/travels/localizator/${encodeURIComponent(code)}`, token);
const travelOf = async (id: string, token = tokens['aurora.adm']!) => {
  const res = await ctx.request('GET', `/api/travels/${id}`, token);
  expect(res.statusCode).toBe(200);
  return Travel.parse(res.json());
};
const setLink = (id: string, body: unknown, token = tokens['aurora.adm']!) => ctx.request('PUT', `/api/travels/${id}/tracking-link`, token, body);
const revoke = (id: string, token = tokens['aurora.adm']!) => ctx.request('POST', `/api/travels/${id}/tracking-link/revoke`, token);
const regenerate = (id: string, token = tokens['aurora.adm']!) => ctx.request('POST', `/api/travels/${id}/tracking-link/regenerate`, token);

const EXPIRED = 'Este link de rastreamento expirou. Peça um novo código a quem enviou a carga.';
const REVOKED = 'Este link de rastreamento foi revogado. Peça um novo código a quem enviou a carga.';

interface Client {
  socket: Socket;
  received: { event: string; payload: unknown }[];
  subscribe(payload: unknown): Promise<unknown>;
  next(event: string): Promise<unknown>;
  /** A round trip on this socket: every message the server wrote to it before is in `received` afterwards. */
  settle(): Promise<void>;
}

async function client(token?: string): Promise<Client> {
  const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: token ? { token } : {}, reconnection: false, forceNew: true });
  sockets.push(socket);
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
    settle: async () => void (await socket.emitWithAck('unsubscribe', { travelId: '00000000-0000-4000-8000-000000000000' })),
  };
}

const devicesTopic = (id: string) => `travel-logs:${id}`;
const locationTopic = (id: string) => `travel-location-logs:${id}`;

describe('tracking link defaults (X9)', () => {
  it('shows managers the scope, the expiry and the count; a travel not finished has no expiry yet', async () => {
    const inProgress = await travelOf(ids.auroraInProgress!);
    expect(inProgress.tracking).toEqual({ scope: 'readings', expires_at: null, expires_at_chosen: null, revoked_at: null, lookups: 0, last_lookup_at: null });
    const finished = await travelOf(ids.auroraFinished!);
    expect(Date.parse(finished.tracking.expires_at!)).toBe(Date.parse(finished.finished_at!) + 7 * DAY);
  });

  it('counts the lookups of code holders, not those of users who may see the travel anyway', async () => {
    const before = (await travelOf(ids.vidaInProgress!, tokens['maria.souza'])).tracking.lookups!;
    expect((await lookup(CODES.vidaInProgress)).statusCode).toBe(200);
    expect((await lookup(CODES.vidaInProgress, tokens['aurora.adm'])).statusCode).toBe(200);
    expect((await lookup(CODES.vidaInProgress, tokens['maria.souza'])).statusCode).toBe(200);
    const after = (await travelOf(ids.vidaInProgress!, tokens['maria.souza'])).tracking;
    expect(after.lookups).toBe(before + 2);
    expect(after.last_lookup_at).toBe(ctx.clock.now().toISOString());
    // The public view does not tell visitors how the link is used.
    expect(Travel.parse((await lookup(CODES.vidaInProgress)).json()).tracking).toMatchObject({ lookups: null, last_lookup_at: null, revoked_at: null });
  });
});

describe('revoke and regenerate (X9)', () => {
  it('stops the code at once (HTTP and the live room), and a new code works while the old one says “revogado”', async () => {
    const id = ids.vidaInProgress!;
    const maria = tokens['maria.souza']!;
    const visitor = await client();
    expect(await visitor.subscribe({ code: CODES.vidaInProgress })).toEqual({ ok: true, travelId: id });
    // Maria follows the travel too: what she hears tells when the room was checked and when readings went out.
    const watcher = await client(maria);
    expect(await watcher.subscribe({ travelId: id })).toEqual({ ok: true, travelId: id });
    const checked = watcher.next(`travel-changed:${id}`);

    const revoked = await revoke(id, maria);
    expect(revoked.statusCode).toBe(200);
    expect(Travel.parse(revoked.json()).tracking.revoked_at).toBe(ctx.clock.now().toISOString());
    const res = await lookup(CODES.vidaInProgress);
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toBe(REVOKED);
    // Even for the travel's own users: the link is dead for everyone.
    expect((await lookup(CODES.vidaInProgress, maria)).statusCode).toBe(410);
    // The socket left the room before the change was announced: it is told the travel changed (its page asks
    // again and shows why), and hears nothing of the travel again.
    await checked;
    const cards = watcher.next(devicesTopic(id));
    ctx.clock.advance(10_000);
    await postReadings(ctx, [{ mac: MACS.box2, ts: at(ctx, -1), temperature: 5, lat: -16, lng: -47 }]);
    await cards;
    await visitor.settle();
    expect(visitor.received.filter((r) => r.event.includes(id))).toEqual([{ event: `travel-changed:${id}`, payload: { travelId: id } }]);
    expect(await visitor.subscribe({ code: CODES.vidaInProgress })).toEqual({ ok: false, error: REVOKED });

    const fresh = Travel.parse((await regenerate(id, maria)).json());
    expect(fresh.code).not.toBe(CODES.vidaInProgress);
    expect(fresh.code).toMatch(/^[2-9A-HJKMNP-Z]{10}$/);
    expect(fresh.tracking).toMatchObject({ revoked_at: null, lookups: 0, last_lookup_at: null });
    expect((await lookup(fresh.code)).statusCode).toBe(200);
    expect((await lookup(CODES.vidaInProgress)).json().error).toBe(REVOKED);
    // A second new code revokes the first new one too.
    const third = Travel.parse((await regenerate(id, maria)).json());
    expect((await lookup(fresh.code)).json().error).toBe(REVOKED);
    expect((await lookup(third.code)).statusCode).toBe(200);
    expect((await lookup('ZZZZZZZZZZ')).statusCode).toBe(404);
  });
});

describe('scope (X9)', () => {
  it('gives a position-only code the map and no readings over HTTP; the travel’s users still get everything', async () => {
    const id = ids.auroraInProgress!;
    expect((await setLink(id, { scope: 'position', expires_at: null })).statusCode).toBe(200);
    const res = await lookup(CODES.auroraInProgress);
    expect(res.statusCode).toBe(200);
    const travel = Travel.parse(res.json());
    expect(travel.devices).toEqual([]);
    expect(travel.last_position).not.toBeNull();
    expect(travel.tracking.scope).toBe('position');
    expect(res.body).not.toMatch(/temperature|humidity|battery/);

    const joao = Travel.parse((await lookup(CODES.auroraInProgress, tokens['joao.silva'])).json());
    expect(joao.devices.map((d) => d.mac)).toEqual([MACS.truck1]);
    expect(joao.devices[0]!.temperature.value).not.toBeNull();
  });

  it('sends a position-only socket the position but never the device cards; a readings code gets both', async () => {
    const id = ids.auroraInProgress!;
    expect((await setLink(id, { scope: 'position', expires_at: null })).statusCode).toBe(200);
    const position = await client();
    expect(await position.subscribe({ code: CODES.auroraInProgress })).toEqual({ ok: true, travelId: id });
    const moved = position.next(locationTopic(id));
    ctx.clock.advance(10_000);
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 4.4, humidity: 60, lat: -23.1, lng: -45.9 }]);
    expect(await moved).toMatchObject({ last_position: [-23.1, -45.9] });
    await position.settle();
    expect(position.received.map((r) => r.event)).toEqual([locationTopic(id)]);

    // The managers widen the scope: the same socket is moved to the room that gets the cards.
    const widened = position.next(`travel-changed:${id}`);
    expect((await setLink(id, { scope: 'readings', expires_at: null })).statusCode).toBe(200);
    await widened;
    const cards = position.next(devicesTopic(id));
    ctx.clock.advance(10_000);
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 4.6, lat: -23.2, lng: -45.8 }]);
    expect(TravelDevicesEvent.parse(await cards)[0]!.temperature.value).toBe(4.6);

    // And narrow it again: the socket stops getting the cards at once.
    const narrowed = position.next(`travel-changed:${id}`);
    expect((await setLink(id, { scope: 'position', expires_at: null })).statusCode).toBe(200);
    await narrowed;
    await position.settle();
    const from = position.received.length;
    const again = position.next(locationTopic(id));
    ctx.clock.advance(10_000);
    await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, -1), temperature: 9.9, lat: -23.3, lng: -45.7 }]);
    await again;
    await position.settle();
    expect(position.received.slice(from).map((r) => r.event)).toEqual([locationTopic(id)]);
    expect(JSON.stringify(position.received.slice(from))).not.toContain('9.9');
    expect((await setLink(id, { scope: 'readings', expires_at: null })).statusCode).toBe(200);
  });
});

describe('another enterprise', () => {
  it('cannot read, change, revoke or regenerate another enterprise’s link, and nothing changes', async () => {
    const id = ids.auroraInProgress!;
    const before = await travelOf(id);
    const maria = tokens['maria.souza']!;
    for (const res of [await setLink(id, { scope: 'position', expires_at: null }, maria), await revoke(id, maria), await regenerate(id, maria)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Viagem não encontrada.');
    }
    const after = await travelOf(id);
    expect(after.code).toBe(before.code);
    expect(after.tracking).toEqual(before.tracking);
    expect((await ctx.db.selectFrom('travel_revoked_codes').select('code').where('travel_id', '=', id).execute()).length).toBe(0);
  });
});

// Last: these move the clock days ahead (sessions are signed in again there).
describe('expiry', () => {
  it('keeps a finished travel’s code working for the configured days after the end, then answers 410 “expirou” to everyone', async () => {
    const finished = await travelOf(ids.auroraFinished!);
    const visitor = await lookup(CODES.auroraFinished);
    expect(visitor.statusCode).toBe(200);
    expect(Travel.parse(visitor.json())).toMatchObject({ status: 2, user: null });

    ctx.clock.set(new Date(Date.parse(finished.tracking.expires_at!) + 1000));
    tokens['aurora.adm'] = (await ctx.login('aurora.adm')).token;
    for (const token of [undefined, tokens['aurora.adm']]) {
      const res = await lookup(CODES.auroraFinished, token);
      expect(res.statusCode).toBe(410);
      expect(res.json().error).toBe(EXPIRED);
    }
    const live = await client();
    expect(await live.subscribe({ code: CODES.auroraFinished })).toEqual({ ok: false, error: EXPIRED });
    // Managers still see their travel (and that its link expired).
    expect((await travelOf(ids.auroraFinished!)).status).toBe(2);
  });

  it('follows a date the managers chose, and refuses one in the past', async () => {
    const id = ids.auroraNotStarted!;
    const inAnHour = new Date(ctx.clock.now().getTime() + 3_600_000).toISOString();
    const res = await setLink(id, { scope: 'readings', expires_at: inAnHour });
    expect(res.statusCode).toBe(200);
    expect(Travel.parse(res.json()).tracking).toMatchObject({ expires_at: inAnHour, expires_at_chosen: inAnHour });
    expect((await lookup(CODES.auroraNotStarted)).statusCode).toBe(200);

    const past = await setLink(id, { scope: 'readings', expires_at: new Date(ctx.clock.now().getTime() - 1000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('A validade do link deve ser uma data futura.');

    ctx.clock.advance(3_600_000 + 1000);
    tokens['aurora.adm'] = (await ctx.login('aurora.adm')).token;
    expect((await lookup(CODES.auroraNotStarted)).json().error).toBe(EXPIRED);
    // Back to the default: a travel not finished has no expiry, the code works again.
    expect((await setLink(id, { scope: 'readings', expires_at: null })).statusCode).toBe(200);
    expect((await lookup(CODES.auroraNotStarted)).statusCode).toBe(200);
  });

  it('refuses bad input in Portuguese', async () => {
    const id = ids.auroraNotStarted!;
    const scope = await setLink(id, { scope: 'everything', expires_at: null });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().error).toContain('Escolha o que o link mostra.');
    const date = await setLink(id, { scope: 'position', expires_at: 'amanhã' });
    expect(date.statusCode).toBe(400);
    expect(date.json().error).toContain('A validade não é uma data válida');
    expect((await travelOf(id)).tracking.scope).toBe('readings');
  });

  it('ends a code’s live room when its link expires, and tells the socket', async () => {
    const id = ids.auroraNotStarted!;
    tokens['aurora.adm'] = (await ctx.login('aurora.adm')).token;
    const soon = new Date(ctx.clock.now().getTime() + 300).toISOString();
    expect((await setLink(id, { scope: 'readings', expires_at: soon })).statusCode).toBe(200);
    const visitor = await client();
    expect(await visitor.subscribe({ code: CODES.auroraNotStarted })).toEqual({ ok: true, travelId: id });
    const inRoom = () => ctx.app.io.of('/').adapter.rooms.get(`travel:${id}`)?.has(visitor.socket.id!) ?? false;
    expect(inRoom()).toBe(true);
    // The timer fires some 300 ms later and finds the link expired (until the clock moves it only re-arms).
    ctx.clock.advance(1000);
    await vi.waitFor(() => expect(inRoom()).toBe(false), { timeout: 10_000, interval: 50 });
    await visitor.settle();
    expect(visitor.received.map((r) => r.event)).toContain(`travel-changed:${id}`);
    expect(await visitor.subscribe({ code: CODES.auroraNotStarted })).toEqual({ ok: false, error: EXPIRED });
  });
});
