import { Worker, type TransferListItem } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BEACON_MESSAGES as B, ENTERPRISE_MESSAGES, LINK_MESSAGES } from '@sentinela/contract';
import { inflatingSpreadsheet } from '../../../bench/lib/hostile-xlsx';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { readXlsx, upload, xlsxPart, type UploadPart } from './report-helpers';

const IMPORT = '/api/beacon-device/import';
const csvPart = (text: string, filename = 'dispositivos.csv'): UploadPart => ({ filename, contentType: 'text/csv', data: Buffer.from(text, 'utf8') });

async function beaconSheet(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Dispositivos');
  sheet.addRow(['MAC', 'Nome', 'Modelo']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

let ctx: TestContext;
let admin: string;
let auroraAdm: string;
let joao: string;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  admin = (await ctx.login('admin')).token;
  auroraAdm = (await ctx.login('aurora.adm')).token;
  joao = (await ctx.login('joao.silva')).token;
  // A seeded PGlite database takes a while on a busy machine.
}, 120_000);
afterAll(() => ctx.close());

const deviceCount = async () => Number((await ctx.db.selectFrom('devices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const deviceByMac = (mac: string) => ctx.db.selectFrom('devices').selectAll().where('mac', '=', mac).executeTakeFirst();
const eventsOf = (deviceId: string) => ctx.db.selectFrom('device_events').select(['type', 'message', 'client']).where('device_id', '=', deviceId).orderBy('id').execute();

describe('POST /api/beacon-device (X1)', () => {
  it('registers a beacon with its MAC in the canonical form, outside any enterprise, as a device event', async () => {
    const res = await ctx.request('POST', '/api/beacon-device', admin, { mac: ' aa-bb-cc-00-00-01 ', name: 'Beacon Doca 1', model: 'SNT-T1' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ mac: 'AA:BB:CC:00:00:01', name: 'Beacon Doca 1', model: 'SNT-T1', enterprise: null });
    expect(await eventsOf(res.json()._id)).toEqual([{ type: 'register', message: 'Dispositivo cadastrado (MAC AA:BB:CC:00:00:01)', client: 'web' }]);
    const bare = await ctx.request('POST', '/api/beacon-device', admin, { mac: 'aabbcc000002', name: 'Beacon Doca 2' });
    expect(bare.json()).toMatchObject({ mac: 'AA:BB:CC:00:00:02', model: null });
  });

  it('refuses a MAC already registered, in any of its spellings (409), and changes nothing', async () => {
    const before = await deviceCount();
    for (const mac of ['C3:00:00:00:01:01', 'c3-00-00-00-01-01', 'c30000000101']) {
      const res = await ctx.request('POST', '/api/beacon-device', admin, { mac, name: 'Cópia' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(B.macTaken('C3:00:00:00:01:01'));
    }
    expect(await deviceCount()).toBe(before);
    expect((await deviceByMac('C3:00:00:00:01:01'))!.name).toBe('Baú Caminhão 01');
  });

  it.each([
    ['C3:00:00:00:01', B.macInvalid],
    ['GG:00:00:00:01:01', B.macInvalid],
    ['AA:BB:CC:DD:EE:FF:00', B.macInvalid],
    ['AA:BB-CC:DD:EE:FF:0', B.macInvalid],
    ['AA:BB:CC:DD:EE:F\u0000', B.macInvalid],
    ['   ', B.macRequired],
    [42, B.macInvalid],
    [undefined, B.macRequired],
  ])('refuses the MAC %j with a message (400)', async (mac, message) => {
    const before = await deviceCount();
    const res = await ctx.request('POST', '/api/beacon-device', admin, { mac, name: 'Malformado' });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues.map((i: { message: string }) => i.message)).toContain(message);
    expect(await deviceCount()).toBe(before);
  });

  it('asks for a name', async () => {
    const res = await ctx.request('POST', '/api/beacon-device', admin, { mac: 'AA:BB:CC:00:00:09', name: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues[0].message).toBe('Informe o nome do dispositivo.');
  });

  it('is the super admin’s alone (403 for an enterprise admin and a user)', async () => {
    for (const token of [auroraAdm, joao]) {
      expect((await ctx.request('POST', '/api/beacon-device', token, { mac: 'AA:BB:CC:00:00:08', name: 'X' })).statusCode).toBe(403);
      expect((await upload(ctx, IMPORT, [csvPart('MAC;Nome\nAA:BB:CC:00:00:08;X\n')], token)).statusCode).toBe(403);
      expect((await ctx.request('GET', '/api/beacon-device/discovered', token)).statusCode).toBe(403);
      expect((await ctx.request('GET', '/api/beacon-device/import-template', token)).statusCode).toBe(403);
    }
    expect(await deviceByMac('AA:BB:CC:00:00:08')).toBeUndefined();
  });
});

describe('POST /api/beacon-device/import (X1)', () => {
  it('registers the good rows of a spreadsheet and gives one pt-BR message per bad row', async () => {
    const file = await beaconSheet([
      ['aa:bb:cc:00:01:01', 'Geladeira 1', 'SNT-V1'],
      ['xx:bb:cc:00:01:02', 'MAC ruim', null],
      ['AA-BB-CC-00-01-03', null, null],
      [null, null, null],
      ['AABBCC000101', 'Repetido na planilha', null],
      ['C3:00:00:00:02:01', 'Já cadastrado', null],
      ['AA:BB:CC:00:01:04', 'Geladeira 4', null],
      [null, 'Sem MAC', null],
    ]);
    const res = await upload(ctx, IMPORT, [xlsxPart(file, 'dispositivos.xlsx')], admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      registered: 2,
      errors: [
        `Linha 3: ${B.macInvalid} (xx:bb:cc:00:01:02)`,
        'Linha 4: Informe o nome do dispositivo.',
        'Linha 6: o MAC AA:BB:CC:00:01:01 já aparece na linha 2.',
        `Linha 7: ${B.macTaken('C3:00:00:00:02:01')}`,
        `Linha 9: ${B.macRequired}`,
      ],
    });
    expect(await deviceByMac('AA:BB:CC:00:01:01')).toMatchObject({ name: 'Geladeira 1', model: 'SNT-V1', enterprise_id: null });
    expect(await deviceByMac('AA:BB:CC:00:01:04')).toMatchObject({ name: 'Geladeira 4', model: null });
    expect(await deviceByMac('AA:BB:CC:00:01:03')).toBeUndefined();
    expect((await deviceByMac('C3:00:00:00:02:01'))!.name).toBe('Geladeira Vacinas');
  });

  it('reads CSV with ; or , between fields and quoted fields', async () => {
    const semicolon = await upload(ctx, IMPORT, [csvPart('\ufeffMAC;Nome;Modelo\r\naa-bb-cc-00-02-01;"Câmara; fria ""A""";SNT\r\n;;\r\nzz;Ruim;\r\n')], admin);
    expect(semicolon.json()).toEqual({ registered: 1, errors: [`Linha 4: ${B.macInvalid} (zz)`] });
    expect((await deviceByMac('AA:BB:CC:00:02:01'))!.name).toBe('Câmara; fria "A"');
    const comma = await upload(ctx, IMPORT, [csvPart('mac,nome\naabbcc000202,Caixa 2\n')], admin);
    expect(comma.json()).toEqual({ registered: 1, errors: [] });
  });

  it('refuses a file with no rows, a binary, two files (400)', async () => {
    const empty = await upload(ctx, IMPORT, [csvPart('MAC;Nome;Modelo\n')], admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(B.importNoRows);
    const binary = await upload(ctx, IMPORT, [{ filename: 'x.bin', contentType: 'application/octet-stream', data: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]) }], admin);
    expect(binary.statusCode).toBe(400);
    expect(binary.json().error).toBe(B.importNotSpreadsheet);
    const two = await upload(ctx, IMPORT, [csvPart('MAC;Nome\nAA:BB:CC:00:03:01;A\n'), csvPart('MAC;Nome\nAA:BB:CC:00:03:02;B\n')], admin);
    expect(two.statusCode).toBe(400);
    expect(await deviceByMac('AA:BB:CC:00:03:01')).toBeUndefined();
  });

  it('refuses more rows than the cap (400) and registers none of them', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => `AA:BB:DD:00:${String(Math.floor(i / 256).toString(16)).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')};Beacon ${i}`);
    const res = await upload(ctx, IMPORT, [csvPart(`MAC;Nome\n${rows.join('\n')}\n`)], admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(B.importTooManyRows(1000));
    expect(await deviceByMac('AA:BB:DD:00:00:00')).toBeUndefined();
  });

  it('reads a 5 MB CSV in a reader thread while the API keeps answering (issue 21)', async () => {
    // A thousand beacons of an exported list, each with a long notes column that the import ignores: 5 MB of text.
    const notes = 'Lote 2026-11, câmara fria da doca 3, conferido na entrada; '.repeat(84);
    const rows = Array.from({ length: 1000 }, (_, i) => `AA:BB:EE:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')};Beacon ${i};SNT-T1;${notes}`);
    const file = Buffer.from(`MAC;Nome;Modelo;Observações\n${rows.join('\n')}\n`, 'utf8');
    expect(file.length).toBeGreaterThan(5_000_000);
    expect(file.length).toBeLessThanOrEqual(ctx.services.config.reportExcelMaxBytes);

    // What the pool hands to a thread, seen as it goes: the bytes are moved (transferred) there, so once handed over
    // the event loop no longer even holds them; it cannot be the one parsing them.
    const handed: { request: { kind: string; data: Uint8Array }; bytes: number }[] = [];
    const postMessage = Worker.prototype.postMessage;
    const spy = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, message: unknown, transfer?: readonly TransferListItem[]) {
      const request = message as { kind?: string; data?: Uint8Array };
      if (request?.kind === 'csv' && request.data) handed.push({ request: request as { kind: string; data: Uint8Array }, bytes: request.data.byteLength });
      return postMessage.call(this, message, transfer);
    });
    try {
      const [imported, health] = await Promise.all([upload(ctx, IMPORT, [csvPart(file.toString('utf8'), 'lista-exportada.csv')], admin), ctx.request('GET', '/api/health')]);
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json()).toEqual({ registered: 1000, errors: [] });
      expect(health.statusCode).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(handed).toHaveLength(1);
    expect(handed[0]!.bytes).toBe(file.length);
    expect(handed[0]!.request.data.byteLength).toBe(0);
    expect(await deviceByMac('AA:BB:EE:00:03:E7')).toMatchObject({ name: 'Beacon 999', model: 'SNT-T1' });
  });

  it('downloads a template that imports as it is', async () => {
    const res = await ctx.request('GET', '/api/beacon-device/import-template', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('modelo-dispositivos.xlsx');
    const workbook = await readXlsx(res.rawPayload);
    expect(workbook.getWorksheet('Dispositivos')!.getRow(1).values).toEqual([undefined, 'MAC', 'Nome', 'Modelo']);
    const imported = await upload(ctx, IMPORT, [xlsxPart(res.rawPayload, 'modelo.xlsx')], admin);
    expect(imported.json()).toEqual({ registered: 1, errors: [] });
    expect(await deviceByMac('AA:BB:CC:DD:EE:01')).toMatchObject({ name: 'Câmara Fria 01', model: 'SNT-T1' });
  });
});

describe('oversized and inflating imports', () => {
  let small: TestContext;
  let token: string;
  beforeAll(async () => {
    small = await createTestContext({ demo: true, config: { reportExcelMaxInflatedBytes: 64 * 1024, reportExcelMaxBytes: 256 * 1024, reportWorkers: 0 } });
    token = (await small.login('admin')).token;
  }, 120_000);
  afterAll(() => small.close());
  const count = async () => Number((await small.db.selectFrom('devices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses a file above the size cap before reading it (413)', async () => {
    const before = await count();
    const big = `MAC;Nome\n${'AA:BB:CC:00:00:01;x\n'.repeat(20_000)}`;
    const res = await upload(small, IMPORT, [csvPart(big)], token);
    expect(res.statusCode).toBe(413);
    expect(await count()).toBe(before);
  });

  it('refuses a spreadsheet that inflates past the cap, by its declared sizes or while inflating (413)', async () => {
    const before = await count();
    for (const file of [await inflatingSpreadsheet({ rows: 1000 }), await inflatingSpreadsheet({ rows: 400, declaredSheetBytes: 2000 })]) {
      const res = await upload(small, IMPORT, [xlsxPart(file)], token);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toBe('A planilha é grande demais para ser lida. Envie só a aba "Dispositivos", com no máximo 1000 linhas.');
    }
    expect(await count()).toBe(before);
  });
});

describe('MACs discovered by gateways (X1)', () => {
  it('lists an unknown MAC once, with its first and last reading, gateway and count; registering it clears it', async () => {
    const mac = 'DE:AD:00:00:00:01';
    const first = await postReadings(ctx, [
      { mac: 'de-ad-00-00-00-01', ts: at(ctx, -30), temperature: 4 },
      { mac, ts: at(ctx, -20), temperature: 5 },
      { mac, ts: at(ctx, -10), temperature: 6 },
    ]);
    expect(first.json().rejected).toHaveLength(3);
    await postReadings(ctx, [{ mac, ts: at(ctx, -5), temperature: 6 }, { mac, ts: at(ctx, -40), temperature: 6 }]);
    const rows = await ctx.db.selectFrom('discovered_devices').selectAll().execute();
    expect(rows).toHaveLength(1);

    const list = await ctx.request('GET', '/api/beacon-device/discovered', admin);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      { mac, first_seen_at: at(ctx, -40), last_seen_at: at(ctx, -5), gateway: { _id: expect.any(String), name: 'Gateway de demonstração' }, readings: 5 },
    ]);

    const registered = await ctx.request('POST', '/api/beacon-device', admin, { mac, name: 'Descoberto' });
    expect(registered.statusCode).toBe(201);
    expect((await ctx.request('GET', '/api/beacon-device/discovered', admin)).json()).toEqual([]);
  });

  it("answers the gateway the same for an unknown MAC and another enterprise's, and lists only the unknown", async () => {
    const key = (await ctx.request('POST', '/api/gateways', admin, { name: 'Sem vínculo' })).json().key as string;
    const foreign = await postReadings(ctx, [{ mac: 'C3:00:00:00:01:03', ts: at(ctx, -1), temperature: -18 }], key);
    const unknown = await postReadings(ctx, [{ mac: 'DE:AD:00:00:00:02', ts: at(ctx, -1), temperature: -18 }], key);
    expect(unknown.body).toBe(foreign.body.replace('C3:00:00:00:01:03', 'DE:AD:00:00:00:02'));
    const list = (await ctx.request('GET', '/api/beacon-device/discovered', admin)).json();
    expect(list.map((d: { mac: string }) => d.mac)).toEqual(['DE:AD:00:00:00:02']);
    expect(list[0].gateway.name).toBe('Sem vínculo');
  });
});

describe('POST /api/devices/link/client (M6)', () => {
  let clientId: string;
  let ownerToken: string;
  let ids: string[];
  beforeAll(async () => {
    const created = await ctx.request('POST', '/api/client/create/', admin, { client: { name: 'Frios do Sul' }, user: { email: 'frios@sul.example', password: 'Cofre#Azul7134' } });
    expect(created.statusCode).toBe(201);
    clientId = created.json().client._id;
    ownerToken = (await ctx.login(created.json().user.username, 'Cofre#Azul7134')).token;
    ids = [];
    for (const n of [1, 2, 3]) ids.push((await ctx.request('POST', '/api/beacon-device', admin, { mac: `AA:00:00:00:00:0${n}`, name: `Sul ${n}` })).json()._id);
  });

  const enterpriseOf = async (id: string) => (await ctx.db.selectFrom('devices').select('enterprise_id').where('id', '=', id).executeTakeFirstOrThrow()).enterprise_id;

  it('links devices to an enterprise; to_update 1 adds, 0 makes the list the whole set', async () => {
    const emit = vi.spyOn(ctx.services.events, 'emit');
    const res = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [ids[0], ids[1]], to_update: 0, client_id: clientId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Dispositivos vínculados com sucesso!', linked: 2, unlinked: 0 });
    expect(emit).toHaveBeenCalledWith('access.changed', { enterpriseId: clientId });
    expect((await ctx.request('GET', `/api/devices-by-client/${clientId}`, ownerToken)).json().map((d: { _id: string }) => d._id).sort()).toEqual([ids[0], ids[1]].sort());

    const add = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [ids[2]], to_update: 1, client_id: clientId });
    expect(add.json()).toMatchObject({ linked: 1, unlinked: 0 });
    expect(await enterpriseOf(ids[0]!)).toBe(clientId);

    const replace = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [ids[0], ids[2]], to_update: 0, client_id: clientId });
    expect(replace.json()).toMatchObject({ linked: 0, unlinked: 1 });
    expect(await enterpriseOf(ids[1]!)).toBeNull();
    expect((await eventsOf(ids[1]!)).map((e) => e.message)).toEqual(['Dispositivo cadastrado (MAC AA:00:00:00:00:02)', 'Vinculado à empresa Frios do Sul', 'Desvinculado da empresa Frios do Sul']);
    emit.mockRestore();
  });

  it('a device that leaves an enterprise keeps its history and loses its users', async () => {
    const device = await deviceByMac('C3:00:00:00:02:04');
    const vida = device!.enterprise_id!;
    const readingsBefore = Number((await ctx.db.selectFrom('readings').select((eb) => eb.fn.countAll().as('n')).where('device_num', '=', device!.num).executeTakeFirstOrThrow()).n);
    expect(readingsBefore).toBeGreaterThan(0);
    const others = (await ctx.db.selectFrom('devices').select('id').where('enterprise_id', '=', vida).where('id', '!=', device!.id).execute()).map((d) => d.id);
    const res = await ctx.request('POST', '/api/devices/link/client', admin, { devices: others, to_update: 0, client_id: vida });
    expect(res.json()).toMatchObject({ linked: 0, unlinked: 1 });
    const after = await deviceByMac('C3:00:00:00:02:04');
    expect(after!.enterprise_id).toBeNull();
    const readingsAfter = Number((await ctx.db.selectFrom('readings').select((eb) => eb.fn.countAll().as('n')).where('device_num', '=', device!.num).executeTakeFirstOrThrow()).n);
    expect(readingsAfter).toBe(readingsBefore);
    // Back where it was, for the other tests.
    await ctx.request('POST', '/api/devices/link/client', admin, { devices: [device!.id], to_update: 1, client_id: vida });
    expect((await deviceByMac('C3:00:00:00:02:04'))!.enterprise_id).toBe(vida);
  });

  it("refuses another enterprise's device (409), an unknown device or enterprise (404), and changes nothing", async () => {
    const aurora = await deviceByMac('C3:00:00:00:01:01');
    const refused = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [ids[1], aurora!.id], to_update: 1, client_id: clientId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('O dispositivo Baú Caminhão 01 (C3:00:00:00:01:01) pertence a outra empresa. Desvincule-o dela antes.');
    expect(await enterpriseOf(ids[1]!)).toBeNull();
    expect(await enterpriseOf(aurora!.id)).toBe(aurora!.enterprise_id);

    const unknown = await ctx.request('POST', '/api/devices/link/client', admin, { devices: ['00000000-0000-4000-8000-000000000000'], to_update: 0, client_id: clientId });
    expect(unknown.statusCode).toBe(404);
    expect(await enterpriseOf(ids[0]!)).toBe(clientId);
    const noClient = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [ids[1]], to_update: 1, client_id: '00000000-0000-4000-8000-000000000000' });
    expect(noClient.statusCode).toBe(404);
    expect(noClient.json().error).toBe('Empresa não encontrada.');
  });

  it('a body without to_update is refused (400) and unlinks nothing: it no longer means "replace the whole list"', async () => {
    const before = await ctx.db.selectFrom('devices').select(['id', 'enterprise_id']).where('enterprise_id', '=', clientId).orderBy('id').execute();
    expect(before.length).toBeGreaterThan(0);
    const res = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [], client_id: clientId });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(LINK_MESSAGES.toUpdateMissing);
    const joao = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).id;
    const linked = await ctx.db.selectFrom('device_users').select('device_id').where('user_id', '=', joao).execute();
    const byUser = await ctx.request('POST', '/api/devices/link/user', auroraAdm, { devices: [], user_id: joao });
    expect(byUser.statusCode).toBe(400);
    expect(await ctx.db.selectFrom('devices').select(['id', 'enterprise_id']).where('enterprise_id', '=', clientId).orderBy('id').execute()).toEqual(before);
    expect(await ctx.db.selectFrom('device_users').select('device_id').where('user_id', '=', joao).execute()).toEqual(linked);
  });

  it('is refused to enterprise admins and users (403), and bad bodies get messages (400)', async () => {
    const res = await ctx.request('POST', '/api/devices/link/client', auroraAdm, { devices: [ids[1]], to_update: 1, client_id: clientId });
    expect(res.statusCode).toBe(403);
    expect(await enterpriseOf(ids[1]!)).toBeNull();
    const bad = await ctx.request('POST', '/api/devices/link/client', admin, { devices: 'todos', to_update: 2, client_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Informe a lista de dispositivos.', 'to_update deve ser 0 (substituir) ou 1 (acrescentar).', 'Empresa não encontrada.']),
    );
  });
});

