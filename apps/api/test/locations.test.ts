import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { LOCATION_MESSAGES, LocationDevicesEvent, LocationsSubscribeAck, MSG, type Location } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { deviceByMac, postReadings } from './ingest-helpers';
import { startFakeGeocoder, type FakeGeocoder } from './fake-geocoder';

/** Locais (A8): locations, device groups, placing devices, the address search and the live map feed. */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const enterprises: Record<string, string> = {};

const PAULISTA = { name: 'Farmácia Paulista', address: 'Av. Paulista, 1000 - São Paulo - SP', latitude: -23.5653, longitude: -46.6515 };

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['admin', 'aurora.adm', 'joao.silva', 'vida.adm', 'maria.souza']) tokens[username] = (await ctx.login(username)).token;
  for (const e of await ctx.db.selectFrom('enterprises').select(['id', 'name']).execute()) enterprises[e.name] = e.id;
});
afterAll(() => ctx.close());

const as = (username: string) => tokens[username]!;

async function createLocation(username: string, body: object): Promise<Location> {
  const res = await ctx.request('POST', '/api/locations', as(username), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function createGroup(username: string, locationId: string, name: string): Promise<{ _id: string }> {
  const res = await ctx.request('POST', '/api/devices-groups', as(username), { location_id: locationId, name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const locationRow = (id: string) => ctx.db.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();
const groupRow = (id: string) => ctx.db.selectFrom('device_groups').selectAll().where('id', '=', id).executeTakeFirst();

describe('GET /api/locations', () => {
  it('answers an empty list before any location exists, and 401 without a session', async () => {
    const res = await ctx.request('GET', '/api/locations', as('vida.adm'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect((await ctx.request('GET', '/api/locations')).statusCode).toBe(401);
  });
});

describe('creating and editing a location', () => {
  it('an enterprise admin creates one for its enterprise, with its address and position', async () => {
    const created = await createLocation('aurora.adm', { ...PAULISTA, name: '  Loja Centro  ' });
    expect(created).toEqual({
      _id: created._id,
      id: created._id,
      name: 'Loja Centro',
      address: PAULISTA.address,
      latitude: PAULISTA.latitude,
      longitude: PAULISTA.longitude,
      devices: 0,
      enterprise: { _id: enterprises['Aurora Alimentos'], name: 'Aurora Alimentos' },
      created_at: ctx.clock.now().toISOString(),
    });
    const list = (await ctx.request('GET', '/api/locations', as('aurora.adm'))).json() as Location[];
    expect(list.map((l) => l.name)).toContain('Loja Centro');
    // Another enterprise does not see it.
    expect(((await ctx.request('GET', '/api/locations', as('vida.adm'))).json() as Location[]).map((l) => l.name)).not.toContain('Loja Centro');
  });

  it('edits name, address and position', async () => {
    const created = await createLocation('aurora.adm', { ...PAULISTA, name: 'Depósito' });
    const res = await ctx.request('PUT', `/api/locations/${created._id}`, as('aurora.adm'), { name: 'Depósito Norte', address: '', latitude: -15.8, longitude: -47.9 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Depósito Norte', address: null, latitude: -15.8, longitude: -47.9 });
    expect(await locationRow(created._id)).toMatchObject({ name: 'Depósito Norte', address: null, latitude: -15.8, longitude: -47.9 });
  });

  it('refuses a second location of the same name in the enterprise (any case), but not in another enterprise', async () => {
    await createLocation('aurora.adm', { ...PAULISTA, name: 'Filial Sul' });
    const again = await ctx.request('POST', '/api/locations', as('aurora.adm'), { ...PAULISTA, name: 'FILIAL SUL' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(LOCATION_MESSAGES.nameTaken);
    await createLocation('vida.adm', { ...PAULISTA, name: 'Filial Sul' });
  });

  it.each([
    [{ ...PAULISTA, latitude: 91 }, 'Latitude fora da faixa permitida (-90 a 90).'],
    [{ ...PAULISTA, longitude: -180.5 }, 'Longitude fora da faixa permitida (-180 a 180).'],
    [{ ...PAULISTA, latitude: '-23.5' }, 'Latitude inválida: esperado um número.'],
    [{ ...PAULISTA, latitude: 1e-12 }, 'Latitude inválida: esperado um número.'],
    [{ ...PAULISTA, longitude: null }, 'Longitude inválida: esperado um número.'],
    [{ name: 'Sem posição', address: 'Rua A' }, 'Latitude inválida: esperado um número.'],
    [{ ...PAULISTA, name: 'Loja\u0000Oculta' }, 'O nome contém caracteres inválidos.'],
    [{ ...PAULISTA, name: 'Loja\u202Eatnec' }, 'O nome contém caracteres inválidos.'],
    [{ ...PAULISTA, name: '   ' }, 'Informe o nome do local.'],
    [{ ...PAULISTA, name: 'x'.repeat(121) }, 'O nome deve ter no máximo 120 caracteres.'],
    [{ ...PAULISTA, address: 'Rua\u0007B' }, 'O endereço contém caracteres inválidos.'],
  ])('refuses bad input %#: %s', async (body, message) => {
    const before = await ctx.db.selectFrom('locations').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await ctx.request('POST', '/api/locations', as('aurora.adm'), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    const after = await ctx.db.selectFrom('locations').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('the super admin names the enterprise; an enterprise admin cannot name another one', async () => {
    const missing = await ctx.request('POST', '/api/locations', as('admin'), { ...PAULISTA, name: 'Sem empresa' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(LOCATION_MESSAGES.enterpriseRequired);
    const created = await createLocation('admin', { ...PAULISTA, name: 'Farmácia Sé', enterprise_id: enterprises['Vida Farma'] });
    expect(created.enterprise.name).toBe('Vida Farma');
    const intruder = await ctx.request('POST', '/api/locations', as('aurora.adm'), { ...PAULISTA, name: 'Intrusa', enterprise_id: enterprises['Vida Farma'] });
    expect(intruder.statusCode).toBe(404);
    expect(intruder.json().error).toBe('Empresa não encontrada.');
    expect(await ctx.db.selectFrom('locations').select('id').where('name', '=', 'Intrusa').executeTakeFirst()).toBeUndefined();
  });

  it('ordinary users read their enterprise locations but may not change them', async () => {
    const created = await createLocation('aurora.adm', { ...PAULISTA, name: 'Loja Leitura' });
    const list = (await ctx.request('GET', '/api/locations', as('joao.silva'))).json() as Location[];
    expect(list.map((l) => l.name)).toContain('Loja Leitura');
    expect((await ctx.request('POST', '/api/locations', as('joao.silva'), { ...PAULISTA, name: 'Nova' })).statusCode).toBe(403);
    expect((await ctx.request('PUT', `/api/locations/${created._id}`, as('joao.silva'), { ...PAULISTA, name: 'Nova' })).statusCode).toBe(403);
    expect((await ctx.request('DELETE', `/api/locations/${created._id}`, as('joao.silva'))).statusCode).toBe(403);
    expect((await ctx.request('POST', '/api/devices-groups', as('joao.silva'), { location_id: created._id, name: 'G' })).statusCode).toBe(403);
    expect((await locationRow(created._id))?.name).toBe('Loja Leitura');
  });
});

describe("another enterprise's locations, groups and devices", () => {
  it('are not found (404 pt-BR) and nothing changes', async () => {
    const aurora = await createLocation('aurora.adm', { ...PAULISTA, name: 'Câmara Aurora' });
    const group = await createGroup('aurora.adm', aurora._id, 'Freezers');
    const vida = 'vida.adm';

    const edit = await ctx.request('PUT', `/api/locations/${aurora._id}`, as(vida), { ...PAULISTA, name: 'Tomada' });
    expect(edit.statusCode).toBe(404);
    expect(edit.json().error).toBe(LOCATION_MESSAGES.notFound);
    const remove = await ctx.request('DELETE', `/api/locations/${aurora._id}`, as(vida));
    expect(remove.statusCode).toBe(404);
    expect(remove.json().error).toBe(LOCATION_MESSAGES.notFound);
    const groups = await ctx.request('GET', `/api/devices-groups/by-location/${aurora._id}`, as(vida));
    expect(groups.statusCode).toBe(404);
    expect(groups.json().error).toBe(LOCATION_MESSAGES.notFound);
    const addGroup = await ctx.request('POST', '/api/devices-groups', as(vida), { location_id: aurora._id, name: 'Intruso' });
    expect(addGroup.statusCode).toBe(404);
    const rename = await ctx.request('PUT', `/api/devices-groups/${group._id}`, as(vida), { name: 'Tomado' });
    expect(rename.statusCode).toBe(404);
    expect(rename.json().error).toBe(LOCATION_MESSAGES.groupNotFound);
    expect((await ctx.request('DELETE', `/api/devices-groups/${group._id}`, as(vida))).statusCode).toBe(404);

    expect(await locationRow(aurora._id)).toMatchObject({ name: 'Câmara Aurora', latitude: PAULISTA.latitude });
    expect(await groupRow(group._id)).toMatchObject({ name: 'Freezers', location_id: aurora._id });
    expect(await ctx.db.selectFrom('device_groups').select('id').where('name', '=', 'Intruso').executeTakeFirst()).toBeUndefined();

    // A device of Aurora cannot go to a Vida location, nor a Vida device to an Aurora location or group.
    const vidaLocation = await createLocation(vida, { ...PAULISTA, name: 'Farmácia Vida' });
    const auroraDevice = await deviceByMac(ctx, 'C3:00:00:00:01:03');
    const vidaDevice = await deviceByMac(ctx, 'C3:00:00:00:02:01');
    const foreignLocation = await ctx.request('PUT', `/api/devices/${auroraDevice.id}`, as('aurora.adm'), { location_id: vidaLocation._id });
    expect(foreignLocation.statusCode).toBe(404);
    expect(foreignLocation.json().error).toBe(LOCATION_MESSAGES.notFound);
    const foreignDevice = await ctx.request('PUT', `/api/devices/${vidaDevice.id}`, as('aurora.adm'), { location_id: aurora._id });
    expect(foreignDevice.statusCode).toBe(404);
    expect(foreignDevice.json().error).toBe('Dispositivo não encontrado.');
    const foreignGroup = await ctx.request('PUT', `/api/devices/${vidaDevice.id}`, as(vida), { location_id: vidaLocation._id, group_id: group._id });
    expect(foreignGroup.statusCode).toBe(404);
    expect(foreignGroup.json().error).toBe(LOCATION_MESSAGES.groupNotFound);
    // Even the super admin cannot place a device at another enterprise's location.
    const crossed = await ctx.request('PUT', `/api/devices/${vidaDevice.id}`, as('admin'), { location_id: aurora._id });
    expect(crossed.statusCode).toBe(404);
    for (const mac of ['C3:00:00:00:01:03', 'C3:00:00:00:02:01']) expect(await deviceByMac(ctx, mac)).toMatchObject({ location_id: null, group_id: null });
  });

  it('unknown or malformed ids are not found either', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await ctx.request('GET', `/api/devices-groups/by-location/${unknown}`, as('aurora.adm'))).json().error).toBe(LOCATION_MESSAGES.notFound);
    const malformed = await ctx.request('GET', '/api/devices-groups/by-location/abc', as('aurora.adm'));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toContain(LOCATION_MESSAGES.notFound);
    expect((await ctx.request('PUT', `/api/locations/${unknown}`, as('aurora.adm'), PAULISTA)).statusCode).toBe(404);
  });
});

describe('device groups', () => {
  it('are created, listed with their device counts, renamed and removed (their devices stay at the location)', async () => {
    const location = await createLocation('aurora.adm', { ...PAULISTA, name: 'Centro de Distribuição' });
    const cold = await createGroup('aurora.adm', location._id, 'Câmaras frias');
    await createGroup('aurora.adm', location._id, 'Docas');
    const duplicate = await ctx.request('POST', '/api/devices-groups', as('aurora.adm'), { location_id: location._id, name: 'câmaras FRIAS' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe(LOCATION_MESSAGES.groupNameTaken);
    const bad = await ctx.request('POST', '/api/devices-groups', as('aurora.adm'), { location_id: location._id, name: 'Doca\u0001' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('O nome contém caracteres inválidos.');

    const device = await deviceByMac(ctx, 'C3:00:00:00:01:04');
    const placed = await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: location._id, group_id: cold._id });
    expect(placed.statusCode, placed.body).toBe(200);

    const list = await ctx.request('GET', `/api/devices-groups/by-location/${location._id}`, as('aurora.adm'));
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      { _id: cold._id, id: cold._id, name: 'Câmaras frias', location_id: location._id, devices: 1 },
      { _id: expect.any(String), id: expect.any(String), name: 'Docas', location_id: location._id, devices: 0 },
    ]);

    const renamed = await ctx.request('PUT', `/api/devices-groups/${cold._id}`, as('aurora.adm'), { name: 'Câmaras' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Câmaras', devices: 1 });
    const takenRename = await ctx.request('PUT', `/api/devices-groups/${cold._id}`, as('aurora.adm'), { name: 'DOCAS' });
    expect(takenRename.statusCode).toBe(409);

    const removed = await ctx.request('DELETE', `/api/devices-groups/${cold._id}`, as('aurora.adm'));
    expect(removed.statusCode).toBe(200);
    expect(await groupRow(cold._id)).toBeUndefined();
    expect(await deviceByMac(ctx, 'C3:00:00:00:01:04')).toMatchObject({ location_id: location._id, group_id: null });
    await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: null });
  });
});

describe('placing a device (PUT /api/devices/{id})', () => {
  it('sets location and group, counts it, records the change, and moving it clears the old group', async () => {
    const store = await createLocation('aurora.adm', { ...PAULISTA, name: 'Mercado Bairro' });
    const fridges = await createGroup('aurora.adm', store._id, 'Geladeiras');
    const other = await createLocation('aurora.adm', { ...PAULISTA, name: 'Mercado Vila' });
    const otherGroup = await createGroup('aurora.adm', other._id, 'Balcão');
    const device = await deviceByMac(ctx, 'C3:00:00:00:01:03');

    const res = await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: store._id, group_id: fridges._id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await deviceByMac(ctx, device.mac)).toMatchObject({ location_id: store._id, group_id: fridges._id });
    const listed = ((await ctx.request('GET', '/api/locations', as('aurora.adm'))).json() as Location[]).find((l) => l._id === store._id);
    expect(listed?.devices).toBe(1);
    const events = (await ctx.request('GET', `/api/beacon-device/${device.mac}/logs`, as('aurora.adm'))).json().content as { message: string }[];
    expect(events[0]?.message).toBe('Configuração alterada: local "Mercado Bairro", grupo "Geladeiras"');

    const placed = (await ctx.request('GET', '/api/locations/devices', as('aurora.adm'))).json() as { _id: string; location_id: string | null; group_id: string | null }[];
    expect(placed.find((d) => d._id === device.id)).toMatchObject({ location_id: store._id, group_id: fridges._id });

    // A group of another location of the same enterprise is refused.
    const wrongGroup = await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { group_id: otherGroup._id });
    expect(wrongGroup.statusCode).toBe(400);
    expect(wrongGroup.json().error).toBe(LOCATION_MESSAGES.groupOfAnotherLocation);
    // Moving to another location without a group leaves it without one.
    const moved = await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: other._id });
    expect(moved.statusCode).toBe(200);
    expect(await deviceByMac(ctx, device.mac)).toMatchObject({ location_id: other._id, group_id: null });
    // No location: no group.
    await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: null });
    const orphanGroup = await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { group_id: otherGroup._id });
    expect(orphanGroup.statusCode).toBe(400);
    expect(orphanGroup.json().error).toBe(LOCATION_MESSAGES.groupWithoutLocation);
    const badId = await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: 'x' });
    expect(badId.statusCode).toBe(400);
    expect(await deviceByMac(ctx, device.mac)).toMatchObject({ location_id: null, group_id: null });
  });

  it('an ordinary user sees counts and devices of what is linked to them only', async () => {
    const store = await createLocation('aurora.adm', { ...PAULISTA, name: 'Frota' });
    for (const mac of ['C3:00:00:00:01:01', 'C3:00:00:00:01:04']) {
      const device = await deviceByMac(ctx, mac);
      expect((await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: store._id })).statusCode).toBe(200);
    }
    const forJoao = ((await ctx.request('GET', '/api/locations', as('joao.silva'))).json() as Location[]).find((l) => l._id === store._id);
    expect(forJoao?.devices).toBe(1);
    const forAdmin = ((await ctx.request('GET', '/api/locations', as('aurora.adm'))).json() as Location[]).find((l) => l._id === store._id);
    expect(forAdmin?.devices).toBe(2);
    const devices = (await ctx.request('GET', '/api/locations/devices', as('joao.silva'))).json() as { mac: string }[];
    expect(devices.map((d) => d.mac).sort()).toEqual(['C3:00:00:00:01:01', 'C3:00:00:00:01:02']);
  });
});

describe('removing a location', () => {
  it('keeps its devices, unplaced, removes its groups and records the change on each device', async () => {
    const location = await createLocation('aurora.adm', { ...PAULISTA, name: 'Loja Fechada' });
    const group = await createGroup('aurora.adm', location._id, 'Vitrine');
    const device = await deviceByMac(ctx, 'C3:00:00:00:01:02');
    await ctx.request('PUT', `/api/devices/${device.id}`, as('aurora.adm'), { location_id: location._id, group_id: group._id });

    const res = await ctx.request('DELETE', `/api/locations/${location._id}`, as('aurora.adm'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await locationRow(location._id)).toBeUndefined();
    expect(await groupRow(group._id)).toBeUndefined();
    expect(await deviceByMac(ctx, device.mac)).toMatchObject({ id: device.id, location_id: null, group_id: null });
    const events = (await ctx.request('GET', `/api/beacon-device/${device.mac}/logs`, as('aurora.adm'))).json().content as { message: string }[];
    expect(events[0]?.message).toBe('Local "Loja Fechada" removido: dispositivo sem local');
    expect((await ctx.request('DELETE', `/api/locations/${location._id}`, as('aurora.adm'))).statusCode).toBe(404);
  });
});

describe('address search (GEOCODER_URL)', () => {
  it('is off without a geocoder: the status says so and a search is refused with a pt-BR message', async () => {
    expect((await ctx.request('GET', '/api/geocoder', as('aurora.adm'))).json()).toEqual({ enabled: false });
    const res = await ctx.request('GET', '/api/geocoder/search?q=Avenida%20Paulista', as('aurora.adm'));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(LOCATION_MESSAGES.geocoderOff);
  });

  describe('with a Nominatim-compatible server', () => {
    let geocoder: FakeGeocoder;
    let geo: TestContext;
    let token: string;

    beforeAll(async () => {
      geocoder = await startFakeGeocoder();
      geo = await createTestContext({ demo: true, config: { geocoderUrl: geocoder.url + '/', geocoderTimeoutMs: 1500, geocoderUserMaxPerMinute: 8 } });
      token = (await geo.login('aurora.adm')).token;
    });
    afterAll(async () => {
      await geo.close();
      await geocoder.close();
    });

    const search = (q: string, who = token) => geo.request('GET', `/api/geocoder/search?q=${encodeURIComponent(q)}`, who);

    it('answers Brazilian places with numeric coordinates, leaves out impossible ones, and caches the answer', async () => {
      geocoder.answer = {
        kind: 'places',
        places: [
          { display_name: 'Avenida Paulista, Bela Vista, São Paulo', lat: '-23.5613', lon: '-46.6565' },
          { display_name: 'Lugar impossível', lat: '123', lon: '-46' },
          { display_name: 'Sem número', lat: 'abc', lon: '-46' },
        ],
      };
      expect((await geo.request('GET', '/api/geocoder', token)).json()).toEqual({ enabled: true });
      const res = await search('Avenida Paulista');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([{ display_name: 'Avenida Paulista, Bela Vista, São Paulo', latitude: -23.5613, longitude: -46.6565 }]);
      expect(geocoder.requests).toHaveLength(1);
      const params = geocoder.requests[0]!.params;
      expect(Object.fromEntries(params)).toMatchObject({ q: 'Avenida Paulista', format: 'jsonv2', countrycodes: 'br' });
      expect(geocoder.requests[0]!.headers['user-agent']).toContain('Sentinela');
      // The same search (any case or spacing) comes from the cache.
      expect((await search('  avenida   PAULISTA ')).json()).toHaveLength(1);
      expect(geocoder.requests).toHaveLength(1);
    });

    it('says so in pt-BR when the geocoder fails, answers garbage or does not answer in time', async () => {
      for (const [i, answer] of ([{ kind: 'status', status: 500 }, { kind: 'garbage' }, { kind: 'hang' }] as const).entries()) {
        geocoder.answer = answer;
        const res = await search(`Rua que falha ${i}`);
        expect(res.statusCode).toBe(503);
        expect(res.json().error).toBe(LOCATION_MESSAGES.geocoderFailed);
      }
    });

    it('refuses short or hostile queries before asking anyone', async () => {
      const asked = geocoder.requests.length;
      expect((await search('ab')).json().error).toContain('A busca deve ter no mínimo 3 caracteres.');
      expect((await search('Rua\u0000A')).statusCode).toBe(400);
      expect(geocoder.requests.length).toBe(asked);
    });

    it('limits searches per user and minute, and is for those who manage locations', async () => {
      geocoder.answer = { kind: 'places', places: [] };
      const maria = (await geo.login('maria.souza')).token;
      expect((await search('Rua das Flores', maria)).statusCode).toBe(403);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await search(`Rua limite ${i}`)).statusCode);
      const limited = await search('Rua limite final');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe(LOCATION_MESSAGES.geocoderBusy);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    });
  });
});

describe('live map feed (Socket.IO)', () => {
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });

  async function client(token: string) {
    const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
    sockets.push(socket);
    const received: unknown[] = [];
    socket.on('location-devices', (payload: unknown) => received.push(LocationDevicesEvent.parse(payload)));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const ack = LocationsSubscribeAck.parse(await socket.emitWithAck('subscribe-locations', {}));
    return { socket, received, ack, next: () => new Promise((resolve) => socket.once('location-devices', resolve)) };
  }

  it("sends each subscriber the newest values of the devices it may see, and nothing of other enterprises'", async () => {
    const aurora = await client(as('aurora.adm'));
    const joao = await client(as('joao.silva'));
    const vida = await client(as('vida.adm'));
    expect([aurora.ack, joao.ack, vida.ack]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);

    ctx.clock.advance(60_000);
    const ts = ctx.clock.now().toISOString();
    const auroraNext = aurora.next();
    const joaoNext = joao.next();
    // A device of Aurora not linked to João, then one linked to him.
    expect((await postReadings(ctx, [{ mac: 'C3:00:00:00:01:04', ts, temperature: 12.5 }])).statusCode).toBe(200);
    const freezer = await deviceByMac(ctx, 'C3:00:00:00:01:04');
    expect(await auroraNext).toEqual([{ _id: freezer.id, temperature: 12.5, humidity: expect.any(Number), battery: expect.any(Number), lastSyncDate: ts }]);
    expect((await postReadings(ctx, [{ mac: 'C3:00:00:00:01:01', ts, temperature: 3 }])).statusCode).toBe(200);
    const truck = await deviceByMac(ctx, 'C3:00:00:00:01:01');
    expect(await joaoNext).toEqual([{ _id: truck.id, temperature: 3, humidity: expect.any(Number), battery: expect.any(Number), lastSyncDate: ts }]);
    // Then one of Vida: its admin receives it, and had received nothing before it.
    const vidaNext = vida.next();
    expect((await postReadings(ctx, [{ mac: 'C3:00:00:00:02:01', ts, temperature: 4 }])).statusCode).toBe(200);
    await vidaNext;
    expect(vida.received).toHaveLength(1);
    // João got only his device (messages arrive in order: the freezer's would have come first).
    expect(joao.received).toHaveLength(1);
  });

  it('follows a change of what a user may see (access.changed): a newly linked device is sent, an unlinked one no more', async () => {
    const joao = await client(as('joao.silva'));
    const joaoId = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).id;
    const chamber = await deviceByMac(ctx, 'C3:00:00:00:01:03');
    const room = () => ctx.app.io.of('/').adapter.rooms.get(`locations:device:${chamber.id}`)?.size ?? 0;
    expect(room()).toBe(0);

    // Linked (as the device linking screens do), then announced: João's socket joins the device's room.
    await ctx.db.insertInto('device_users').values({ device_id: chamber.id, user_id: joaoId }).execute();
    ctx.services.events.emit('access.changed', { userId: joaoId });
    await vi.waitFor(() => expect(room()).toBe(1));
    ctx.clock.advance(60_000);
    const next = joao.next();
    expect((await postReadings(ctx, [{ mac: chamber.mac, ts: ctx.clock.now().toISOString(), temperature: -17 }])).statusCode).toBe(200);
    expect(await next).toEqual([expect.objectContaining({ _id: chamber.id, temperature: -17 })]);

    // Unlinked: the room is left, and the device's next reading does not reach him (his own truck's, after it, does).
    await ctx.db.deleteFrom('device_users').where('device_id', '=', chamber.id).where('user_id', '=', joaoId).execute();
    ctx.services.events.emit('access.changed', { userId: joaoId });
    await vi.waitFor(() => expect(room()).toBe(0));
    ctx.clock.advance(60_000);
    const ts = ctx.clock.now().toISOString();
    const truckNext = joao.next();
    await postReadings(ctx, [{ mac: chamber.mac, ts, temperature: -18 }]);
    await postReadings(ctx, [{ mac: 'C3:00:00:00:01:01', ts, temperature: 4 }]);
    const truck = await deviceByMac(ctx, 'C3:00:00:00:01:01');
    expect(await truckNext).toEqual([expect.objectContaining({ _id: truck.id, temperature: 4 })]);
    expect(joao.received).toHaveLength(2);
  });

  it('refuses visitors', async () => {
    const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    expect(await socket.emitWithAck('subscribe-locations', {})).toEqual({ ok: false, error: MSG.unauthenticated });
  });
});
