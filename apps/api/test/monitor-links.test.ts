import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { MonitorSnapshotAck, MonitorView } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { CODES, MACS, deviceId, travelId } from './travel-helpers';

/** Read-only monitor links for wall displays (issue 11, item 6; ADR 26). */
let ctx: TestContext;
let url: string;
const ids: Record<string, string> = {};
const sockets: Socket[] = [];
const DAY = 24 * 60 * 60 * 1000;
/** Sessions signed in once (logins per minute are limited). */
const signedIn: Record<string, { token: string; user: { _id: string } }> = {};
const login = (username: string) => signedIn[username]!;

/** Moves the clock past a link's expiry; the sessions used afterwards sign in again (theirs expired too). */
async function advancePastExpiry(ms: number) {
  ctx.clock.advance(ms);
  for (const username of ['aurora.adm', 'maria.souza']) signedIn[username] = await ctx.login(username);
}

const inDays = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY).toISOString();

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  for (const [name, mac] of Object.entries(MACS)) ids[name] = await deviceId(ctx, mac);
  ids.auroraTravel = await travelId(ctx, CODES.auroraInProgress);
  ids.vidaTravel = await travelId(ctx, CODES.vidaInProgress);
  for (const username of ['aurora.adm', 'vida.adm', 'admin', 'joao.silva', 'maria.souza']) signedIn[username] = await ctx.login(username);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => ctx.close());

async function createLink(username: string, body: Record<string, unknown>) {
  const { token } = login(username);
  return ctx.request('POST', '/api/monitor-links', token, { name: 'Sala de controle', expires_at: inDays(7), ...body });
}