describe('POST /api/devices/link/user (M6)', () => {
  let auroraUser: string;
  let vidaUser: string;
  let auroraDevice: string;
  let vidaDevice: string;
  beforeAll(async () => {
    auroraUser = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'joao.silva').executeTakeFirstOrThrow()).id;
    vidaUser = (await ctx.db.selectFrom('users').select('id').where('username', '=', 'maria.souza').executeTakeFirstOrThrow()).id;
    auroraDevice = (await deviceByMac('C3:00:00:00:01:03'))!.id;
    vidaDevice = (await deviceByMac('C3:00:00:00:02:01'))!.id;
  });
  const linksOf = async (userId: string) =>
    (await ctx.db.selectFrom('device_users').select('device_id').where('user_id', '=', userId).execute()).map((r) => r.device_id).sort();

  it("an enterprise admin links its device to its user, who then sees it; access is rechecked", async () => {
    const emit = vi.spyOn(ctx.services.events, 'emit');
    const before = await linksOf(auroraUser);
    const res = await ctx.request('POST', '/api/devices/link/user', auroraAdm, { devices: [auroraDevice], to_update: 1, user_id: auroraUser });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Dispositivos vínculados com sucesso!', linked: 1, unlinked: 0 });
    expect(emit).toHaveBeenCalledWith('access.changed', { userId: auroraUser });
    expect(await linksOf(auroraUser)).toEqual([...before, auroraDevice].sort());
    const seen = (await ctx.request('GET', '/api/beacon-device/all', joao)).json().map((d: { mac: string }) => d.mac);
    expect(seen).toContain('C3:00:00:00:01:03');
    expect((await eventsOf(auroraDevice)).at(-1)).toMatchObject({ type: 'link', message: 'Vinculado ao usuário João Silva (joao.silva)' });
    emit.mockRestore();

    // to_update 0: exactly this set.
    const only = await ctx.request('POST', '/api/devices/link/user', auroraAdm, { devices: [auroraDevice], to_update: 0, user_id: auroraUser });
    expect(only.json()).toMatchObject({ linked: 0, unlinked: before.length });
    expect(await linksOf(auroraUser)).toEqual([auroraDevice]);
    expect((await ctx.request('GET', '/api/beacon-device/all', joao)).json().map((d: { mac: string }) => d.mac)).toEqual(['C3:00:00:00:01:03']);
    // Back as it was.
    await ctx.request('POST', '/api/devices/link/user', auroraAdm, { devices: before, to_update: 0, user_id: auroraUser });
    expect(await linksOf(auroraUser)).toEqual(before);
  });

  it("refuses another enterprise's device or user with 404, and changes nothing", async () => {
    const joaoBefore = await linksOf(auroraUser);
    const mariaBefore = await linksOf(vidaUser);
    const foreignDevice = await ctx.request('POST', '/api/devices/link/user', auroraAdm, { devices: [auroraDevice, vidaDevice], to_update: 0, user_id: auroraUser });
    expect(foreignDevice.statusCode).toBe(404);
    expect(foreignDevice.json().error).toBe('Dispositivo não encontrado.');
    const foreignUser = await ctx.request('POST', '/api/devices/link/user', auroraAdm, { devices: [auroraDevice], to_update: 1, user_id: vidaUser });
    expect(foreignUser.statusCode).toBe(404);
    expect(foreignUser.json().error).toBe('Usuário não encontrado.');
    // Even the super admin cannot give a user a device of another enterprise.
    const crossed = await ctx.request('POST', '/api/devices/link/user', admin, { devices: [vidaDevice], to_update: 1, user_id: auroraUser });
    expect(crossed.statusCode).toBe(404);
    expect(await linksOf(auroraUser)).toEqual(joaoBefore);
    expect(await linksOf(vidaUser)).toEqual(mariaBefore);
  });

  it('is refused to plain users (403)', async () => {
    const res = await ctx.request('POST', '/api/devices/link/user', joao, { devices: [auroraDevice], to_update: 1, user_id: auroraUser });
    expect(res.statusCode).toBe(403);
  });
});

describe('enterprise names are unique (M2, M3)', () => {
  it.each(['Aurora Alimentos', 'AURORA   alimentos', 'Áurora Alimentos ', 'aurora ALIMENTÓS'])('refuses "%s" (409) and creates nothing', async (name) => {
    const before = (await ctx.request('GET', '/api/client-all', admin)).json().length;
    const res = await ctx.request('POST', '/api/client/create/', admin, { client: { name }, user: { email: `x${Math.random()}@novo.example`, password: 'Cofre#Azul7134' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(ENTERPRISE_MESSAGES.nameTaken);
    expect((await ctx.request('GET', '/api/client-all', admin)).json().length).toBe(before);
  });
});
