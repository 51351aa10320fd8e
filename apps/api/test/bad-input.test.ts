import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

/** Bad input gets a 4xx with a clear pt-BR message, never a 500, and changes nothing stored. */
let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { bodyLimitBytes: 4096 } });
  token = (await ctx.login('aurora.adm')).token;
});
afterAll(() => ctx.close());

describe('bad input', () => {
  it('missing fields name the field', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', error: 'Campo obrigatório. (campo password)' });
  });

  it('wrong types are refused in Portuguese', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 42, password: ['x'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Usuário deve ser um texto. (campo username)');
    expect(res.json().issues).toEqual([
      { path: 'username', message: 'Usuário deve ser um texto.' },
      { path: 'password', message: 'Senha deve ser um texto.' },
    ]);
  });

  it('blank fields get the form message', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: '  ', password: 'x' });
    expect(res.json().error).toMatch(/^Informe o usuário\./);
  });

  it('broken JSON', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/authenticate', headers: { 'content-type': 'application/json' }, payload: '{"username": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.invalidJson);
  });

  it('oversized bodies', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 'a'.repeat(10_000), password: 'x' });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(MSG.bodyTooLarge);
  });

  it('unsupported content types', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/authenticate', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe(MSG.unsupportedMediaType);
  });

  it('unknown routes', async () => {
    const res = await ctx.request('GET', '/api/nao-existe', token);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(MSG.routeNotFound);
  });

  it('malformed ids and MAC addresses', async () => {
    const id = await ctx.request('GET', '/api/show-beacon-device/123', token);
    expect(id.statusCode).toBe(400);
    const mac = await ctx.request('GET', '/api/beacon-device/xyz/historic-count', token);
    expect(mac.statusCode).toBe(400);
    expect(mac.json().error).toMatch(/^Endereço MAC inválido\./);
  });

  it('a blank device name changes nothing', async () => {
    const res = await ctx.request('POST', '/api/devices/update-name/C3:00:00:00:01:01', token, { name: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Informe o nome do dispositivo\./);
    const row = await ctx.db.selectFrom('devices').select('name').where('mac', '=', 'C3:00:00:00:01:01').executeTakeFirstOrThrow();
    expect(row.name).toBe('Baú Caminhão 01');
  });
});
