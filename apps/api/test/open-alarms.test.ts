import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket } from 'socket.io-client';
import { AlarmsSubscribeAck, MSG, OpenAlarmList, OpenAlarmsEvent } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { deviceByMac, postReadings } from './ingest-helpers';

/**
 * Open alarms across devices (issue 11, item 5): GET /api/alarms/open and the live `open-alarms` feed, both scoped
 * like the devices: the super admin all, an enterprise admin its enterprise's, a user the devices linked to them.
 */
let ctx: TestContext;
const TRUCK_1 = 'C3:00:00:00:01:01'; // Aurora, 0..8 °C, linked to joao.silva, travelling (AUR7K2M9QX)
const TRUCK_2 = 'C3:00:00:00:01:02'; // Aurora, 0..8 °C, linked to joao.silva
const CHAMBER = 'C3:00:00:00:01:03'; // Aurora, -22..-16 °C, not linked to joao.silva
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma, 2..8 °C
const tokens: Record<string, string> = {};
const as = (username: string) => tokens[username]!;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  ctx.clock.advance(60_000);
  for (const username of ['admin', 'aurora.adm', 'joao.silva', 'vida.adm']) tokens[username] = (await ctx.login(username)).token;
});

async function openAlarms(username: string) {
  const res = await ctx.request('GET', '/api/alarms/open', as(username));
  expect(res.statusCode, res.body).toBe(200);
  return OpenAlarmList.parse(res.json());
}

/** A reading of the device now; out of its range it opens an alarm (no delay in the demo data), inside it ends it. */
async function reading(mac: string, temperature: number) {
  ctx.clock.advance(1_000);
  const res = await postReadings(ctx, [{ mac, ts: ctx.clock.now().toISOString(), temperature }]);
  expect(res.statusCode, res.body).toBe(200);
}

const activeAlarm = async (mac: string) => {
  const device = await deviceByMac(ctx, mac);
  return ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', device.id).where('active', '=', true).executeTakeFirstOrThrow();
};

/** Ends every open alarm of these devices (a reading back inside the range). */
async function closeAll() {
  for (const [mac, inside] of [[TRUCK_1, 4], [TRUCK_2, 4], [CHAMBER, -19], [VACCINES, 5]] as const) await reading(mac, inside);
}

