import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  adminToken = (await ctx.login('admin')).token;
});
afterAll(() => ctx.close());

describe('GET /api/client-all', () => {
  it('lists enterprises with their devices, users and owner', async () => {
    const res = await ctx.request('GET', '/api/client-all', adminToken);
    expect(res.statusCode).toBe(200);
    const aurora = res.json().find((e: { name: string }) => e.name === 'Aurora Alimentos');
    expect(aurora.available_devices).toHaveLength(4);
    expect(aurora.users).toHaveLength(2);
    expect(aurora.userOwner).toMatchObject({ username: 'aurora.adm' });
  });
});

describe('users of an enterprise', () => {
  it('an enterprise admin lists, deactivates and reactivates its users', async () => {
    const { token, user } = await ctx.login('aurora.adm');
    const clientId = user.enterprise!._id;
    const active = await ctx.request('GET', `/api/users-by-client/${clientId}?disabled=false`, token);
    expect(active.json().map((u: { username: string }) => u.username).sort()).toEqual(['aurora.adm', 'joao.silva']);
    const joao = active.json().find((u: { username: string }) => u.username === 'joao.silva');
    const joaoSession = await ctx.login('joao.silva');

    const off = await ctx.request('POST', '/api/client-active-inactive', token, { user_id: joao._id, status: true });
    expect(off.json()).toEqual({ success: true, message: 'Usuário Desativado com Sucesso!' });
    expect((await ctx.request('GET', '/api/me', joaoSession.token)).statusCode).toBe(401);
    const inactive = await ctx.request('GET', `/api/users-by-client/${clientId}?disabled=true`, token);
    expect(inactive.json().map((u: { username: string }) => u.username)).toEqual(['joao.silva']);

    const on = await ctx.request('POST', '/api/client-active-inactive', token, { user_id: joao._id, status: false });
    expect(on.json().message).toBe('Usuário Ativado com Sucesso!');
    await ctx.login('joao.silva');
  });

  it('nobody deactivates themselves', async () => {
    const { token, user } = await ctx.login('vida.adm');
    const res = await ctx.request('POST', '/api/client-active-inactive', token, { user_id: user._id, status: true });
    expect(res.statusCode).toBe(400);
  });

  it('a deactivated enterprise locks its users out', async () => {
    const vida = await ctx.login('maria.souza');
    const res = await ctx.request('POST', '/api/client-active-inactive', adminToken, { client_id: vida.user.enterprise!._id, status: true });
    expect(res.statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/me', vida.token)).statusCode).toBe(401);
    const again = await ctx.request('POST', '/api/authenticate', undefined, { username: 'maria.souza', password: 'Sentinela@2026' });
    // Exactly a wrong password's answer: a login never confirms that an account exists but is disabled (ADR 0014).
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe(MSG.invalidCredentials);
    await ctx.request('POST', '/api/client-active-inactive', adminToken, { client_id: vida.user.enterprise!._id, status: false });
  });

  it('asks for exactly one of user_id and client_id', async () => {
    const res = await ctx.request('POST', '/api/client-active-inactive', adminToken, { status: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Informe user_id ou client_id.');
  });
});
