import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { CreatedGateway, Device, DeviceList, LocationDevicesEvent, locationTopics, LocationsSubscribeAck, type LocationDeviceState } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { postReadings } from './ingest-helpers';

/**
 * Meus Dispositivos and Dispositivos live (D1, D2, ADR 0049): the lists follow the devices feed of their own scope.
 * A user of an enterprise linked to one device receives that device's readings only, never another enterprise's;
 * linking and unlinking through the real routes move the subscription and tell the page to fetch its list again.
 * The devices are this file's own (registered here), read through a gateway of their enterprise.
 */
let ctx: TestContext;
let url: string;
const tokens: Record<string, string> = {};
let auroraId: string;
let joaoId: string;
let auroraKey: string;
let vidaKey: string;
const sockets: Socket[] = [];
const devices: Record<'one' | 'two' | 'other', Device> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['admin', 'aurora.adm', 'joao.silva', 'vida.adm']) tokens[username] = (await ctx.login(username)).token;
  const enterprises = await ctx.db.selectFrom('enterprises').select(['id', 'name']).execute();
  auroraId = enterprises.find((e) => e.name.startsWith('Aurora'))!.id;
  const vidaId = enterprises.find((e) => e.name.startsWith('Vida'))!.id;
  joaoId = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).id;

  // Two devices of Aurora and one of Vida, registered and placed as the administration screens do.
  const register = async (mac: string, name: string) => {
    const res = await ctx.request('POST', '/api/beacon-device', tokens.admin, { mac, name, model: 'LIVE-1' });
    expect(res.statusCode, res.body).toBe(201);
    return Device.parse(res.json());
  };
  devices.one = await register('D9:00:00:00:00:01', 'Geladeira Vacinas');
  devices.two = await register('D9:00:00:00:00:02', 'Geladeira Insulina');
  devices.other = await register('D9:00:00:00:00:03', 'Geladeira de Outra Empresa');
  const place = async (ids: string[], clientId: string) => {
    const res = await ctx.request('POST', '/api/devices/link/client', tokens.admin, { devices: ids, to_update: 1, client_id: clientId });
    expect(res.statusCode, res.body).toBe(200);
  };
  await place([devices.one._id, devices.two._id], auroraId);
  await place([devices.other._id], vidaId);
  const gateway = async (username: string) => {
    const res = await ctx.request('POST', '/api/gateways', tokens[username], { name: 'Gateway da farmácia' });
    expect(res.statusCode, res.body).toBe(201);
    return CreatedGateway.parse(res.json()).key;
  };
  auroraKey = await gateway('aurora.adm');
  vidaKey = await gateway('vida.adm');
  // João sees device one only: the whole new set of his links (to_update 0).
  await linkToJoao([devices.one._id], 0);

  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

async function linkToJoao(ids: string[], toUpdate: 0 | 1) {
  const res = await ctx.request('POST', '/api/devices/link/user', tokens['aurora.adm'], { devices: ids, to_update: toUpdate, user_id: joaoId });
  expect(res.statusCode, res.body).toBe(200);
}

