import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedApiToken, ExportedReading, ReadingsExportPage } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { postReadings } from './ingest-helpers';
import { MACS } from './travel-helpers';

/**
 * X13 readings export (ADR 65): GET /api/readings in (device, time) order with a cursor that neither repeats nor
 * skips while readings arrive, the whole period as CSV streamed page by page, scoped like the device history (D3)
 * and by the token's scope. Each test writes its readings in a window of its own, after the demo's.
 */
let ctx: TestContext;
let aurora: string;
let joao: string;
let vida: string;
let windowStart: Date;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  // A day past everything stored so far: the test's window holds only what the test writes.
  ctx.clock.advance(24 * 3600_000);
  windowStart = ctx.clock.now();
  ctx.clock.advance(3 * 3600_000);
  aurora = (await ctx.login('aurora.adm')).token;
  joao = (await ctx.login('joao.silva')).token;
  vida = (await ctx.login('vida.adm')).token;
});

/** An ISO instant `seconds` after the test's window start. */
const t = (seconds: number) => new Date(windowStart.getTime() + seconds * 1000).toISOString();

async function write(mac: string, seconds: readonly number[], value = (s: number) => 2 + (s % 50) / 10) {
  for (let i = 0; i < seconds.length; i += 5000) {
    const res = await postReadings(ctx, seconds.slice(i, i + 5000).map((s) => ({ mac, ts: t(s), temperature: value(s), humidity: 55.5, battery: 90 })));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rejected).toEqual([]);
  }
}

function query(params: Record<string, string | number | undefined>) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
  return `/api/readings?${search.toString()}`;
}

