import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditTrailPage } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { MACS, PLACES, deviceId, userId } from './travel-helpers';

/** X11: GxP mode and reasons for change (issue 22 points 1 and 5; ADR 0061). */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const REASON = 'Ajuste após recalibração do sensor (OS 1234).';

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['aurora.adm', 'vida.adm', 'admin', 'joao.silva', 'maria.souza']) tokens[username] = (await ctx.login(username)).token;
  ids.aurora = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  ids.vida = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
  ids.chamber = await deviceId(ctx, MACS.chamber);
  ids.freezer = await deviceId(ctx, MACS.freezer);
  ids.truck1 = await deviceId(ctx, MACS.truck1);
  ids.vaccines = await deviceId(ctx, MACS.vaccines);
  ids.joao = await userId(ctx, 'joao.silva');
});
afterAll(() => ctx.close());

const configure = (token: string, id: string, body: Record<string, unknown>) => ctx.request('PUT', `/api/devices/${id}`, token, body);
const limits = (max: number) => ({ config: { temperature: { min: -25, max } } });

async function lastEntry(query: string) {
  const res = await ctx.request('GET', `/api/audit-trail${query}`, tokens['aurora.adm']);
  return (res.json() as AuditTrailPage).data[0]!;
}

describe('X11 GxP mode (GET/PUT /api/enterprise/compliance)', () => {
  it('X11 is off by default, read by the enterprise admin; the super admin names the enterprise', async () => {
    const own = await ctx.request('GET', '/api/enterprise/compliance', tokens['aurora.adm']);
    expect(own.json()).toEqual({ enterprise_id: ids.aurora, gxp: false });
    const unnamed = await ctx.request('GET', '/api/enterprise/compliance', tokens.admin);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error).toBe('Informe a empresa.');
    const named = await ctx.request('GET', `/api/enterprise/compliance?enterprise_id=${ids.vida}`, tokens.admin);
    expect(named.json()).toEqual({ enterprise_id: ids.vida, gxp: false });
  });

  it('X11 another enterprise cannot read nor change it; users who are not admins neither', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await ctx.request(method, `/api/enterprise/compliance?enterprise_id=${ids.aurora}`, tokens['vida.adm'], method === 'PUT' ? { gxp: true } : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Empresa não encontrada.');
    }
    expect((await ctx.request('PUT', '/api/enterprise/compliance', tokens['joao.silva'], { gxp: true })).statusCode).toBe(403);
    // Reading it is everyone's of the enterprise: their screens ask a reason or a signature when it is on.
    expect((await ctx.request('GET', '/api/enterprise/compliance', tokens['joao.silva'])).json()).toEqual({ enterprise_id: ids.aurora, gxp: false });
    expect((await ctx.request('GET', `/api/enterprise/compliance?enterprise_id=${ids.aurora}`, tokens['maria.souza'])).statusCode).toBe(404);
    expect((await ctx.request('GET', '/api/enterprise/compliance', tokens['aurora.adm'])).json().gxp).toBe(false);
  });

  it('X11 off, the documents\' flows stay as they are: a limit changes without a reason', async () => {
    const res = await configure(tokens['aurora.adm']!, ids.chamber!, limits(-14));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('X11 turning it on is itself in the trail', async () => {
    const res = await ctx.request('PUT', '/api/enterprise/compliance', tokens['aurora.adm'], { gxp: true });
    expect(res.json()).toEqual({ enterprise_id: ids.aurora, gxp: true });
    const entry = await lastEntry(`?entity=enterprise&entity_id=${ids.aurora}`);
    expect(entry).toMatchObject({ action: 'update', before: { gxp: false }, after: { gxp: true }, actor: { type: 'user' } });
  });
});

