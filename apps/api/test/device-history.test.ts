import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';

let ctx: TestContext;
let token: string;
const MAC = 'C3:00:00:00:01:03';
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  token = (await ctx.login('aurora.adm')).token;
});
afterAll(() => ctx.close());

describe('GET /api/beacon-device/history/mac/{mac}/page (the web app\'s paged envelope)', () => {
  it('pages the last two days by default, newest first', async () => {
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/page?limit=10`, token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // A reading every 5 minutes: 48 h hold 576 or 577 of them.
    expect(body.total).toBeGreaterThanOrEqual(576);
    expect(body.total).toBeLessThanOrEqual(577);
    expect(body.data).toHaveLength(10);
    expect(Date.parse(body.data[0].createdAt)).toBeGreaterThan(Date.parse(body.data[9].createdAt));
    expect(body.data[0].mac).toBe(MAC);
  });

  it('filters by date range (UTC instants) and by temperature', async () => {
    const to = new Date(ctx.clock.now().getTime() - 3600_000);
    const from = new Date(to.getTime() - 3600_000);
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/page?dateInitUtc=${from.toISOString()}&dateEndUtc=${to.toISOString()}&isUtc=true`, token);
    expect(res.json().total).toBe(12);
    const warm = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/page?minTemp=-19&limit=1000`, token);
    expect(warm.json().data.every((r: { temperature: number }) => r.temperature >= -19)).toBe(true);
    expect(warm.json().total).toBeLessThan(577);
  });

  it('refuses reversed dates and non-numbers in Portuguese', async () => {
    const reversed = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/page?dateInitUtc=2026-11-20T00:00:00Z&dateEndUtc=2026-11-10T00:00:00Z`, token);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toBe('A data inicial deve ser anterior à data final.');
    const nan = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/page?minTemp=abc`, token);
    expect(nan.statusCode).toBe(400);
    expect(nan.json().error).toMatch(/^Temperatura mínima inválida: esperado um número\./);
  });

  it('refuses filters the database could not compare or hold, and pages beyond any OFFSET', async () => {
    const url = (query: string) => `/api/beacon-device/history/mac/${MAC}/page?${query}`;
    for (const [query, message] of [
      ['dateInitUtc=%2B275760-09-13T00:00:00Z', /^Data inicial não é uma data válida/],
      ['dateEndUtc=1969-12-31T23:59:59Z', /^Data final não é uma data válida/],
      ['dateInit=0000-01-01', /^Data inicial não é uma data válida/],
      ['dateEnd=2026-02-30', /^Data final não é uma data válida/],
      ['minTemp=1e-50', /^Temperatura mínima inválida/],
      ['maxTemp=Infinity', /^Temperatura máxima inválida/],
      ['minHum=101', /^Umidade mínima fora da faixa permitida \(0 a 100 %\)/],
      ['page=1e20', /^Página deve ser um número inteiro/],
      ['page=99999999999', /^Página deve ser um número inteiro/],
      ['limit=NaN', /^Registros por página deve ser um número inteiro/],
    ] as const) {
      const res = await ctx.request('GET', url(query), token);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toMatch(message);
    }
    // The bounds themselves are instants every part of the product handles.
    const widest = await ctx.request('GET', url('dateInitUtc=1970-01-01T00:00:00Z&dateEndUtc=2199-12-31T23:59:59.999Z&page=1000000'), token);
    expect(widest.statusCode).toBe(200);
    expect(widest.json()).toMatchObject({ data: [], page: 1_000_000, from: '1970-01-01T00:00:00.000Z', to: '2199-12-31T23:59:59.999Z' });
    const series = await ctx.request('GET', `${url('dateInitUtc=1970-01-01T00:00:00Z&dateEndUtc=2199-12-31T23:59:59.999Z&points=5000').replace('/page?', '/series?')}`, token);
    expect(series.statusCode).toBe(200);
  });
});

describe('GET /api/beacon-device/history/mac/{mac}/series', () => {
  it('downsamples a week to at most the points asked, keeping extremes', async () => {
    const from = new Date(ctx.clock.now().getTime() - 7 * 86_400_000);
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/series?dateInitUtc=${from.toISOString()}&points=100`, token);
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.t.length).toBeLessThanOrEqual(101);
    expect(s.count).toBeGreaterThan(2000);
    // The demo excursion rises above the device's maximum (-16 °C); the bucket maxima keep it.
    expect(s.stats.temperature.max).toBeGreaterThan(-16);
    expect(Math.max(...s.temperature.max)).toBe(s.stats.temperature.max);
    expect(s.limits.temperature).toEqual({ min: -22, max: -16 });
  });
});