/** A signed-in page following the feed: every message it received, in order, and a promise of the next of a kind. */
async function follow(username: string) {
  const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: { token: tokens[username] }, reconnection: false, forceNew: true });
  sockets.push(socket);
  const received: { event: string; states?: LocationDeviceState[] }[] = [];
  socket.on(locationTopics.devices, (payload: unknown) => received.push({ event: locationTopics.devices, states: LocationDevicesEvent.parse(payload) }));
  socket.on(locationTopics.changed, () => received.push({ event: locationTopics.changed }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  expect(LocationsSubscribeAck.parse(await socket.emitWithAck(locationTopics.subscribe, {}))).toEqual({ ok: true });
  const next = (event: string) => new Promise<void>((resolve) => socket.once(event, () => resolve()));
  return { socket, received, next, ids: () => received.flatMap((m) => (m.states ?? []).map((s) => s._id)) };
}

/** Stores one reading of a device through its enterprise's gateway, a few seconds after the previous (sessions stay open). */
async function reading(device: Device, temperature: number) {
  ctx.clock.advance(5_000);
  const key = device._id === devices.other._id ? vidaKey : auroraKey;
  const res = await postReadings(ctx, [{ mac: device.mac, ts: ctx.clock.now().toISOString(), temperature, humidity: 55, battery: 90 }], key);
  expect(res.statusCode, res.body).toBe(200);
  return ctx.clock.now().toISOString();
}

async function listOf(username: string, path: string): Promise<string[]> {
  const res = await ctx.request('GET', path, tokens[username]);
  expect(res.statusCode, res.body).toBe(200);
  return DeviceList.parse(res.json()).map((d) => d._id);
}

describe('the devices feed of Meus Dispositivos', () => {
  it("sends a user linked to one device that device's readings only, and nothing of another enterprise", async () => {
    // The list the page shows: device one only (with none of this file's other devices).
    const list = await listOf('joao.silva', `/api/devices-by-user/${joaoId}`);
    expect(list).toContain(devices.one._id);
    expect(list).not.toContain(devices.two._id);
    expect(list).not.toContain(devices.other._id);

    const joao = await follow('joao.silva');
    const aurora = await follow('aurora.adm');
    const vida = await follow('vida.adm');
    const superAdmin = await follow('admin');

    const auroraGotBoth = new Promise<void>((resolve) => {
      const seen = new Set<string>();
      aurora.socket.on(locationTopics.devices, (payload: LocationDeviceState[]) => {
        for (const state of payload) seen.add(state._id);
        if (seen.has(devices.one._id) && seen.has(devices.two._id)) resolve();
      });
    });
    const vidaNext = vida.next(locationTopics.devices);
    const joaoNext = joao.next(locationTopics.devices);
    await reading(devices.two, 6.5);
    await reading(devices.other, 7.5);
    const ts = await reading(devices.one, 4.25);

    // Messages reach a socket in order: João's first message is device one's, so two's and Vida's never came before it.
    await joaoNext;
    expect(joao.received).toEqual([
      { event: locationTopics.devices, states: [{ _id: devices.one._id, temperature: 4.25, humidity: 55, battery: 90, lastSyncDate: ts }] },
    ]);
    await auroraGotBoth;
    expect(aurora.ids()).not.toContain(devices.other._id);
    await vidaNext;
    expect(vida.ids()).toEqual([devices.other._id]);
    // The super admin's list has every device, and so has its feed.
    await expect.poll(() => new Set(superAdmin.ids())).toEqual(new Set([devices.one._id, devices.two._id, devices.other._id]));

    // Vida's own readings again, and device two's: João still has device one's message only.
    const vidaAgain = vida.next(locationTopics.devices);
    await reading(devices.other, 8);
    await reading(devices.two, 5);
    await vidaAgain;
    const joaoLater = joao.next(locationTopics.devices);
    await reading(devices.one, 4.5);
    await joaoLater;
    expect(joao.ids()).toEqual([devices.one._id, devices.one._id]);
  });

  it('follows linking and unlinking: the page is told to fetch its list, then receives the new set only', async () => {
    const joao = await follow('joao.silva');

    // Linked to device two through the linking route (`access.changed`): told, and the list now has it.
    let told = joao.next(locationTopics.changed);
    await linkToJoao([devices.two._id], 1);
    await told;
    expect(await listOf('joao.silva', `/api/devices-by-user/${joaoId}`)).toEqual(expect.arrayContaining([devices.one._id, devices.two._id]));
    let next = joao.next(locationTopics.devices);
    await reading(devices.two, 3);
    await next;
    expect(joao.ids()).toEqual([devices.two._id]);

    // Unlinked from device one (the new set is device two only): told again; one's readings stop, two's go on.
    told = joao.next(locationTopics.changed);
    await linkToJoao([devices.two._id], 0);
    await told;
    expect(await listOf('joao.silva', `/api/devices-by-user/${joaoId}`)).not.toContain(devices.one._id);
    next = joao.next(locationTopics.devices);
    await reading(devices.one, 9);
    await reading(devices.two, 2);
    await next;
    expect(joao.ids()).toEqual([devices.two._id, devices.two._id]);
    expect(joao.received.map((m) => m.event)).toEqual([locationTopics.changed, locationTopics.devices, locationTopics.changed, locationTopics.devices]);
  });

  it('keeps Dispositivos (/client-devices) of an enterprise to its devices: the admin of another gets none of them', async () => {
    const clientList = await listOf('aurora.adm', `/api/devices-by-client/${auroraId}`);
    expect(clientList).toEqual(expect.arrayContaining([devices.one._id, devices.two._id]));
    expect(clientList).not.toContain(devices.other._id);
    // Another enterprise's list is not found, and its feed carries none of Aurora's readings.
    expect((await ctx.request('GET', `/api/devices-by-client/${auroraId}`, tokens['vida.adm'])).statusCode).toBe(404);

    const aurora = await follow('aurora.adm');
    const vida = await follow('vida.adm');
    const auroraNext = aurora.next(locationTopics.devices);
    await reading(devices.one, 5.5);
    await auroraNext;
    const vidaNext = vida.next(locationTopics.devices);
    await reading(devices.other, 6);
    await vidaNext;
    expect(vida.ids()).toEqual([devices.other._id]);
    expect(aurora.ids()).toEqual([devices.one._id]);
  });
});
