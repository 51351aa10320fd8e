import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';

/** An enterprise's admin or user never reaches another enterprise's users or devices, whatever the call. */
let ctx: TestContext;
let aurora: { token: string; userId: string };
let joao: { token: string; userId: string };
let vidaUserId: string;
let vidaAdminId: string;
let vidaEnterpriseId: string;
let vidaDevice: { id: string; mac: string };
let auroraDevice: { id: string; mac: string };

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  const a = await ctx.login('aurora.adm');
  aurora = { token: a.token, userId: a.user._id };
  const j = await ctx.login('joao.silva');
  joao = { token: j.token, userId: j.user._id };
  const ids = await ctx.db.selectFrom('users').select(['id', 'username']).execute();
  vidaUserId = ids.find((u) => u.username === 'maria.souza')!.id;
  vidaAdminId = ids.find((u) => u.username === 'vida.adm')!.id;
  vidaEnterpriseId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
  const devices = await ctx.db.selectFrom('devices').select(['id', 'mac']).execute();
  vidaDevice = devices.find((d) => d.mac === 'C3:00:00:00:02:02')!;
  auroraDevice = devices.find((d) => d.mac === 'C3:00:00:00:01:03')!;
});
afterAll(() => ctx.close());

describe('an enterprise admin reaching into another enterprise', () => {
  it.each([
    ['GET', () => `/api/user/show/${vidaUserId}`],
    ['GET', () => `/api/user/show/${vidaAdminId}`],
    ['GET', () => `/api/user-client-id/${vidaUserId}`],
    ['GET', () => `/api/devices-by-user/${vidaUserId}`],
    ['GET', () => `/api/access-log?user_id=${vidaUserId}`],
    ['GET', () => `/api/show-beacon-device/${vidaDevice.id}`],
    ['GET', () => `/api/beacon-device/${vidaDevice.mac}/historic-count`],
    ['GET', () => `/api/users-by-client/${vidaEnterpriseId}`],
    ['GET', () => `/api/devices-by-client/${vidaEnterpriseId}`],
    ['GET', () => `/api/client/${vidaEnterpriseId}`],
  ] as const)('%s %s is not found', async (method, url) => {
    const res = await ctx.request(method, url(), aurora.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/não encontrad/);
  });

  it('cannot rename its device, and the name stays', async () => {
    const res = await ctx.request('POST', `/api/devices/update-name/${vidaDevice.mac}`, aurora.token, { name: 'Roubado' });
    expect(res.statusCode).toBe(404);
    const row = await ctx.db.selectFrom('devices').select('name').where('id', '=', vidaDevice.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Caixa Térmica 01');
  });

  it('lists only its own devices', async () => {
    const res = await ctx.request('GET', '/api/beacon-device/all', aurora.token);
    expect(res.statusCode).toBe(200);
    const macs = res.json().map((d: { mac: string }) => d.mac).sort();
    expect(macs).toEqual(['C3:00:00:00:01:01', 'C3:00:00:00:01:02', 'C3:00:00:00:01:03', 'C3:00:00:00:01:04']);
  });

  it('cannot deactivate its users, nor the enterprise', async () => {
    const user = await ctx.request('POST', '/api/client-active-inactive', aurora.token, { user_id: vidaUserId, status: true });
    expect(user.statusCode).toBe(404);
    const client = await ctx.request('POST', '/api/client-active-inactive', aurora.token, { client_id: vidaEnterpriseId, status: true });
    expect(client.statusCode).toBe(403);
    const rows = await ctx.db.selectFrom('users').select('disabled').where('enterprise_id', '=', vidaEnterpriseId).execute();
    expect(rows.every((r) => !r.disabled)).toBe(true);
  });

  it('may not list enterprises', async () => {
    expect((await ctx.request('GET', '/api/client-all', aurora.token)).statusCode).toBe(403);
  });

  it('may not use the super admin listing', async () => {
    expect((await ctx.request('GET', '/api/beacon-device/allAdmin', aurora.token)).statusCode).toBe(403);
  });
});

describe('an ordinary user', () => {
  it('sees only the devices linked to it', async () => {
    const res = await ctx.request('GET', `/api/devices-by-user/${joao.userId}`, joao.token);
    expect(res.json().map((d: { mac: string }) => d.mac).sort()).toEqual(['C3:00:00:00:01:01', 'C3:00:00:00:01:02']);
    const all = await ctx.request('GET', '/api/beacon-device/all', joao.token);
    expect(all.json()).toHaveLength(2);
  });

  it('cannot read an unlinked device of its own enterprise', async () => {
    expect((await ctx.request('GET', `/api/show-beacon-device/${auroraDevice.id}`, joao.token)).statusCode).toBe(404);
  });

  it('cannot read users at all', async () => {
    const res = await ctx.request('GET', `/api/user/show/${aurora.userId}`, joao.token);
    expect(res.statusCode).toBe(403);
  });

  it("cannot list another user's devices", async () => {
    expect((await ctx.request('GET', `/api/devices-by-user/${aurora.userId}`, joao.token)).statusCode).toBe(404);
  });
});

describe('the super admin', () => {
  it('reaches every enterprise', async () => {
    const { token } = await ctx.login('admin');
    expect((await ctx.request('GET', `/api/user/show/${vidaUserId}`, token)).statusCode).toBe(200);
    const all = await ctx.request('GET', '/api/beacon-device/allAdmin', token);
    expect(all.json()).toHaveLength(8);
  });
});