describe('GET /api/alarms/open (X4)', () => {
  afterEach(closeAll);

  it('is for signed-in users only', async () => {
    expect((await ctx.request('GET', '/api/alarms/open')).statusCode).toBe(401);
  });

  it("counts and lists the open alarms each caller may see, never another enterprise's", async () => {
    await closeAll();
    expect((await openAlarms('aurora.adm')).count).toBe(0);

    await reading(TRUCK_1, 9.5);
    await reading(CHAMBER, -12);
    await reading(VACCINES, 11);

    const aurora = await openAlarms('aurora.adm');
    expect(aurora).toMatchObject({ count: 2, unacknowledged: 2 });
    // Newest first: the chamber's alarm began after the truck's.
    expect(aurora.alarms.map((a) => a.device.mac)).toEqual([CHAMBER, TRUCK_1]);
    const truck = aurora.alarms[1]!;
    expect(truck).toMatchObject({
      type: 'temperature_high',
      type_formatted: 'Temperatura alta',
      message: 'Temperatura acima do limite máximo (8,00 °C)',
      device: { mac: TRUCK_1, name: 'Baú Caminhão 01' },
      travel: { code: 'AUR7K2M9QX' },
      acknowledge: null,
    });
    expect(aurora.alarms[0]!.travel).toBeNull();

    // João sees the alarms of the devices linked to him only; Vida Farma's admin only Vida Farma's.
    expect(await openAlarms('joao.silva')).toMatchObject({ count: 1, alarms: [{ device: { mac: TRUCK_1 } }] });
    expect(await openAlarms('vida.adm')).toMatchObject({ count: 1, unacknowledged: 1, alarms: [{ device: { mac: VACCINES } }] });
    // The super admin sees every enterprise's (ADR 0025).
    expect((await openAlarms('admin')).alarms.map((a) => a.device.mac).sort()).toEqual([CHAMBER, TRUCK_1, VACCINES].sort());

    // Acknowledged: still open, no longer unacknowledged, and says who did it.
    const ack = await ctx.request('POST', `/api/alarms/${truck._id}/acknowledge`, as('joao.silva'), { message: 'Porta fechada.' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(await openAlarms('aurora.adm')).toMatchObject({ count: 2, unacknowledged: 1 });
    expect((await openAlarms('joao.silva')).alarms[0]!.acknowledge).toMatchObject({ message: 'Porta fechada.', user: { name: 'João Silva' } });

    // Ended: gone from the list.
    await reading(TRUCK_1, 4);
    expect(await openAlarms('aurora.adm')).toMatchObject({ count: 1, unacknowledged: 1, alarms: [{ device: { mac: CHAMBER } }] });
    expect(await openAlarms('joao.silva')).toMatchObject({ count: 0, unacknowledged: 0, alarms: [] });
  });

  it("does not let another enterprise acknowledge an alarm (404), and its counts stay as they were", async () => {
    await reading(VACCINES, 11);
    const vaccines = await activeAlarm(VACCINES);
    const before = await openAlarms('vida.adm');
    const res = await ctx.request('POST', `/api/alarms/${vaccines.id}/acknowledge`, as('aurora.adm'), { message: 'Não é meu.' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Alarme não encontrado.' });
    expect(await openAlarms('vida.adm')).toEqual(before);
    expect((await activeAlarm(VACCINES)).acknowledged_at).toBeNull();
  });
});

describe('live open alarms (Socket.IO, X4)', () => {
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await closeAll();
  });

  async function client(username: string) {
    const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: { token: as(username) }, reconnection: false, forceNew: true });
    sockets.push(socket);
    const received: OpenAlarmsEvent[] = [];
    socket.on('open-alarms', (payload: unknown) => received.push(OpenAlarmsEvent.parse(payload)));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const ack = AlarmsSubscribeAck.parse(await socket.emitWithAck('subscribe-alarms', {}));
    const next = () => new Promise<OpenAlarmsEvent>((resolve) => socket.once('open-alarms', (payload: unknown) => resolve(OpenAlarmsEvent.parse(payload))));
    return { socket, received, ack, next };
  }

  it("sends each subscriber the new counts of what it may see when an alarm opens, is acknowledged or ends; another tenant's client receives nothing", async () => {
    await closeAll();
    const aurora = await client('aurora.adm');
    const joao = await client('joao.silva');
    const vida = await client('vida.adm');
    const admin = await client('admin');
    expect([aurora.ack, joao.ack, vida.ack]).toEqual([
      { ok: true, count: 0, unacknowledged: 0 },
      { ok: true, count: 0, unacknowledged: 0 },
      { ok: true, count: 0, unacknowledged: 0 },
    ]);
    expect(admin.ack).toMatchObject({ ok: true });

    // An alarm of an Aurora device not linked to João: Aurora's admin and the super admin are told.
    const auroraNext = aurora.next();
    const adminNext = admin.next();
    await reading(CHAMBER, -12);
    const chamber = await activeAlarm(CHAMBER);
    expect(await auroraNext).toEqual({ count: 1, unacknowledged: 1, changes: [{ alarmId: chamber.id, mac: CHAMBER, kind: 'opened' }] });
    expect(await adminNext).toMatchObject({ changes: [{ alarmId: chamber.id, mac: CHAMBER, kind: 'opened' }] });

    // Acknowledged through the API (the acknowledgement is an event too).
    const acknowledged = aurora.next();
    expect((await ctx.request('POST', `/api/alarms/${chamber.id}/acknowledge`, as('aurora.adm'), { message: 'Porta aberta.' })).statusCode).toBe(200);
    expect(await acknowledged).toEqual({ count: 1, unacknowledged: 0, changes: [{ alarmId: chamber.id, mac: CHAMBER, kind: 'acknowledged' }] });

    // One of João's devices: João is told, with his own count (the chamber is not his).
    const joaoNext = joao.next();
    await reading(TRUCK_2, 10);
    const truck = await activeAlarm(TRUCK_2);
    expect(await joaoNext).toEqual({ count: 1, unacknowledged: 1, changes: [{ alarmId: truck.id, mac: TRUCK_2, kind: 'opened' }] });

    // Ended: counted down.
    const closed = aurora.next();
    await reading(CHAMBER, -19);
    expect(await closed).toEqual({ count: 1, unacknowledged: 1, changes: [{ alarmId: chamber.id, mac: CHAMBER, kind: 'closed' }] });

    // Then one of Vida Farma: its admin is told, and had received nothing of Aurora's before (messages arrive in order).
    const vidaNext = vida.next();
    await reading(VACCINES, 11);
    const vaccines = await activeAlarm(VACCINES);
    expect(await vidaNext).toEqual({ count: 1, unacknowledged: 1, changes: [{ alarmId: vaccines.id, mac: VACCINES, kind: 'opened' }] });
    expect(vida.received).toHaveLength(1);
    // And nothing of Vida Farma reaches Aurora: its next message is about its own truck.
    const auroraLast = aurora.next();
    const joaoLast = joao.next();
    await reading(TRUCK_2, 4);
    expect((await auroraLast).changes).toEqual([{ alarmId: truck.id, mac: TRUCK_2, kind: 'closed' }]);
    expect(await joaoLast).toEqual({ count: 0, unacknowledged: 0, changes: [{ alarmId: truck.id, mac: TRUCK_2, kind: 'closed' }] });
    expect(aurora.received.flatMap((e) => e.changes.map((c) => c.mac))).not.toContain(VACCINES);
    expect(joao.received.flatMap((e) => e.changes.map((c) => c.mac))).toEqual([TRUCK_2, TRUCK_2]);
  });

  it('follows a change of what a user may see (access.changed): the new counts are sent, and the new device is followed', async () => {
    await reading(CHAMBER, -12);
    const joao = await client('joao.silva');
    expect(joao.ack).toEqual({ ok: true, count: 0, unacknowledged: 0 });
    const joaoId = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).id;
    const chamber = await deviceByMac(ctx, CHAMBER);

    // Linked (as the device linking screens do), then announced: João is sent his new counts.
    await ctx.db.insertInto('device_users').values({ device_id: chamber.id, user_id: joaoId }).execute();
    let next = joao.next();
    ctx.services.events.emit('access.changed', { userId: joaoId });
    expect(await next).toEqual({ count: 1, unacknowledged: 1, changes: [] });
    next = joao.next();
    await reading(CHAMBER, -19);
    expect((await next).changes).toEqual([expect.objectContaining({ mac: CHAMBER, kind: 'closed' })]);

    // Unlinked: counted without it, and its alarms no longer reach him. The reopening still reaches him (linked):
    // wait for it, or it may arrive after the unlinking's counts are awaited below.
    next = joao.next();
    await reading(CHAMBER, -12);
    expect((await next).changes).toEqual([expect.objectContaining({ mac: CHAMBER, kind: 'opened' })]);
    await ctx.db.deleteFrom('device_users').where('device_id', '=', chamber.id).where('user_id', '=', joaoId).execute();
    next = joao.next();
    ctx.services.events.emit('access.changed', { userId: joaoId });
    expect(await next).toEqual({ count: 0, unacknowledged: 0, changes: [] });
    const received = joao.received.length;
    await reading(CHAMBER, -19);
    next = joao.next();
    await reading(TRUCK_2, 10);
    expect((await next).changes).toEqual([expect.objectContaining({ mac: TRUCK_2, kind: 'opened' })]);
    expect(joao.received).toHaveLength(received + 1);
  });

  it('refuses visitors', async () => {
    const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    expect(await socket.emitWithAck('subscribe-alarms', {})).toEqual({ ok: false, error: MSG.unauthenticated });
  });
});
