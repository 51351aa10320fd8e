import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Profile, Travel, TravelListResponse, TravelLocation, TravelReading, TRAVEL_STATUS_NAMES, z, type TravelStatusId } from '@sentinela/contract';
import { hashPassword } from '../src/modules/auth/service';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { CODES, MACS, PLACES, deviceId, travelId, userId } from './travel-helpers';

/** Travels over HTTP (T1–T5, T8, T9): shapes of the documents, scopes, lifecycle, the Localizador. */
let ctx: TestContext;
let admin: string;
let aurora: string;
let joao: string;
let maria: string;
let viewer: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  // A restricted client profile of Aurora, who may read travels but not manage them.
  const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('users')
    .values({ name: 'Cliente Aurora', username: 'cliente.aurora', email: 'cliente@aurora.example', phone: null, password_hash: await hashPassword(DEMO_PASSWORD), profile_id: Profile.ClientViewer, enterprise_id: enterprise.id, telegram_chat_id: null, verified: true })
    .execute();
  const token = async (username: string) => (await ctx.login(username)).token;
  [admin, aurora, joao, maria, viewer] = [await token('admin'), await token('aurora.adm'), await token('joao.silva'), await token('maria.souza'), await token('cliente.aurora')];
  for (const [name, code] of Object.entries(CODES)) ids[name] = await travelId(ctx, code);
});
afterAll(() => ctx.close());

const list = async (token: string) => {
  const res = await ctx.request('GET', '/api/travels?paginate=false', token);
  expect(res.statusCode).toBe(200);
  return TravelListResponse.parse(res.json()).data;
};

describe('GET /api/travels', () => {
  it('answers data.data with the travels of the enterprise, newest first, in the documents’ shape', async () => {
    const { data, total } = await list(aurora);
    expect(total).toBe(3);
    expect(data.map((t) => t.code).sort()).toEqual([CODES.auroraFinished, CODES.auroraInProgress, CODES.auroraNotStarted].sort());
    const dates = data.map((t) => t.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);

    const travel = data.find((t) => t.code === CODES.auroraInProgress)!;
    expect(travel).toMatchObject({
      _id: ids.auroraInProgress,
      status: 1,
      status_name: 'Em andamento',
      user: { _id: await userId(ctx, 'joao.silva'), name: 'João Silva' },
      enterprise: { name: 'Aurora Alimentos' },
      origin: { address: expect.stringContaining('São Paulo'), location: [-23.5653, -46.6515] },
      destiny: { address: expect.stringContaining('Rio de Janeiro'), location: [-22.8864, -43.2216] },
      finished_at: null,
    });
    expect(travel.last_position).toHaveLength(2);
    expect(travel.devices).toEqual([
      {
        _id: await deviceId(ctx, MACS.truck1),
        name: 'Baú Caminhão 01',
        mac: MACS.truck1,
        battery: { value: expect.any(Number) },
        temperature: { value: expect.any(Number) },
        humidity: { value: expect.any(Number) },
        last_update_date: expect.any(String),
        expectedIntervalSeconds: expect.any(Number),
        config: { temperature: { min: 0, max: 8 }, humidity: { min: 30, max: 90 } },
      },
    ]);
  });

  it('pages when asked', async () => {
    const res = await ctx.request('GET', '/api/travels?page=2&limit=2', aurora);
    const { data } = TravelListResponse.parse(res.json());
    expect(data).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(data.data).toHaveLength(1);
  });

  it('shows a finished travel’s cards as its devices’ last readings within it', async () => {
    const travel = (await list(aurora)).data.find((t) => t.code === CODES.auroraFinished)!;
    expect(travel).toMatchObject({ status: 2, status_name: 'Finalizada', finished_at: expect.any(String) });
    const card = travel.devices[0]!;
    expect(card.mac).toBe(MACS.truck2);
    expect(Date.parse(card.last_update_date!)).toBeLessThanOrEqual(Date.parse(travel.finished_at!));
    expect(Date.parse(card.last_update_date!)).toBeGreaterThan(Date.parse(travel.finished_at!) - 10 * 60_000);
  });

  it('gives the super admin every enterprise’s travels', async () => {
    expect((await list(admin)).total).toBe(5);
  });

  it('gives an ordinary user only travels they are responsible for or that carry their devices', async () => {
    // A travel of Aurora with neither João as responsible nor one of his devices.
    const created = await ctx.request('POST', '/api/travels', aurora, {
      origin: PLACES.campinas, destiny: PLACES.santos, responsible_user_id: await userId(ctx, 'aurora.adm'),
      devices: [{ device_id: await deviceId(ctx, MACS.chamber) }],
    });
    expect(created.statusCode).toBe(201);
    const hidden = created.json()._id as string;

    const codes = (await list(joao)).data.map((t) => t.code).sort();
    // AUR9P5D2LC: aurora.adm is responsible, but it carries truck 02, linked to João.
    expect(codes).toEqual([CODES.auroraFinished, CODES.auroraInProgress, CODES.auroraNotStarted].sort());
    for (const url of [`/api/travels/${hidden}`, `/api/travels/${hidden}/locations`, `/api/travels/${hidden}/devices/${MACS.chamber}/history`]) {
      const res = await ctx.request('GET', url, joao);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('Viagem não encontrada.');
    }
    // Made responsible, he sees it.
    await ctx.request('PUT', `/api/travels/${hidden}`, aurora, { responsible_user_id: await userId(ctx, 'joao.silva') });
    expect((await ctx.request('GET', `/api/travels/${hidden}`, joao)).statusCode).toBe(200);
    await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', hidden).execute();
  });
});

