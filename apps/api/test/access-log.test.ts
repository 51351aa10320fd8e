import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '@sentinela/contract';
import { ACCESS_LOG_ACTIONS } from '../src/modules/access-log/actions';
import { createTestContext, type TestContext } from './context';
import { walkableRoutes } from './route-walk';

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
    // What each call did, in pt-BR (M7): never the raw route.
    expect(messages).toContain('Consultou os próprios dados de acesso');
    expect(messages).toContain('Consultou a lista de dispositivos');
    for (const message of messages) expect(message).not.toMatch(/\/api\/|GET |POST /);
    expect(entries[0]).toMatchObject({ client: 'web', clientVersion: '1.1.0', clientOs: 'linux', apiVersion: API_VERSION, user: { name: 'João Silva' } });
    expect(entries[0]!.ip).toBeTruthy();
  });

  it('records failed password attempts against the user', async () => {
    await ctx.request('POST', '/api/authenticate', undefined, { username: 'vida.adm', password: 'Errada@123' });
    const vida = await ctx.login('vida.adm');
    const res = await ctx.request('GET', `/api/access-log?user_id=${vida.user._id}`, vida.token);
    expect(res.json().map((e: { message: string }) => e.message)).toContain('Tentativa de login com senha incorreta');
  });

  it('says when a call was refused, and reads rows written before with the same words', async () => {
    const joao = await ctx.login('joao.silva');
    await ctx.request('GET', `/api/access-log?user_id=${joao.user._id}`, joao.token); // 403: not an administrator
    await ctx.request('GET', '/api/travels/00000000-0000-4000-8000-000000000000', joao.token); // 404
    // A row as the log wrote them before issue 26.
    await ctx.db
      .insertInto('access_log')
      .values({ created_at: ctx.clock.now(), user_id: joao.user._id, api_version: API_VERSION, method: 'GET', path: '/api/subscription/standing', status_code: 200, message: 'GET /api/subscription/standing (200)' })
      .execute();
    const admin = await ctx.login('aurora.adm');
    const messages = (await ctx.request('GET', `/api/access-log?user_id=${joao.user._id}`, admin.token)).json().map((e: { message: string }) => e.message);
    expect(messages).toContain('Consultou o registro de acessos (recusado: acesso negado)');
    expect(messages).toContain('Consultou uma viagem (não encontrado)');
    expect(messages).toContain('Consultou a situação da assinatura');
    expect(messages).not.toContain('GET /api/subscription/standing (200)');
  });

  it('has a pt-BR description for every route a session can call, and none for a route that is gone', () => {
    const signedIn = walkableRoutes(ctx.routes).filter((r) => r.url.startsWith('/api') && (r.options.config as { permission?: string } | undefined)?.permission !== 'public');
    const missing = signedIn.map((r) => r.key).filter((key) => !ACCESS_LOG_ACTIONS[key]);
    expect(missing).toEqual([]);
    const routes = new Set(signedIn.map((r) => r.key));
    expect(Object.keys(ACCESS_LOG_ACTIONS).filter((key) => !routes.has(key))).toEqual([]);
  });

  it('is closed to ordinary users', async () => {
    const joao = await ctx.login('joao.silva');
    expect((await ctx.request('GET', `/api/access-log?user_id=${joao.user._id}`, joao.token)).statusCode).toBe(403);
  });
});
