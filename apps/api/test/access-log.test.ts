import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());

describe('access log (P4, M7)', () => {
  it('records logins and authenticated requests with the client headers', async () => {
    const joao = await ctx.login('joao.silva');
    await ctx.request('GET', '/api/me', joao.token);
    await ctx.request('GET', '/api/beacon-device/all', joao.token);
    const admin = await ctx.login('aurora.adm');
    const res = await ctx.request('GET', `/api/access-log?user_id=${joao.user._id}`, admin.token);
    expect(res.statusCode).toBe(200);
    const entries = res.json() as Array<Record<string, unknown>>;
    const messages = entries.map((e) => e.message);
    expect(messages).toContain('Login efetuado');
    expect(messages).toContain('GET /api/me (200)');
    expect(messages).toContain('GET /api/beacon-device/all (200)');
    expect(entries[0]).toMatchObject({ client: 'web', clientVersion: '1.1.0', clientOs: 'linux', apiVersion: API_VERSION, user: { name: 'João Silva' } });
    expect(entries[0]!.ip).toBeTruthy();
  });

  it('records failed password attempts against the user', async () => {
    await ctx.request('POST', '/api/authenticate', undefined, { username: 'vida.adm', password: 'Errada@123' });
    const vida = await ctx.login('vida.adm');
    const res = await ctx.request('GET', `/api/access-log?user_id=${vida.user._id}`, vida.token);
    expect(res.json().map((e: { message: string }) => e.message)).toContain('Tentativa de login com senha incorreta');
  });

  it('is closed to ordinary users', async () => {
    const joao = await ctx.login('joao.silva');
    expect((await ctx.request('GET', `/api/access-log?user_id=${joao.user._id}`, joao.token)).statusCode).toBe(403);
  });
});