describe('X11 reasons for change in GxP mode', () => {
  it('X11 a limit change without a reason is refused in Portuguese and changes nothing; with one it is in the entry', async () => {
    const before = await ctx.db.selectFrom('devices').select('temperature_max').where('id', '=', ids.chamber!).executeTakeFirstOrThrow();
    const refused = await configure(tokens['aurora.adm']!, ids.chamber!, limits(-13));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Informe o motivo da alteração.');
    expect((await ctx.db.selectFrom('devices').select('temperature_max').where('id', '=', ids.chamber!).executeTakeFirstOrThrow()).temperature_max).toBe(before.temperature_max);
    const tooShort = await configure(tokens['aurora.adm']!, ids.chamber!, { ...limits(-13), reason: 'ok' });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().error).toMatch(/O motivo deve ter no mínimo 3 caracteres/);
    const tooLong = await configure(tokens['aurora.adm']!, ids.chamber!, { ...limits(-13), reason: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    const ok = await configure(tokens['aurora.adm']!, ids.chamber!, { ...limits(-13), reason: REASON });
    expect(ok.statusCode, ok.body).toBe(200);
    const entry = await lastEntry(`?entity=device&entity_id=${ids.chamber}`);
    expect(entry).toMatchObject({ action: 'update', reason: REASON, after: { temperature_max: -13 } });
  });

  it('X11 the same request with nothing to change needs no reason (no change, no entry)', async () => {
    const res = await configure(tokens['aurora.adm']!, ids.chamber!, limits(-13));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('X11 renaming a device and linking devices to a user need a reason', async () => {
    const rename = await ctx.request('POST', `/api/devices/update-name/${encodeURIComponent(MACS.chamber)}`, tokens['aurora.adm'], { name: 'Câmara fria 2' });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().error).toBe('Informe o motivo da alteração.');
    expect((await ctx.request('POST', `/api/devices/update-name/${encodeURIComponent(MACS.chamber)}`, tokens['aurora.adm'], { name: 'Câmara fria 2', reason: REASON })).statusCode).toBe(200);

    const link = { devices: [ids.freezer], to_update: 1, user_id: ids.joao };
    const refused = await ctx.request('POST', '/api/devices/link/user', tokens['aurora.adm'], link);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Informe o motivo da alteração.');
    const linked = await ctx.request('POST', '/api/devices/link/user', tokens['aurora.adm'], { ...link, reason: REASON });
    expect(linked.statusCode, linked.body).toBe(200);
    const entry = await lastEntry(`?entity=device_user&entity_id=${ids.freezer}`);
    expect(entry).toMatchObject({ action: 'create', reason: REASON, after: { device_id: ids.freezer, user_id: ids.joao } });
  });

  it('X11 a travel created with its devices needs none; changing a travel\'s device does', async () => {
    const created = await ctx.request('POST', '/api/travels', tokens['aurora.adm'], {
      origin: PLACES.campinas, destiny: PLACES.santos, responsible_user_id: ids.joao, devices: [{ device_id: ids.freezer }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const travelId = created.json()._id as string;
    const edit = { travel_id: travelId, device_id: ids.freezer, name: 'Freezer na viagem', config: { temperature: { max: -15 } } };
    const refused = await ctx.request('PUT', '/api/travels/edit-travel-device', tokens['aurora.adm'], edit);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Informe o motivo da alteração.');
    const ok = await ctx.request('PUT', '/api/travels/edit-travel-device', tokens['aurora.adm'], { ...edit, reason: REASON });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await lastEntry(`?entity=travel_device&entity_id=${travelId}`)).toMatchObject({ action: 'update', reason: REASON });
  });

  it('X11 an admin\'s edit of a user\'s name needs a reason', async () => {
    const joao = await ctx.db.selectFrom('users').select(['username', 'email']).where('id', '=', ids.joao!).executeTakeFirstOrThrow();
    const body = { name: 'João da Silva', username: joao.username, email: joao.email };
    const refused = await ctx.request('POST', `/api/user/update/${ids.joao}`, tokens['aurora.adm'], body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Informe o motivo da alteração.');
    const ok = await ctx.request('POST', `/api/user/update/${ids.joao}`, tokens['aurora.adm'], { ...body, reason: REASON });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await lastEntry(`?entity=user&entity_id=${ids.joao}`)).toMatchObject({ reason: REASON, after: { name: 'João da Silva' } });
  });

  it('X11 the system (ingestion) needs no reason: alarms still open and end in GxP mode', async () => {
    ctx.clock.advance(10 * 60_000);
    const res = await postReadings(ctx, [{ mac: MACS.chamber, ts: at(ctx, 0), temperature: -20, humidity: 50 }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().accepted).toBe(1);
  });

  it('X11 another enterprise, not in GxP mode, changes without a reason', async () => {
    tokens['vida.adm'] = (await ctx.login('vida.adm')).token;
    const res = await configure(tokens['vida.adm']!, ids.vaccines!, { config: { temperature: { min: 1, max: 9 } } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('X11 turning GxP mode off needs a reason too', async () => {
    tokens['aurora.adm'] = (await ctx.login('aurora.adm')).token;
    const refused = await ctx.request('PUT', '/api/enterprise/compliance', tokens['aurora.adm'], { gxp: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Informe o motivo para desativar o modo GxP.');
    const ok = await ctx.request('PUT', '/api/enterprise/compliance', tokens['aurora.adm'], { gxp: false, reason: 'Fim da validação do sistema.' });
    expect(ok.json().gxp).toBe(false);
    expect(await lastEntry(`?entity=enterprise&entity_id=${ids.aurora}`)).toMatchObject({ reason: 'Fim da validação do sistema.', after: { gxp: false } });
  });
});