describe('a travel of another enterprise', () => {
  const foreign = () => ids.vidaInProgress!;

  it.each([
    ['GET', () => `/api/travels/${foreign()}`],
    ['GET', () => `/api/travels/${foreign()}/locations`],
    ['GET', () => `/api/travels/${foreign()}/devices/${MACS.box2}/history`],
  ] as const)('%s %s is not found', async (method, url) => {
    const res = await ctx.request(method, url(), aurora);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Viagem não encontrada.');
  });

  it('is not listed', async () => {
    expect((await list(aurora)).data.some((t) => t.enterprise?.name === 'Vida Farma')).toBe(false);
  });

  it('cannot be edited, nor its device, nor its status, and stays as it was', async () => {
    const device = await ctx.request('PUT', '/api/travels/edit-travel-device', aurora, {
      travel_id: foreign(), device_id: await deviceId(ctx, MACS.box2), name: 'Roubado', config: {},
    });
    expect(device.statusCode).toBe(404);
    const status = await ctx.request('POST', `/api/travels/${foreign()}/status`, aurora, { status: 2 });
    expect(status.statusCode).toBe(404);
    const edit = await ctx.request('PUT', `/api/travels/${foreign()}`, aurora, { destiny: PLACES.santos });
    expect(edit.statusCode).toBe(404);

    const travel = Travel.parse((await ctx.request('GET', `/api/travels/${foreign()}`, maria)).json());
    expect(travel).toMatchObject({ status: 1, destiny: { address: expect.stringContaining('Rio de Janeiro') } });
    expect(travel.devices[0]!.name).toBe('Caixa Térmica 02');
  });
});

