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
  it('missing fields are named in the issues; the message people read has no wire names (issue 26)', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, code: 'VALIDATION', error: 'Campo obrigatório.', issues: [{ path: 'password', message: 'Campo obrigatório.' }] });
    // A form's reason left out: "Informe o motivo da baixa manual.", never "(campo reason)".
    const admin = (await ctx.login('admin')).token;
    // The demo's billing issues invoices (src/seed/demo-billing.ts).
    const invoice = await ctx.db.selectFrom('invoices').select('id').executeTakeFirstOrThrow();
    const paid = await ctx.request('POST', `/api/invoices/${invoice.id}/mark-paid`, admin, {});
    expect(paid.statusCode).toBe(400);
    expect(paid.json().error).toBe('Informe o motivo da baixa manual.');
    expect(paid.json().issues).toEqual([{ path: 'reason', message: 'Informe o motivo da baixa manual.' }]);
  });

  it('wrong types are refused in Portuguese', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 42, password: ['x'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Usuário deve ser um texto.');
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

describe('values the database cannot hold are refused before they reach it', () => {
  it('a NUL or control character in the login answers 400 or 401, never 500', async () => {
    for (const payload of [
      { username: 'admin\u0000', password: 'x' },
      { username: 'admin', password: 'Sentinela@2026\u0000' },
      { username: '\u0000', password: '\u0000' },
      { username: 'ad\u001bmin', password: 'x' },
      { username: 'a\uD800', password: 'b\uDC00' },
    ]) {
      const res = await ctx.request('POST', '/api/authenticate', undefined, payload);
      expect([400, 401], JSON.stringify(payload)).toContain(res.statusCode);
    }
    const nul = await ctx.request('POST', '/api/authenticate', undefined, { username: 'admin\u0000', password: 'x' });
    expect(nul.json()).toMatchObject({ statusCode: 400, error: 'Usuário contém caracteres inválidos.' });
    const password = await ctx.request('POST', '/api/authenticate', undefined, { username: 'admin', password: 'a\u0000' });
    expect(password.json().error).toBe('Senha contém caracteres inválidos.');
  });

  it('a limit of "Infinity" (or beyond what a sensor can read) is refused, and the device list keeps answering', async () => {
    const device = await ctx.db.selectFrom('devices').select(['id', 'temperature_max']).where('mac', '=', 'C3:00:00:00:01:01').executeTakeFirstOrThrow();
    for (const [max, message] of [
      ['Infinity', 'Temperatura máxima inválida: esperado um número.'],
      ['-Infinity', 'Temperatura máxima inválida: esperado um número.'],
      ['NaN', 'Temperatura máxima inválida: esperado um número.'],
      ['1e999', 'Temperatura máxima inválida: esperado um número.'],
      ['1e-50', 'Temperatura máxima inválida: esperado um número.'],
      [1e-50, 'Temperatura máxima inválida: esperado um número.'],
      [10_000, 'Temperatura máxima fora da faixa permitida (-80 a 150 °C).'],
    ] as const) {
      const res = await ctx.request('PUT', `/api/devices/${device.id}`, token, { config: { temperature: { max } } });
      expect(res.statusCode, String(max)).toBe(400);
      expect(res.json().error).toBe(message);
      expect(res.json().issues[0].path).toBe('config.temperature.max');
    }
    const stored = await ctx.db.selectFrom('devices').select('temperature_max').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(stored.temperature_max).toBe(device.temperature_max);
    const list = await ctx.request('GET', '/api/beacon-device/all', token);
    expect(list.statusCode).toBe(200);
    // The physical bounds themselves are limits a device may have.
    const bounds = await ctx.request('PUT', `/api/devices/${device.id}`, token, { config: { temperature: { min: '-80', max: 150 }, humidity: { min: 0, max: '100,0' } } });
    expect(bounds.statusCode).toBe(200);
    expect(bounds.json().config).toMatchObject({ temperature: { min: -80, max: 150 }, humidity: { min: 0, max: 100 } });
    expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(200);
  });

  it('texts with NUL, unpaired surrogates or direction overrides are refused field by field', async () => {
    for (const name of ['Baú\u0000', 'Baú\uD83D', 'Baú \u202Eexe.gpj', 'x'.repeat(81)]) {
      const res = await ctx.request('POST', '/api/devices/update-name/C3:00:00:00:01:01', token, { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().issues[0].path).toBe('name');
    }
    // Accents typed decomposed are stored composed; emoji are text like any other.
    const ok = await ctx.request('POST', '/api/devices/update-name/C3:00:00:00:01:01', token, { name: ' Bau\u0301 🚚 ' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().name).toBe('Baú 🚚');
    const code = await ctx.request('GET', '/api/travels/localizator/AUR%00', undefined);
    expect(code.statusCode).toBe(400);
    expect(code.json().error).toMatch(/^O código contém caracteres inválidos\./);
  });

  it('ids of rows that do not exist or belong to another enterprise answer 404 in Portuguese', async () => {
    const vida = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
    const nobody = '00000000-0000-4000-8000-000000000000';
    const admin = (await ctx.login('admin')).token;
    for (const [method, url, who, body, message] of [
      ['GET', `/api/users-by-client/${vida}`, token, undefined, 'Empresa não encontrada.'],
      ['GET', `/api/users-by-client/${nobody}`, admin, undefined, 'Empresa não encontrada.'],
      ['GET', `/api/devices-by-client/${vida}`, token, undefined, 'Empresa não encontrada.'],
      ['GET', `/api/devices-by-client/${nobody}`, admin, undefined, 'Empresa não encontrada.'],
      ['POST', '/api/gateways', token, { name: 'Gateway', enterprise_id: vida }, 'Empresa não encontrada.'],
      ['POST', '/api/gateways', admin, { name: 'Gateway', enterprise_id: nobody }, 'Empresa não encontrada.'],
      ['POST', '/api/client-active-inactive', admin, { client_id: nobody, status: true }, 'Empresa não encontrada.'],
    ] as const) {
      const res = await ctx.request(method, url, who, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe(message);
    }
  });
});