const linkCount = async () => Number((await ctx.db.selectFrom('monitor_links').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

function openSocket(token: unknown): Socket {
  const socket = connectClient(`${url}/monitor`, { path: '/socket.io', transports: ['websocket'], auth: { token, client: 'web' }, reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
}

describe('creating monitor links (X5)', () => {
  it("shows the token once, as the monitor page's full address, and keeps only its hash", async () => {
    const res = await createLink('aurora.adm', { device_ids: [ids.chamber], travel_ids: [ids.auroraTravel] });
    expect(res.statusCode).toBe(201);
    const link = res.json();
    expect(link.token).toMatch(/^mon_[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`${ctx.services.config.publicUrl}/monitor/${link.token}`);
    expect(link).toMatchObject({
      name: 'Sala de controle',
      enterprise: { name: 'Aurora Alimentos' },
      devices: [{ _id: ids.chamber, mac: MACS.chamber }],
      travels: [{ _id: ids.auroraTravel, code: CODES.auroraInProgress }],
      revoked_at: null,
      last_used_at: null,
      use_count: 0,
    });
    const { token } = login('aurora.adm');
    const list = await ctx.request('GET', '/api/monitor-links', token);
    expect(list.json().map((l: { _id: string }) => l._id)).toContain(link._id);
    expect(list.body).not.toContain(link.token);
    const row = await ctx.db.selectFrom('monitor_links').selectAll().where('id', '=', link._id).executeTakeFirstOrThrow();
    expect(row.token_hash.toString('hex')).not.toContain(Buffer.from(link.token).toString('hex'));
  });

  it("refuses another enterprise's device or travel with 404 and stores nothing", async () => {
    const before = await linkCount();
    const device = await createLink('aurora.adm', { device_ids: [ids.chamber, ids.vaccines] });
    expect(device.statusCode).toBe(404);
    expect(device.json().error).toBe('Dispositivo não encontrado.');
    const travel = await createLink('aurora.adm', { travel_ids: [ids.vidaTravel] });
    expect(travel.statusCode).toBe(404);
    expect(travel.json().error).toBe('Viagem não encontrada.');
    const enterprise = await createLink('aurora.adm', {
      device_ids: [ids.chamber],
      enterprise_id: (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id,
    });
    expect(enterprise.statusCode).toBe(404);
    expect(await linkCount()).toBe(before);
  });

  it('needs something to show and an expiry within a year, in the future', async () => {
    expect((await createLink('aurora.adm', {})).json().error).toBe('Escolha ao menos uma viagem ou um dispositivo.');
    const past = await createLink('aurora.adm', { device_ids: [ids.chamber], expires_at: inDays(-1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('A validade deve ser uma data futura.');
    const far = await createLink('aurora.adm', { device_ids: [ids.chamber], expires_at: inDays(366) });
    expect(far.statusCode).toBe(400);
    expect(far.json().error).toBe('A validade máxima de um link é de 1 ano.');
    const bad = await createLink('aurora.adm', { device_ids: ['nao-e-um-id'], expires_at: 'amanhã' });
    expect(bad.statusCode).toBe(400);
  });

  it('the super admin creates one for an enterprise it names', async () => {
    const without = await createLink('admin', { device_ids: [ids.vaccines] });
    expect(without.statusCode).toBe(400);
    expect(without.json().error).toBe('Informe a empresa do link.');
    const vidaId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
    const wrong = await createLink('admin', { device_ids: [ids.chamber], enterprise_id: vidaId });
    expect(wrong.statusCode).toBe(404);
    const ok = await createLink('admin', { device_ids: [ids.vaccines], enterprise_id: vidaId });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().enterprise.name).toBe('Vida Farma');
  });

  it('ordinary users and clients may not manage links; visitors are asked to sign in', async () => {
    const before = await linkCount();
    for (const username of ['joao.silva', 'maria.souza']) {
      const { token } = login(username);
      expect((await ctx.request('GET', '/api/monitor-links', token)).statusCode).toBe(403);
      expect((await ctx.request('POST', '/api/monitor-links', token, { name: 'X', device_ids: [ids.truck1], expires_at: inDays(1) })).statusCode).toBe(403);
    }
    expect((await ctx.request('GET', '/api/monitor-links')).statusCode).toBe(401);
    expect(await linkCount()).toBe(before);
  });
});

describe('tenant isolation', () => {
  it("another enterprise's admin neither lists nor revokes a link", async () => {
    const link = (await createLink('aurora.adm', { device_ids: [ids.chamber] })).json();
    const { token } = login('vida.adm');
    expect((await ctx.request('GET', '/api/monitor-links', token)).json().map((l: { _id: string }) => l._id)).not.toContain(link._id);
    const revoke = await ctx.request('DELETE', `/api/monitor-links/${link._id}`, token);
    expect(revoke.statusCode).toBe(404);
    expect(revoke.json().error).toBe('Link de monitoramento não encontrado.');
    const row = await ctx.db.selectFrom('monitor_links').select('revoked_at').where('id', '=', link._id).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
    expect((await ctx.request('GET', `/api/monitor/${link.token}`)).statusCode).toBe(200);
  });
});

describe('the monitor page (no session, X5)', () => {
  it("answers only its devices and travels' cards, with limits, positions and open alarms", async () => {
    const link = (await createLink('aurora.adm', { device_ids: [ids.chamber], travel_ids: [ids.auroraTravel] })).json();
    const res = await ctx.request('GET', `/api/monitor/${link.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const view = MonitorView.parse(res.json());
    expect(view.name).toBe('Sala de controle');
    expect(view.devices.map((d) => d.mac).sort()).toEqual([MACS.chamber, MACS.truck1].sort());
    const truck = view.devices.find((d) => d.mac === MACS.truck1)!;
    expect(truck.travel).toMatchObject({ _id: ids.auroraTravel, code: CODES.auroraInProgress });
    expect(view.devices.find((d) => d.mac === MACS.chamber)!.travel).toBeNull();
    for (const foreign of [MACS.vaccines, MACS.box1, MACS.box2, MACS.freezer]) expect(res.body).not.toContain(foreign);

    // An open alarm of a shown device is in its card; the alarm of a device the link does not show is nowhere.
    const since = ctx.clock.now();
    await ctx.db
      .insertInto('alarms')
      .values([
        { device_id: ids.chamber!, type: 'temperature_high', message: 'Temperatura acima do limite', started_at: since },
        { device_id: ids.freezer!, type: 'temperature_high', message: 'Alarme do freezer', started_at: since },
      ])
      .execute();
    const withAlarm = MonitorView.parse((await ctx.request('GET', `/api/monitor/${link.token}`)).json());
    expect(withAlarm.devices.find((d) => d.mac === MACS.chamber)!.alarms).toEqual([
      { _id: expect.any(String), type: 'temperature_high', message: 'Temperatura acima do limite', started_at: since.toISOString(), acknowledged: false },
    ]);
    expect(JSON.stringify(withAlarm)).not.toContain('Alarme do freezer');
    await ctx.db.deleteFrom('alarms').where('started_at', '=', since).execute();
  });

  it('carries what a wall needs to show a silence: the last reading time, the expected interval, a finished travel', async () => {
    const finished = await travelId(ctx, CODES.auroraFinished);
    const admin = login('aurora.adm');
    expect((await ctx.request('PUT', `/api/devices/${ids.chamber}`, admin.token, { config: { report_interval_seconds: 90 } })).statusCode).toBe(200);
    const link = (await createLink('aurora.adm', { device_ids: [ids.chamber], travel_ids: [ids.auroraTravel, finished] })).json();
    const view = MonitorView.parse((await ctx.request('GET', `/api/monitor/${link.token}`)).json());
    const chamber = view.devices.find((d) => d.mac === MACS.chamber)!;
    const lastSync = await ctx.db.selectFrom('devices').select('last_sync_at').where('id', '=', ids.chamber!).executeTakeFirstOrThrow();
    expect(chamber).toMatchObject({ expectedIntervalSeconds: 90, last_update_date: lastSync.last_sync_at?.toISOString() ?? null, travel: null });
    expect(view.devices.find((d) => d.mac === MACS.truck1)!.travel).toMatchObject({ code: CODES.auroraInProgress, finished: false });
    expect(view.devices.find((d) => d.mac === MACS.truck2)!.travel).toMatchObject({ code: CODES.auroraFinished, finished: true });
    expect((await ctx.request('PUT', `/api/devices/${ids.chamber}`, admin.token, { config: { report_interval_seconds: null } })).statusCode).toBe(200);
  });

  it('shows a new reading of its device', async () => {
    const link = (await createLink('aurora.adm', { device_ids: [ids.chamber] })).json();
    ctx.clock.advance(60_000);
    expect((await postReadings(ctx, [{ mac: MACS.chamber, ts: at(ctx, 0), temperature: 3.25, humidity: 61, battery: 88 }])).statusCode).toBe(200);
    const view = MonitorView.parse((await ctx.request('GET', `/api/monitor/${link.token}`)).json());
    expect(view.devices[0]).toMatchObject({ mac: MACS.chamber, temperature: { value: 3.25 }, humidity: { value: 61 }, battery: { value: 88 } });
  });

  it('refuses an unknown token with 401 and a revoked or expired link with 410, in pt-BR', async () => {
    const unknown = await ctx.request('GET', '/api/monitor/mon_naoexiste');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('Link de monitoramento inválido.');

    const revokedLink = (await createLink('aurora.adm', { device_ids: [ids.chamber] })).json();
    const { token } = login('aurora.adm');
    expect((await ctx.request('DELETE', `/api/monitor-links/${revokedLink._id}`, token)).statusCode).toBe(200);
    const revoked = await ctx.request('GET', `/api/monitor/${revokedLink.token}`);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json().error).toBe('Este link de monitoramento foi revogado.');

    const shortLink = (await createLink('aurora.adm', { device_ids: [ids.chamber], expires_at: inDays(1) })).json();
    expect((await ctx.request('GET', `/api/monitor/${shortLink.token}`)).statusCode).toBe(200);
    await advancePastExpiry(DAY + 1000);
    const expired = await ctx.request('GET', `/api/monitor/${shortLink.token}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toBe('Este link de monitoramento expirou.');
  });

  it("ignores a session sent along: a signed-in user of another enterprise gets the link's view, not theirs", async () => {
    const link = (await createLink('aurora.adm', { device_ids: [ids.chamber] })).json();
    const { token } = login('maria.souza');
    const view = MonitorView.parse((await ctx.request('GET', `/api/monitor/${link.token}`, token)).json());
    expect(view.devices.map((d) => d.mac)).toEqual([MACS.chamber]);
  });

  it("writes each use to the creator's access log and counts it", async () => {
    const admin = login('aurora.adm');
    const link = (await createLink('aurora.adm', { name: 'Parede da doca', device_ids: [ids.chamber] })).json();
    await ctx.request('GET', `/api/monitor/${link.token}`);
    const socket = openSocket(link.token);
    await connected(socket);
    const log = await ctx.request('GET', `/api/access-log?user_id=${admin.user._id}`, admin.token);
    const messages = log.json().map((e: { message: string }) => e.message);
    expect(messages).toContain('Link de monitoramento "Parede da doca" aberto');
    expect(messages).toContain('Link de monitoramento "Parede da doca" conectado para atualizações ao vivo');
    expect(log.body).not.toContain(link.token);
    const listed = (await ctx.request('GET', '/api/monitor-links', admin.token)).json().find((l: { _id: string }) => l._id === link._id);
    expect(listed).toMatchObject({ use_count: 2, last_used_at: ctx.clock.now().toISOString() });
  });

  it('limits token lookups per address', async () => {
    const limited = await createTestContext({ config: { monitorLookupsPerMinute: 2 } });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await limited.request('GET', `/api/monitor/mon_palpite${i}`)).statusCode);
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('live updates of a monitor (X5)', () => {
  it('tells only the monitors of a device that it changed, and the snapshot carries the new reading', async () => {
    const chamberLink = (await createLink('aurora.adm', { device_ids: [ids.chamber] })).json();
    const freezerLink = (await createLink('aurora.adm', { device_ids: [ids.freezer] })).json();
    const chamber = openSocket(chamberLink.token);
    const freezer = openSocket(freezerLink.token);
    await Promise.all([connected(chamber), connected(freezer)]);
    const freezerEvents: string[] = [];
    freezer.onAny((event: string) => freezerEvents.push(event));
    // The rooms are joined once the link's targets are read: a first snapshot waits for that.
    expect(MonitorSnapshotAck.parse(await chamber.emitWithAck('snapshot', {})).ok).toBe(true);
    expect(MonitorSnapshotAck.parse(await freezer.emitWithAck('snapshot', {})).ok).toBe(true);

    ctx.clock.advance(60_000);
    const changed = new Promise((resolve) => chamber.once('monitor-changed', resolve));
    expect((await postReadings(ctx, [{ mac: MACS.chamber, ts: at(ctx, 0), temperature: 4.5 }])).statusCode).toBe(200);
    await changed;
    const ack = MonitorSnapshotAck.parse(await chamber.emitWithAck('snapshot', {}));
    expect(ack.ok && ack.view.devices[0]).toMatchObject({ mac: MACS.chamber, temperature: { value: 4.5 } });
    // A round trip on the freezer's socket after the chamber's event: anything sent to it would have arrived.
    await freezer.emitWithAck('snapshot', {});
    expect(freezerEvents).toEqual([]);
  });

  it('refuses unknown, revoked and expired tokens at the handshake, and closes a monitor when its link is revoked', async () => {
    const refused = openSocket('mon_naoexiste');
    await expect(connected(refused)).rejects.toMatchObject({ message: 'Link de monitoramento inválido.', data: { status: 401 } });

    const link = (await createLink('aurora.adm', { device_ids: [ids.chamber] })).json();
    const socket = openSocket(link.token);
    await connected(socket);
    const closed = new Promise((resolve) => socket.once('disconnect', resolve));
    const { token } = login('aurora.adm');
    await ctx.request('DELETE', `/api/monitor-links/${link._id}`, token);
    expect(await closed).toBe('io server disconnect');
    await expect(connected(openSocket(link.token))).rejects.toMatchObject({ message: 'Este link de monitoramento foi revogado.', data: { status: 410 } });

    const shortLink = (await createLink('aurora.adm', { device_ids: [ids.chamber], expires_at: inDays(1) })).json();
    const live = openSocket(shortLink.token);
    await connected(live);
    expect(MonitorSnapshotAck.parse(await live.emitWithAck('snapshot', {})).ok).toBe(true);
    await advancePastExpiry(DAY + 1000);
    expect(await live.emitWithAck('snapshot', {})).toEqual({ ok: false, status: 410, error: 'Este link de monitoramento expirou.' });
    await expect(connected(openSocket(shortLink.token))).rejects.toMatchObject({ data: { status: 410 } });
  });

  it('a monitor socket cannot join the signed-in rooms', async () => {
    const link = (await createLink('aurora.adm', { travel_ids: [ids.auroraTravel] })).json();
    const socket = openSocket(link.token);
    await connected(socket);
    // The monitor namespace knows only `snapshot`: a travel subscription there joins nothing. Messages of a socket
    // are handled in order, so once the snapshot is answered the subscription was seen.
    socket.emit('subscribe', { travelId: ids.auroraTravel });
    expect(MonitorSnapshotAck.parse(await socket.emitWithAck('snapshot', {})).ok).toBe(true);
    expect(ctx.app.io.of('/').adapter.rooms.has(`travel:${ids.auroraTravel}`)).toBe(false);
  });
});