describe('GET /api/travels/{id}/devices/{mac}/history and /locations', () => {
  it('answers the device’s readings during the travel, oldest first', async () => {
    const res = await ctx.request('GET', `/api/travels/${ids.auroraInProgress}/devices/${MACS.truck1.toLowerCase()}/history`, joao);
    expect(res.statusCode).toBe(200);
    const readings = z.array(TravelReading).parse(res.json());
    expect(readings.length).toBeGreaterThan(60); // 6 hours, every 5 minutes
    expect(readings.every((r) => r.travelId === ids.auroraInProgress && r.mac === MACS.truck1 && r.lat !== null)).toBe(true);
    const times = readings.map((r) => r.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it('answers an empty history for a travel not started, and 404 for a device not on the travel', async () => {
    const empty = await ctx.request('GET', `/api/travels/${ids.auroraNotStarted}/devices/${MACS.truck2}/history`, joao);
    expect(empty.json()).toEqual([]);
    const other = await ctx.request('GET', `/api/travels/${ids.auroraInProgress}/devices/${MACS.truck2}/history`, joao);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Dispositivo não encontrado nesta viagem.');
  });

  it('answers the travelled path oldest first, one point per position', async () => {
    const res = await ctx.request('GET', `/api/travels/${ids.auroraInProgress}/locations`, joao);
    expect(res.statusCode).toBe(200);
    const path = z.array(TravelLocation).parse(res.json());
    expect(path.length).toBeGreaterThan(60);
    const times = path.map((p) => p.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(path[0]!.location[0]).toBeCloseTo(-23.5653, 1); // leaves São Paulo
  });

  it('attaches readings ingested during the travel to it: history, path and last position', async () => {
    ctx.clock.advance(60_000); // past the demo's last readings
    const ts = [at(ctx, -30), at(ctx, -20), at(ctx, -10)];
    const res = await postReadings(ctx, [
      { mac: MACS.truck1, ts: ts[0], temperature: 3.5, humidity: 61, battery: 88, lat: -23.2, lng: -45.9 },
      { mac: MACS.truck1, ts: ts[1], temperature: 3.6, lat: -23.2, lng: -45.9 }, // parked: same place
      { mac: MACS.truck1, ts: ts[2], temperature: 3.7, lat: -23.1, lng: -45.8 },
      { mac: MACS.box1, ts: ts[2], temperature: 5, lat: -18, lng: -44 }, // its travel is paused: not attached
    ]);
    expect(res.json()).toMatchObject({ accepted: 4, rejected: [] });

    const history = z.array(TravelReading).parse((await ctx.request('GET', `/api/travels/${ids.auroraInProgress}/devices/${MACS.truck1}/history`, joao)).json());
    expect(history.slice(-3).map((r) => [r.createdAt, r.temperature])).toEqual([[ts[0], 3.5], [ts[1], 3.6], [ts[2], 3.7]]);

    const path = z.array(TravelLocation).parse((await ctx.request('GET', `/api/travels/${ids.auroraInProgress}/locations`, joao)).json());
    expect(path.slice(-2)).toEqual([
      { createdAt: ts[0], location: [-23.2, -45.9], mac: MACS.truck1 },
      { createdAt: ts[2], location: [-23.1, -45.8], mac: MACS.truck1 },
    ]);

    const travel = Travel.parse((await ctx.request('GET', `/api/travels/${ids.auroraInProgress}`, joao)).json());
    expect(travel.last_position).toEqual([-23.1, -45.8]);
    expect(travel.devices[0]).toMatchObject({ temperature: { value: 3.7 }, last_update_date: ts[2] });

    const paused = z.array(TravelReading).parse((await ctx.request('GET', `/api/travels/${ids.vidaPaused}/devices/${MACS.box1}/history`, maria)).json());
    expect(paused.some((r) => r.createdAt === ts[2])).toBe(false);
  });
});

describe('GET /api/travels/localizator/{cod}', () => {
  it('gives a visitor the public view: map and devices, no responsible user', async () => {
    const res = await ctx.request('GET', `/api/travels/localizator/${CODES.auroraInProgress}`);
    expect(res.statusCode).toBe(200);
    const travel = Travel.parse(res.json());
    expect(travel).toMatchObject({ _id: ids.auroraInProgress, user: null, status: 1 });
    expect(travel.devices.map((d) => d.mac)).toEqual([MACS.truck1]);
    expect(travel.last_position).not.toBeNull();
  });

  it('reads a code typed in lower case, with spaces or dashes', async () => {
    const res = await ctx.request('GET', `/api/travels/localizator/${encodeURIComponent(' aur7k-2m9qx ')}`);
    expect(res.statusCode).toBe(200);
  });

  it('gives a signed-in user who may see the travel the full view, and others the public one', async () => {
    expect((await ctx.request('GET', `/api/travels/localizator/${CODES.auroraInProgress}`, joao)).json().user).toMatchObject({ name: 'João Silva' });
    expect((await ctx.request('GET', `/api/travels/localizator/${CODES.vidaInProgress}`, aurora)).json().user).toBeNull();
  });

  it('answers a wrong code with 404', async () => {
    const res = await ctx.request('GET', '/api/travels/localizator/ZZZZZZZZZZ');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Viagem não encontrada para este código.');
  });

  it('keeps a finished travel’s code working until its link expires (ADR 36; expiry in tracking-links.test.ts)', async () => {
    const res = await ctx.request('GET', `/api/travels/localizator/${CODES.auroraFinished}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 2, user: null });
    expect((await ctx.request('GET', `/api/travels/localizator/${CODES.auroraFinished}`, aurora)).json().user).not.toBeNull();
  });

  it('stops a burst of guesses from one address with 429, in Portuguese', async () => {
    const guess = (i: number) => ctx.app.inject({ method: 'GET', url: `/api/travels/localizator/GUESS${String(i).padStart(5, '2')}`, remoteAddress: '203.0.113.7' });
    const answers = [];
    for (let i = 0; i < 31; i++) answers.push((await guess(i)).statusCode);
    expect(answers.slice(0, 30).every((s) => s === 404)).toBe(true);
    const blocked = await guess(31);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('Muitas consultas ao localizador. Aguarde um minuto e tente novamente.');
    // Even the right code, from that address; other addresses are not affected.
    expect((await ctx.app.inject({ method: 'GET', url: `/api/travels/localizator/${CODES.auroraInProgress}`, remoteAddress: '203.0.113.7' })).statusCode).toBe(429);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/travels/localizator/${CODES.auroraInProgress}`, remoteAddress: '203.0.113.8' })).statusCode).toBe(200);
  });
});

describe('POST /api/travels', () => {
  const valid = async () => ({
    origin: PLACES.campinas,
    destiny: PLACES.santos,
    responsible_user_id: await userId(ctx, 'aurora.adm'),
    devices: [{ device_id: await deviceId(ctx, MACS.freezer), name: 'Freezer na carreta', config: { temperature: { min: -22, max: -16 } } }],
  });
  const post = (token: string, body: unknown) => ctx.request('POST', '/api/travels', token, body);

  it('creates a travel not started, with an unguessable tracking code, and records it on the device', async () => {
    const res = await post(aurora, await valid());
    expect(res.statusCode).toBe(201);
    const travel = Travel.parse(res.json());
    expect(travel.code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/);
    expect(travel).toMatchObject({ status: 0, status_name: 'Não iniciada', started_at: null, user: { name: 'Aurora Administração' }, enterprise: { name: 'Aurora Alimentos' } });
    expect(travel.devices).toEqual([expect.objectContaining({ mac: MACS.freezer, name: 'Freezer na carreta', config: { temperature: { min: -22, max: -16 }, humidity: { min: 20, max: 80 } } })]);
    const events = (await ctx.request('GET', `/api/beacon-device/${MACS.freezer}/logs`, aurora)).json().content;
    expect(events[0]).toMatchObject({ type: 'travel', type_formatted: 'Viagem', message: expect.stringContaining('Incluído na viagem'), user: { name: 'Aurora Administração' } });
    await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', travel._id).execute();
  });

  it('refuses a form with missing fields, field by field', async () => {
    const res = await post(aurora, {});
    expect(res.statusCode).toBe(400);
    const paths = res.json().issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['origin', 'destiny', 'responsible_user_id', 'devices']));
    expect(res.json().issues[0].message).toBe('Campo obrigatório.');

    const noPlace = await post(aurora, { ...(await valid()), origin: { address: 'Campinas', location: [-95, 10] } });
    expect(noPlace.statusCode).toBe(400);
    expect(noPlace.json().error).toContain('Latitude fora da faixa permitida (-90 a 90).');
    const noDevices = await post(aurora, { ...(await valid()), devices: [] });
    expect(noDevices.json().error).toContain('Escolha ao menos um dispositivo.');
  });

  it('refuses a device of another enterprise, and one an ordinary user is not linked to', async () => {
    const travels = async () => (await ctx.db.selectFrom('travels').select('id').execute()).length;
    const before = await travels();
    const foreign = await post(aurora, { ...(await valid()), devices: [{ device_id: await deviceId(ctx, MACS.vaccines) }] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Dispositivo não encontrado nesta empresa.');
    const notHis = await post(joao, { ...(await valid()), responsible_user_id: await userId(ctx, 'joao.silva') });
    expect(notHis.statusCode).toBe(404);
    expect(notHis.json().error).toBe('Dispositivo não encontrado nesta empresa.');
    const unknown = await post(aurora, { ...(await valid()), devices: [{ device_id: '00000000-0000-4000-8000-000000000000' }] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Dispositivo não encontrado nesta empresa.');
    expect(await travels()).toBe(before);
  });

  it('refuses a responsible user of another enterprise or unknown (404), and an inactive one (400)', async () => {
    for (const [token, responsible] of [
      [aurora, await userId(ctx, 'maria.souza')],
      [aurora, '00000000-0000-4000-8000-000000000000'],
      [admin, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await post(token, { ...(await valid()), responsible_user_id: responsible });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Responsável não encontrado nesta empresa.');
    }
    const joaoId = await userId(ctx, 'joao.silva');
    await ctx.db.updateTable('users').set({ disabled: true }).where('id', '=', joaoId).execute();
    try {
      const inactive = await post(aurora, { ...(await valid()), responsible_user_id: joaoId });
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json().error).toBe('O responsável deve ser um usuário ativo da mesma empresa da viagem.');
    } finally {
      await ctx.db.updateTable('users').set({ disabled: false }).where('id', '=', joaoId).execute();
    }
  });

  it('refuses an enterprise the caller does not reach, or that does not exist, as not found', async () => {
    const vida = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
    const foreign = await post(aurora, { ...(await valid()), enterprise_id: vida });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Empresa não encontrada.');
    const unknown = await post(admin, { ...(await valid()), enterprise_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Empresa não encontrada.');
  });

  it('plans a travel for a device that is on a travel in progress; refuses only to start it while the other runs (issue 26)', async () => {
    const res = await post(aurora, { ...(await valid()), devices: [{ device_id: await deviceId(ctx, MACS.truck1) }] });
    expect(res.statusCode, res.body).toBe(201);
    const planned = Travel.parse(res.json());
    expect(planned.status).toBe(0);
    const start = await ctx.request('POST', `/api/travels/${planned._id}/status`, aurora, { status: 1 });
    expect(start.statusCode).toBe(409);
    expect(start.json().error).toBe(
      'O dispositivo "Baú Caminhão 01" está em outra viagem em andamento ("Av. Paulista, 1000 - Bela Vista, São Paulo - SP" → "Av. Brasil, 500 - Caju, Rio de Janeiro - RJ"). Pause ou finalize aquela viagem antes de iniciar esta.',
    );
    expect(Travel.parse((await ctx.request('GET', `/api/travels/${planned._id}`, aurora)).json()).status).toBe(0);
    // With the first one paused, the second may run; the first may not resume while the second runs.
    expect((await ctx.request('POST', `/api/travels/${ids.auroraInProgress}/status`, aurora, { status: 3 })).statusCode).toBe(200);
    try {
      expect((await ctx.request('POST', `/api/travels/${planned._id}/status`, aurora, { status: 1 })).statusCode).toBe(200);
      const resume = await ctx.request('POST', `/api/travels/${ids.auroraInProgress}/status`, aurora, { status: 1 });
      expect(resume.statusCode).toBe(409);
      expect(resume.json().error).toMatch(/^O dispositivo "Baú Caminhão 01" está em outra viagem em andamento \(/);
      // Readings go to the travel in progress only.
      ctx.clock.advance(1000);
      expect((await postReadings(ctx, [{ mac: MACS.truck1, ts: at(ctx, 0), temperature: 5 }])).statusCode).toBe(200);
      const reading = await ctx.db.selectFrom('readings').select('travel_id').where('device_num', '=', (await deviceByMac(ctx, MACS.truck1)).num).orderBy('ts', 'desc').executeTakeFirstOrThrow();
      expect(reading.travel_id).toBe(planned._id);
    } finally {
      await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', planned._id).execute();
      expect((await ctx.request('POST', `/api/travels/${ids.auroraInProgress}/status`, aurora, { status: 1 })).statusCode).toBe(200);
    }
  });

  it('refuses to add to a travel in progress a device that runs on another one; a plan may take it', async () => {
    const truck1 = await deviceId(ctx, MACS.truck1);
    const plan = await ctx.request('PUT', `/api/travels/${ids.auroraNotStarted}`, aurora, { devices: [{ device_id: await deviceId(ctx, MACS.truck2) }, { device_id: truck1 }] });
    expect(plan.statusCode, plan.body).toBe(200);
    const running = await post(aurora, { ...(await valid()), devices: [{ device_id: await deviceId(ctx, MACS.freezer) }] });
    const runningId = running.json()._id as string;
    expect((await ctx.request('POST', `/api/travels/${runningId}/status`, aurora, { status: 1 })).statusCode).toBe(200);
    try {
      const add = await ctx.request('PUT', `/api/travels/${runningId}`, aurora, { devices: [{ device_id: await deviceId(ctx, MACS.freezer) }, { device_id: truck1 }] });
      expect(add.statusCode).toBe(409);
      expect(add.json().error).toMatch(/^O dispositivo "Baú Caminhão 01" está em outra viagem em andamento \(.*\)\. Pause ou finalize aquela viagem antes de incluí-lo nesta, que já está em andamento\.$/);
    } finally {
      await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', runningId).execute();
      expect((await ctx.request('PUT', `/api/travels/${ids.auroraNotStarted}`, aurora, { devices: [{ device_id: await deviceId(ctx, MACS.truck2) }] })).statusCode).toBe(200);
    }
  });

  it('refuses the same device twice and limits out of order', async () => {
    const freezer = await deviceId(ctx, MACS.freezer);
    const twice = await post(aurora, { ...(await valid()), devices: [{ device_id: freezer }, { device_id: freezer }] });
    expect(twice.json().error).toBe('O mesmo dispositivo foi escolhido mais de uma vez.');
    const limits = await post(aurora, { ...(await valid()), devices: [{ device_id: freezer, config: { temperature: { min: 5, max: 2 } } }] });
    expect(limits.statusCode).toBe(400);
    expect(limits.json().error).toBe('A temperatura mínima deve ser menor que a máxima.');
  });

  it('lets an ordinary user create one with his own devices, and refuses restricted clients', async () => {
    const body = { ...(await valid()), responsible_user_id: await userId(ctx, 'joao.silva'), devices: [{ device_id: await deviceId(ctx, MACS.truck2) }] };
    const mine = await post(joao, body);
    expect(mine.statusCode).toBe(201);
    await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', mine.json()._id).execute();
    const client = await post(viewer, body);
    expect(client.statusCode).toBe(403);
  });

  it('lets the super admin create one in the responsible’s enterprise', async () => {
    const res = await post(admin, await valid());
    expect(res.statusCode).toBe(201);
    expect(res.json().enterprise.name).toBe('Aurora Alimentos');
    await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', res.json()._id).execute();
  });
});

describe('POST /api/travels/{id}/status', () => {
  const statuses: TravelStatusId[] = [0, 1, 2, 3];
  const allowed = new Set(['0→1', '1→3', '1→2', '3→1', '3→2']);
  const pairs = statuses.flatMap((from) => statuses.map((to) => [from, to] as const));

  /** A fresh travel of the freezer in the given status (set directly: each test checks one transition). */
  async function travelIn(status: TravelStatusId): Promise<string> {
    const res = await ctx.request('POST', '/api/travels', aurora, {
      origin: PLACES.campinas, destiny: PLACES.santos, responsible_user_id: await userId(ctx, 'aurora.adm'),
      devices: [{ device_id: await deviceId(ctx, MACS.freezer) }],
    });
    expect(res.statusCode).toBe(201);
    const started = status === 0 ? null : new Date(ctx.clock.now().getTime() - 3_600_000);
    await ctx.db.updateTable('travels').set({ status, started_at: started }).where('id', '=', res.json()._id).execute();
    return res.json()._id;
  }

  it.each(pairs)('%i → %i', async (from, to) => {
    const id = await travelIn(from);
    const before = await ctx.db.selectFrom('travels').select(['started_at', 'finished_at']).where('id', '=', id).executeTakeFirstOrThrow();
    const res = await ctx.request('POST', `/api/travels/${id}/status`, aurora, { status: to });
    if (allowed.has(`${from}→${to}`)) {
      expect(res.statusCode).toBe(200);
      const travel = Travel.parse(res.json());
      expect(travel).toMatchObject({ status: to, status_name: TRAVEL_STATUS_NAMES[to] });
      if (to === 1) expect(travel.started_at).toBe(from === 0 ? ctx.clock.now().toISOString() : before.started_at!.toISOString());
      expect(travel.finished_at).toBe(to === 2 ? ctx.clock.now().toISOString() : null);
    } else {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(`Não é possível passar de ${TRAVEL_STATUS_NAMES[from]} para ${TRAVEL_STATUS_NAMES[to]}.`);
      expect((await ctx.db.selectFrom('travels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe(from);
    }
    await ctx.db.updateTable('travels').set({ status: 2 }).where('id', '=', id).execute();
  });

  it('refuses an unknown status in Portuguese', async () => {
    const res = await ctx.request('POST', `/api/travels/${ids.auroraNotStarted}/status`, aurora, { status: 7 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Status de viagem inválido.');
  });

  it('will not start a travel whose device is travelling elsewhere', async () => {
    // Truck 02 is on the not-started travel; a second travel takes it on the road first.
    const other = await ctx.request('POST', '/api/travels', joao, {
      origin: PLACES.campinas, destiny: PLACES.santos, responsible_user_id: await userId(ctx, 'joao.silva'),
      devices: [{ device_id: await deviceId(ctx, MACS.truck2) }],
    });
    expect((await ctx.request('POST', `/api/travels/${other.json()._id}/status`, joao, { status: 1 })).statusCode).toBe(200);
    const res = await ctx.request('POST', `/api/travels/${ids.auroraNotStarted}/status`, joao, { status: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(
      'O dispositivo "Baú Caminhão 02" está em outra viagem em andamento ("Rod. Anhanguera, km 100 - Campinas - SP" → "Porto de Santos - Santos - SP"). Pause ou finalize aquela viagem antes de iniciar esta.',
    );
    expect((await ctx.request('POST', `/api/travels/${other.json()._id}/status`, joao, { status: 2 })).statusCode).toBe(200);
  });
});

describe('PUT /api/travels/{id}', () => {
  it('edits places, responsible and devices of a travel not finished; refuses a finished one', async () => {
    const res = await ctx.request('PUT', `/api/travels/${ids.auroraNotStarted}`, aurora, {
      destiny: PLACES.santos,
      devices: [{ device_id: await deviceId(ctx, MACS.truck2) }, { device_id: await deviceId(ctx, MACS.chamber), name: 'Câmara móvel' }],
    });
    expect(res.statusCode).toBe(200);
    const travel = Travel.parse(res.json());
    expect(travel.destiny).toEqual(PLACES.santos);
    expect(travel.devices.map((d) => d.name).sort()).toEqual(['Baú Caminhão 02', 'Câmara móvel']);

    // A device kept without a name or limits keeps the ones it has in this travel.
    const kept = await ctx.request('PUT', `/api/travels/${ids.auroraNotStarted}`, aurora, {
      devices: [{ device_id: await deviceId(ctx, MACS.truck2) }, { device_id: await deviceId(ctx, MACS.chamber) }],
    });
    expect(Travel.parse(kept.json()).devices.map((d) => d.name).sort()).toEqual(['Baú Caminhão 02', 'Câmara móvel']);

    const back = await ctx.request('PUT', `/api/travels/${ids.auroraNotStarted}`, aurora, { devices: [{ device_id: await deviceId(ctx, MACS.truck2) }] });
    expect(back.json().devices).toHaveLength(1);
    const events = (await ctx.request('GET', `/api/beacon-device/${MACS.chamber}/logs`, aurora)).json().content;
    expect(events[0].message).toContain('Retirado da viagem');

    const finished = await ctx.request('PUT', `/api/travels/${ids.auroraFinished}`, aurora, { destiny: PLACES.santos });
    expect(finished.statusCode).toBe(409);
    expect(finished.json().error).toBe('Esta viagem já foi finalizada.');
  });
});

describe('PUT /api/travels/edit-travel-device', () => {
  it('sets a device’s name and limits within the travel only, and records a device event', async () => {
    const device = await deviceId(ctx, MACS.truck1);
    // The documents' device config holds limits as strings: they are read like PUT /api/devices/{id} reads them.
    const res = await ctx.request('PUT', '/api/travels/edit-travel-device', joao, {
      travel_id: ids.auroraInProgress, device_id: device, name: 'Baú SP-RJ', config: { temperature: { min: '2,5', max: '7' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Travel.parse(res.json()).devices[0]!.config.temperature).toEqual({ min: 2.5, max: 7 });
    const text = await ctx.request('PUT', '/api/travels/edit-travel-device', joao, {
      travel_id: ids.auroraInProgress, device_id: device, name: 'Baú SP-RJ', config: { temperature: { min: 'frio' } },
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toMatch(/^Temperatura mínima inválida: esperado um número\./);

    const ok = await ctx.request('PUT', '/api/travels/edit-travel-device', joao, {
      travel_id: ids.auroraInProgress, device_id: device, name: 'Baú SP-RJ', config: { temperature: { min: 1, max: 6 } },
    });
    expect(ok.statusCode).toBe(200);
    expect(Travel.parse(ok.json()).devices[0]).toMatchObject({ name: 'Baú SP-RJ', config: { temperature: { min: 1, max: 6 }, humidity: { min: 30, max: 90 } } });
    const own = await ctx.db.selectFrom('devices').select(['name', 'temperature_min']).where('id', '=', device).executeTakeFirstOrThrow();
    expect(own).toEqual({ name: 'Baú Caminhão 01', temperature_min: 0 });
    const events = (await ctx.request('GET', `/api/beacon-device/${MACS.truck1}/logs`, joao)).json().content;
    expect(events[0]).toMatchObject({ type: 'travel', message: expect.stringContaining('Baú SP-RJ'), user: { name: 'João Silva' } });

    // null clears the travel's limit: the device's applies again.
    const cleared = await ctx.request('PUT', '/api/travels/edit-travel-device', joao, {
      travel_id: ids.auroraInProgress, device_id: device, name: 'Baú SP-RJ', config: { temperature: { min: null } },
    });
    expect(cleared.json().devices[0].config.temperature).toEqual({ min: 0, max: 6 });
  });

  it('refuses limits out of order, a device not on the travel and a finished travel', async () => {
    const base = { travel_id: ids.auroraInProgress, device_id: await deviceId(ctx, MACS.truck1), name: 'Baú', config: {} };
    const limits = await ctx.request('PUT', '/api/travels/edit-travel-device', aurora, { ...base, config: { humidity: { min: 95 } } });
    expect(limits.statusCode).toBe(400);
    expect(limits.json().error).toBe('A umidade mínima deve ser menor que a máxima.');
    const other = await ctx.request('PUT', '/api/travels/edit-travel-device', aurora, { ...base, device_id: await deviceId(ctx, MACS.freezer) });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Dispositivo não encontrado nesta viagem.');
    const finished = await ctx.request('PUT', '/api/travels/edit-travel-device', aurora, { ...base, travel_id: ids.auroraFinished, device_id: await deviceId(ctx, MACS.truck2) });
    expect(finished.statusCode).toBe(409);
    const noName = await ctx.request('PUT', '/api/travels/edit-travel-device', aurora, { ...base, name: ' ' });
    expect(noName.json().error).toContain('Informe o nome do dispositivo.');
    expect((await ctx.request('PUT', '/api/travels/edit-travel-device', viewer, base)).statusCode).toBe(403);
  });
});