describe('device configuration and events (D4, D7)', () => {
  it('saves limits, records the change with who and which client, and lists it in the logs', async () => {
    const device = await ctx.db.selectFrom('devices').select('id').where('mac', '=', MAC).executeTakeFirstOrThrow();
    const res = await ctx.request('PUT', `/api/devices/${device.id}`, token, { name: 'Câmara Fria 1', config: { temperature: { min: '-21,5', max: -15 } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().config.temperature).toEqual({ min: -21.5, max: -15 });
    const logs = await ctx.request('GET', `/api/beacon-device/${MAC}/logs`, token);
    const [event] = logs.json().content;
    expect(event).toMatchObject({ type: 'config', type_formatted: 'Configuração', user: { name: 'Aurora Administração' }, client: 'web', clientVersion: '1.1.0', clientOs: 'linux' });
    // pt-BR decimals, two of them, and "a" between the ends: a minus is never read as the separator (P7).
    expect(event.message).toContain('temperatura -21,50 a -15,00 °C');

    // Humidity 30 to 90.5 reads "30,00 a 90,50 %"; one end only says which.
    await ctx.request('PUT', `/api/devices/${device.id}`, token, { config: { humidity: { min: 30, max: '90,5' } } });
    const humidity = (await ctx.request('GET', `/api/beacon-device/${MAC}/logs`, token)).json().content[0];
    expect(humidity.message).toBe('Configuração alterada: umidade 30,00 a 90,50 %');
    await ctx.request('PUT', `/api/devices/${device.id}`, token, { config: { humidity: { min: null, max: 90 } } });
    expect((await ctx.request('GET', `/api/beacon-device/${MAC}/logs`, token)).json().content[0].message).toBe('Configuração alterada: umidade máximo 90,00 %');
  });

  it('saves and answers the alarm delays the configuration modal edits', async () => {
    const device = await ctx.db.selectFrom('devices').select('id').where('mac', '=', MAC).executeTakeFirstOrThrow();
    const res = await ctx.request('PUT', `/api/devices/${device.id}`, token, { config: { out_of_range_minutes: 15, no_data_minutes: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json().config).toMatchObject({ out_of_range_minutes: 15, no_data_minutes: null });
    const shown = await ctx.request('GET', `/api/show-beacon-device/${device.id}`, token);
    expect(shown.json().config).toMatchObject({ out_of_range_minutes: 15, no_data_minutes: null });
  });

  it('refuses a minimum above the maximum and keeps the stored limits', async () => {
    const device = await ctx.db.selectFrom('devices').select('id').where('mac', '=', MAC).executeTakeFirstOrThrow();
    const res = await ctx.request('PUT', `/api/devices/${device.id}`, token, { config: { temperature: { min: 10 } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('A temperatura mínima deve ser menor que a máxima.');
    const row = await ctx.db.selectFrom('devices').select(['temperature_min']).where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(row.temperature_min).toBe(-21.5);
  });

  it("is closed to another enterprise's admin and to restricted clients", async () => {
    const vida = await ctx.login('vida.adm');
    const device = await ctx.db.selectFrom('devices').select('id').where('mac', '=', MAC).executeTakeFirstOrThrow();
    expect((await ctx.request('PUT', `/api/devices/${device.id}`, vida.token, { name: 'x' })).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/beacon-device/${MAC}/logs`, vida.token)).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}`, vida.token)).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/series`, vida.token)).statusCode).toBe(404);
  });
});
