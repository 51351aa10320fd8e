import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Travel, TravelReading, z, type Report } from '@sentinela/contract';
import { pdftotext } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { waitForReport } from './report-helpers';
import { CODES, MACS, travelId } from './travel-helpers';

/**
 * Issue 26 (T5, ADR 72): a pharmacy follows its carrier's travel by the tracking code. What the code shows (its scope,
 * ADR 36) works end to end through the code's own routes: the cards' readings (Gráficos, Histórico) and their
 * reports (PDF, EXCEL), on the reader's own report list; nothing more.
 */
let ctx: TestContext;
const tokens: Record<string, string> = {};
let auroraTravel: string;
let dir: string;
const CODE = CODES.auroraInProgress;
const history = (code: string, mac: string = MACS.truck1) => `/api/travels/localizator/${code}/devices/${mac}/history`;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['aurora.adm', 'joao.silva', 'vida.adm', 'maria.souza']) tokens[username] = (await ctx.login(username)).token;
  auroraTravel = await travelId(ctx, CODE);
  dir = mkdtempSync(path.join(tmpdir(), 'tracking-viewers-'));
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await ctx?.close();
});

async function setScope(scope: 'position' | 'readings') {
  const res = await ctx.request('PUT', `/api/travels/${auroraTravel}/tracking-link`, tokens['aurora.adm'], { scope, expires_at: null });
  expect(res.statusCode, res.body).toBe(200);
}

describe('another enterprise following a travel by its code (readings scope)', () => {
  it('is told what it sees (view), and reads a card\'s readings through the code, as a visitor does', async () => {
    const lookup = Travel.parse((await ctx.request('GET', `/api/travels/localizator/${CODE}`, tokens['vida.adm'])).json());
    expect(lookup).toMatchObject({ view: 'readings', user: null });
    expect(Travel.parse((await ctx.request('GET', `/api/travels/localizator/${CODE}`, tokens['aurora.adm'])).json()).view).toBe('full');

    const own = z.array(TravelReading).parse((await ctx.request('GET', `/api/travels/${auroraTravel}/devices/${MACS.truck1}/history`, tokens['joao.silva'])).json());
    expect(own.length).toBeGreaterThan(10);
    for (const token of [tokens['vida.adm'], tokens['maria.souza'], undefined]) {
      const res = await ctx.request('GET', history(CODE), token);
      expect(res.statusCode, res.body).toBe(200);
      expect(z.array(TravelReading).parse(res.json())).toEqual(own);
    }
    // The code typed as people type it.
    expect((await ctx.request('GET', history('aur7k2-m9qx'), tokens['vida.adm'])).statusCode).toBe(200);
    // The travel's own route stays closed to them.
    expect((await ctx.request('GET', `/api/travels/${auroraTravel}/devices/${MACS.truck1}/history`, tokens['vida.adm'])).statusCode).toBe(404);
  });

  it('answers 404 for a device not on the travel and for an unknown code, 400 for a bad MAC', async () => {
    const other = await ctx.request('GET', history(CODE, MACS.vaccines), tokens['vida.adm']);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Dispositivo não encontrado nesta viagem.');
    const unknown = await ctx.request('GET', history('ZZZZZZZZZZ'), tokens['vida.adm']);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Viagem não encontrada para este código.');
    expect((await ctx.request('GET', history(CODE, 'nao-e-mac'), tokens['vida.adm'])).statusCode).toBe(400);
  });

  it('asks for a device report through the code: on its own list, of the travel\'s enterprise as sender, downloadable', async () => {
    const res = await ctx.request('GET', `${history(CODE)}/pdf`, tokens['vida.adm']);
    expect(res.statusCode, res.body).toBe(200);
    const queued = res.json() as Report;
    expect(queued).toMatchObject({ kind: 'travel-device-history', mac: MACS.truck1, travel: { _id: auroraTravel, code: CODE } });
    const done = await waitForReport(ctx, tokens['vida.adm']!, queued._id);
    expect(done.status.id, done.error ?? '').toBe(2);
    // On the asker's list, not on the carrier's (their queue, their caps).
    const vidaList = (await ctx.request('GET', '/api/reports', tokens['vida.adm'])).json() as Report[];
    expect(vidaList.map((r) => r._id)).toContain(queued._id);
    const auroraList = (await ctx.request('GET', '/api/reports', tokens['aurora.adm'])).json() as Report[];
    expect(auroraList.map((r) => r._id)).not.toContain(queued._id);

    const file = await ctx.request('GET', done.download_url!, tokens['vida.adm']);
    expect(file.statusCode).toBe(200);
    const pdf = path.join(dir, 'vida.pdf');
    writeFileSync(pdf, file.rawPayload);
    const text = (await pdftotext(pdf, 1)).replace(/\s+/g, ' ');
    expect(text).toContain('Aurora Alimentos');
    expect(text).toContain(CODE);
    expect(text).toContain('(vida.adm)');

    const excel = await ctx.request('GET', `${history(CODE)}/excel`, tokens['maria.souza']);
    expect(excel.statusCode, excel.body).toBe(200);
    expect((await waitForReport(ctx, tokens['maria.souza']!, (excel.json() as Report)._id)).status.id).toBe(2);
  });

  it('a visitor cannot ask for reports (401)', async () => {
    expect((await ctx.request('GET', `${history(CODE)}/pdf`)).statusCode).toBe(401);
  });
});

describe('a position-only or dead code', () => {
  it('shows no readings (403 in the page\'s words) and no reports; the map view says position', async () => {
    await setScope('position');
    try {
      expect(Travel.parse((await ctx.request('GET', `/api/travels/localizator/${CODE}`, tokens['vida.adm'])).json())).toMatchObject({ view: 'position', devices: [] });
      for (const url of [history(CODE), `${history(CODE)}/pdf`, `${history(CODE)}/excel`]) {
        const res = await ctx.request('GET', url, tokens['vida.adm']);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error).toBe('Este link mostra somente a posição da carga.');
      }
      expect((await ctx.request('GET', history(CODE))).statusCode).toBe(403);
      // The carrier's own users still read the travel in full through the code.
      expect((await ctx.request('GET', history(CODE), tokens['joao.silva'])).statusCode).toBe(200);
    } finally {
      await setScope('readings');
    }
  });

  it('a revoked code answers 410 to everyone, also on the readings and report routes', async () => {
    const revoke = await ctx.request('POST', `/api/travels/${auroraTravel}/tracking-link/revoke`, tokens['aurora.adm']);
    expect(revoke.statusCode).toBe(200);
    for (const url of [history(CODE), `${history(CODE)}/pdf`]) {
      const res = await ctx.request('GET', url, tokens['vida.adm']);
      expect(res.statusCode, url).toBe(410);
      expect(res.json().error).toBe('Este link de rastreamento foi revogado. Peça um novo código a quem enviou a carga.');
    }
  });
});