async function page(token: string, params: Record<string, string | number | undefined>): Promise<ReadingsExportPage> {
  const res = await ctx.request('GET', query(params), token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every reading of a walk, page by page. */
async function walk(token: string, params: Record<string, string | number | undefined>, between?: (pageIndex: number) => Promise<void>) {
  const all: ExportedReading[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const p = await page(token, { ...params, cursor });
    all.push(...p.data);
    if (!p.next_cursor) return all;
    cursor = p.next_cursor;
    await between?.(i);
  }
}

const key = (r: ExportedReading) => `${r.mac} ${r.ts}`;

describe('X13 readings by cursor', () => {
  it('answers one device in time order, page by page, to the end of the period (from inclusive, to exclusive)', async () => {
    await write(MACS.truck2, [0, 10, 20, 30, 40, 50, 60]);
    const first = await page(aurora, { mac: MACS.truck2, from: t(0), to: t(60), limit: 4 });
    expect(first.data.map((r) => r.ts)).toEqual([t(0), t(10), t(20), t(30)]);
    expect(first.data[0]).toEqual({ mac: MACS.truck2, ts: t(0), temperature: 2, humidity: 55.5, battery: 90, lat: null, lng: null });
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await page(aurora, { limit: 4, cursor: first.next_cursor! });
    expect(second.data.map((r) => r.ts)).toEqual([t(40), t(50)]);
    expect(second.next_cursor).toBeNull();
  });

  it('is stable while readings arrive: nothing stored before the walk is skipped or repeated', async () => {
    const seconds = Array.from({ length: 30 }, (_, i) => i * 60);
    await write(MACS.truck1, seconds);
    await write(MACS.truck2, seconds);
    const before = await walk(aurora, { from: t(0), to: t(3600), limit: 7 });
    expect(before).toHaveLength(60);

    const during = await walk(aurora, { from: t(0), to: t(3600), limit: 7 }, async (i) => {
      if (i !== 1) return;
      // After the second page (truck 1 at its 14th reading): a reading ahead of the cursor, a late one behind it
      // (a gateway's backlog), one on the next device, and duplicates of what was already answered.
      await write(MACS.truck1, [30 * 60 + 5]);
      await write(MACS.truck1, [30]);
      await write(MACS.truck2, [31 * 60]);
      await write(MACS.truck1, [0, 60]);
    });
    const keys = during.map(key);
    expect(new Set(keys).size).toBe(keys.length);
    // Everything stored before the walk, exactly once, in (device, time) order.
    for (const r of before) expect(keys).toContain(key(r));
    const sorted = [...during].sort((a, b) => (a.mac === b.mac ? a.ts.localeCompare(b.ts) : a.mac.localeCompare(b.mac)));
    expect(during).toEqual(sorted);
    // What arrived ahead of the cursor is in the walk; the late reading behind it is not (the next walk has it).
    expect(keys).toContain(`${MACS.truck1} ${t(30 * 60 + 5)}`);
    expect(keys).toContain(`${MACS.truck2} ${t(31 * 60)}`);
    expect(keys).not.toContain(`${MACS.truck1} ${t(30)}`);
    expect((await walk(aurora, { from: t(0), to: t(3600), limit: 7 })).map(key)).toContain(`${MACS.truck1} ${t(30)}`);
  });

  it('answers every device the caller may see: an administrator its enterprise’s, a user those linked to them', async () => {
    await write(MACS.truck1, [0]);
    await write(MACS.chamber, [0]);
    await write(MACS.vaccines, [0]);
    const admin = await walk(aurora, { from: t(0), to: t(1), limit: 2 });
    expect(admin.map((r) => r.mac)).toEqual([MACS.truck1, MACS.chamber]);
    // João sees the trucks linked to him, not the chamber; Vida Farma only its own.
    expect((await walk(joao, { from: t(0), to: t(1) })).map((r) => r.mac)).toEqual([MACS.truck1]);
    expect((await walk(vida, { from: t(0), to: t(1) })).map((r) => r.mac)).toEqual([MACS.vaccines]);
    for (const [token, mac] of [[joao, MACS.chamber], [vida, MACS.truck1], [aurora, MACS.vaccines]] as const) {
      const res = await ctx.request('GET', query({ mac, from: t(0), to: t(1) }), token);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Dispositivo não encontrado.');
    }
  });

  it('defaults to the last two days and fixes them in the cursor', async () => {
    await write(MACS.truck2, [60, 120, 180]);
    const first = await page(aurora, { mac: MACS.truck2, limit: 2 });
    expect(first.data.map((r) => r.ts)).toEqual([t(60), t(120)]);
    ctx.clock.advance(3600_000);
    aurora = (await ctx.login('aurora.adm')).token;
    await write(MACS.truck2, [3 * 3600 + 600]);
    // The walk's period ended when it began: the reading written later (after its end) is not in it.
    const rest = await page(aurora, { limit: 2, cursor: first.next_cursor! });
    expect(rest.data.map((r) => r.ts)).toEqual([t(180)]);
  });

  it('refuses a bad cursor, another query’s cursor, bad dates and limits with pt-BR 400s', async () => {
    await write(MACS.truck2, [0, 10, 20]);
    const first = await page(aurora, { mac: MACS.truck2, from: t(0), to: t(60), limit: 1 });
    const tampered = JSON.parse(Buffer.from(first.next_cursor!, 'base64url').toString()) as { w: { to: string } };
    tampered.w.to = t(99999);
    const cases: [Record<string, string | number>, string][] = [
      [{ cursor: 'not-a-cursor' }, 'Cursor inválido. Use o next_cursor de uma resposta anterior.'],
      [{ cursor: Buffer.from(JSON.stringify(tampered)).toString('base64url') }, 'Cursor inválido. Use o next_cursor de uma resposta anterior.'],
      [{ cursor: first.next_cursor!, mac: MACS.truck1 }, 'O cursor pertence a outra consulta (mac, from ou to diferentes). Repita a consulta sem cursor.'],
      [{ cursor: first.next_cursor!, to: t(61) }, 'O cursor pertence a outra consulta (mac, from ou to diferentes). Repita a consulta sem cursor.'],
      [{ from: t(60), to: t(0) }, 'A data inicial deve ser anterior à data final.'],
      [{ from: '2026-13-01T00:00:00Z' }, 'A data inicial não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).'],
      [{ to: '2026-01-01' }, 'A data final não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).'],
      [{ limit: 0 }, 'O limite deve ser um número inteiro entre 1 e 5000.'],
      [{ limit: 5001 }, 'O limite deve ser um número inteiro entre 1 e 5000.'],
      [{ mac: 'C3:00:00' }, 'Endereço MAC inválido.'],
    ];
    for (const [params, message] of cases) {
      const res = await ctx.request('GET', query(params), aurora);
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json().issues?.[0]?.message ?? res.json().error, JSON.stringify(params)).toBe(message);
    }
    // A cursor is no way into another enterprise: Vida Farma's session with Aurora's cursor finds no such device.
    expect((await ctx.request('GET', query({ cursor: first.next_cursor! }), vida)).statusCode).toBe(404);
  });

  it('with an API token needs readings:read', async () => {
    await write(MACS.truck2, [0]);
    const create = async (scopes: string[]) => ((await ctx.request('POST', '/api/api-tokens', aurora, { name: 'BI', scopes })).json() as CreatedApiToken).token;
    const devicesOnly = await create(['devices:read']);
    const denied = await ctx.request('GET', query({ mac: MACS.truck2, from: t(0), to: t(1) }), devicesOnly);
    expect(denied.statusCode).toBe(403);
    const readings = await create(['readings:read']);
    expect((await page(readings, { mac: MACS.truck2, from: t(0), to: t(1) })).data).toHaveLength(1);
    // All devices with a token: its enterprise's, never Vida Farma's.
    await write(MACS.vaccines, [0]);
    expect((await walk(readings, { from: t(0), to: t(1) })).map((r) => r.mac)).toEqual([MACS.truck2]);
  });
});

describe('X13 readings as CSV', () => {
  it('streams the whole period: BOM, semicolons, decimal commas, ISO instants, every reading once across pages', async () => {
    // 12,001 readings: more than two of the stream's pages of 5,000.
    const seconds = Array.from({ length: 12_001 }, (_, i) => i / 2);
    await write(MACS.truck1, seconds, (s) => 0.25 + (s % 7));
    const res = await ctx.app.inject({
      method: 'GET',
      url: query({ mac: MACS.truck1, from: t(0), to: t(6001) }),
      headers: { authorization: `Bearer ${aurora}`, accept: 'text/csv' },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename=leituras-C30000000101-${t(0).slice(0, 10)}-a-${t(6001).slice(0, 10)}.csv`);
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('mac;ts;temperature;humidity;battery;lat;lng');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(12_001);
    expect(rows[0]).toBe(`${MACS.truck1};${t(0)};0,25;55,5;90;;`);
    expect(rows[1]).toBe(`${MACS.truck1};${t(0.5)};0,75;55,5;90;;`);
    expect(rows.at(-1)).toBe(`${MACS.truck1};${t(6000)};1,25;55,5;90;;`);
    expect(new Set(rows.map((r) => r.split(';')[1])).size).toBe(12_001);
  });

  it('reads a page only when the client asks for more (nothing held in memory ahead of the client)', async () => {
    await write(MACS.truck2, Array.from({ length: 5001 }, (_, i) => i));
    const enterpriseId = (await ctx.db.selectFrom('devices').select('enterprise_id').where('mac', '=', MACS.truck2).executeTakeFirstOrThrow()).enterprise_id!;
    const { chunks } = await ctx.services.readingsExport.csv({ kind: 'enterprise', enterpriseId }, { mac: MACS.truck2, from: t(0), to: t(86_400), limit: 1000 });
    const header = await chunks.next();
    expect(header.value).toBe('\uFEFFmac;ts;temperature;humidity;battery;lat;lng\r\n');
    const firstPage = await chunks.next();
    expect((firstPage.value as string).split('\r\n').filter(Boolean)).toHaveLength(5000);
    // Written after the first page was read, ahead of it: the second page, read only now, has it.
    await write(MACS.truck2, [6000]);
    const secondPage = await chunks.next();
    expect((secondPage.value as string).split('\r\n').filter(Boolean).map((line) => line.split(';')[1])).toEqual([t(5000), t(6000)]);
    expect((await chunks.next()).done).toBe(true);
  });

  it('answers a refused query with its 4xx before any byte of CSV', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: query({ mac: MACS.vaccines }), headers: { authorization: `Bearer ${aurora}`, accept: 'text/csv' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().error).toBe('Dispositivo não encontrado.');
  });
});
