import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coverage, Device, Report } from '@sentinela/contract';
import { pdftotext } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { deviceByMac, postReadings } from './ingest-helpers';
import { readXlsx, waitForReport } from './report-helpers';

/** Data completeness (issue 14 item 3, ADR 0035): counters, expected interval, coverage, gaps, reports. */

let ctx: TestContext;
const tokens: Record<string, string> = {};
const FREEZER = 'C3:00:00:00:01:04'; // Aurora: coverage windows weeks before the demo's readings
const CHAMBER = 'C3:00:00:00:01:03'; // Aurora: learned interval from fresh readings
const VACCINES = 'C3:00:00:00:02:01'; // Vida Farma
const MIN = 60_000;
let dir: string;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['aurora.adm', 'vida.adm']) tokens[username] = (await ctx.login(username)).token;
  dir = mkdtempSync(path.join(tmpdir(), 'completeness-'));
  // The freezer is configured to report every minute: gaps are silences longer than 3 minutes.
  const freezer = await deviceByMac(ctx, FREEZER);
  const res = await ctx.request('PUT', `/api/devices/${freezer.id}`, tokens['aurora.adm'], { config: { report_interval_seconds: 60 } });
  expect(res.statusCode, res.body).toBe(200);
  // The demo data and two logins: longer than the default hook time on a busy embedded database.
}, 180_000);
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await ctx?.close();
});

/** A minute-aligned instant `days` before the test clock. */
function daysAgo(days: number): number {
  const t = ctx.clock.now().getTime() - days * 86_400_000;
  return t - (t % MIN);
}

const iso = (ms: number) => new Date(ms).toISOString();

async function coverage(mac: string, from: number, to: number, token = tokens['aurora.adm']) {
  return ctx.request('GET', `/api/beacon-device/history/mac/${mac}/coverage?dateInitUtc=${iso(from)}&dateEndUtc=${iso(to)}&isUtc=true`, token);
}

async function post(readings: unknown[]) {
  const res = await postReadings(ctx, readings);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { accepted: number; duplicates: number; rejected: { index: number; code: string; reason: string }[] };
}

describe('sequence counters on ingestion (X8)', () => {
  it('stores an optional 16-bit seq with its modulo, and refuses a bad one per reading in pt-BR', async () => {
    const base = daysAgo(60);
    const body = await post([
      { mac: FREEZER, ts: iso(base), temperature: -18, seq: 0 },
      { mac: FREEZER, ts: iso(base + MIN), temperature: -18, seq: 65_535 },
      { mac: FREEZER, ts: iso(base + 2 * MIN), temperature: -18 },
      { mac: FREEZER, ts: iso(base + 3 * MIN), seq: 65_536 },
      { mac: FREEZER, ts: iso(base + 4 * MIN), seq: -1 },
      { mac: FREEZER, ts: iso(base + 5 * MIN), seq: 1.5 },
      { mac: FREEZER, ts: iso(base + 6 * MIN), seq: '7' },
    ]);
    expect(body.accepted).toBe(3);
    expect(body.rejected.map((r) => r.index)).toEqual([3, 4, 5, 6]);
    for (const r of body.rejected) {
      expect(r.code).toBe('invalid_value');
      expect(r.reason).toBe('Contador de sequência inválido: esperado um inteiro de 0 a 65535.');
    }
    const device = await deviceByMac(ctx, FREEZER);
    const rows = await ctx.db
      .selectFrom('readings')
      .select(['seq', 'seq_modulo'])
      .where('device_num', '=', device.num)
      .where('ts', '>=', new Date(base))
      .where('ts', '<=', new Date(base + 10 * MIN))
      .orderBy('ts')
      .execute();
    expect(rows).toEqual([
      { seq: 0, seq_modulo: 65_536 },
      { seq: 65_535, seq_modulo: 65_536 },
      { seq: null, seq_modulo: null },
    ]);
  });
});

describe('expected interval (X8)', () => {
  it('is learned by the ingestion from the device’s own readings and shown with the device', async () => {
    const now = ctx.clock.now().getTime();
    // Every 30 s for four minutes (within the 5 minutes ahead a gateway clock may be).
    await post(Array.from({ length: 8 }, (_, i) => ({ mac: CHAMBER, ts: iso(now + (i + 1) * 30_000), temperature: -19 })));
    const learned = (await deviceByMac(ctx, CHAMBER)).learned_interval_seconds!;
    expect(learned).toBeGreaterThanOrEqual(29);
    expect(learned).toBeLessThan(40);
    const devices = (await ctx.request('GET', '/api/beacon-device/all', tokens['aurora.adm'])).json() as Device[];
    const chamber = devices.find((d) => d.mac === CHAMBER)!;
    expect(chamber.expectedIntervalSeconds).toBe(Math.round(learned));
    expect(chamber.config.report_interval_seconds).toBeNull();
    // The configured interval wins over the learned one.
    expect(devices.find((d) => d.mac === FREEZER)!).toMatchObject({ expectedIntervalSeconds: 60, config: { report_interval_seconds: 60 } });
  });

  it('is validated in the configuration with a pt-BR message, recorded as an event, and null clears it', async () => {
    const chamber = await deviceByMac(ctx, CHAMBER);
    for (const value of [0, 86_401, 1.5, 'abc']) {
      const res = await ctx.request('PUT', `/api/devices/${chamber.id}`, tokens['aurora.adm'], { config: { report_interval_seconds: value } });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().error).toContain('O intervalo esperado entre leituras (segundos) deve ser um número inteiro entre 1 e 86400.');
    }
    const set = await ctx.request('PUT', `/api/devices/${chamber.id}`, tokens['aurora.adm'], { config: { report_interval_seconds: 120 } });
    expect(set.json()).toMatchObject({ expectedIntervalSeconds: 120, config: { report_interval_seconds: 120 } });
    const events = await ctx.request('GET', `/api/beacon-device/${CHAMBER}/logs`, tokens['aurora.adm']);
    expect(JSON.stringify(events.json())).toContain('intervalo esperado entre leituras 120 s');
    const cleared = await ctx.request('PUT', `/api/devices/${chamber.id}`, tokens['aurora.adm'], { config: { report_interval_seconds: null } });
    expect(cleared.json().config.report_interval_seconds).toBeNull();
    expect(cleared.json().expectedIntervalSeconds).toBe(Math.round(chamber.learned_interval_seconds!));
  });

  it('another enterprise’s device cannot be configured: 404, nothing changed', async () => {
    const vaccines = await deviceByMac(ctx, VACCINES);
    const res = await ctx.request('PUT', `/api/devices/${vaccines.id}`, tokens['aurora.adm'], { config: { report_interval_seconds: 10 } });
    expect(res.statusCode).toBe(404);
    expect((await deviceByMac(ctx, VACCINES)).report_interval_seconds).toBeNull();
  });
});

describe('GET /api/beacon-device/history/mac/{mac}/coverage (X8)', () => {
  // 20 readings a minute apart, a 21-minute silence in the middle; the counter wraps in the first block and the
  // sensor kept counting through the silence (20 readings lost between sensor and gateway).
  let base: number;
  beforeAll(async () => {
    base = daysAgo(20);
    const reading = (k: number) => ({ mac: FREEZER, ts: iso(base + k * MIN), temperature: -18, seq: (65_530 + k) % 65_536 });
    const first = Array.from({ length: 10 }, (_, k) => reading(k));
    const second = Array.from({ length: 10 }, (_, k) => reading(30 + k));
    // Out of order: the later block first, each block newest first.
    await post(second.reverse());
    await post(first.reverse());
  });

  it('counts the readings received of those expected, the gaps and the readings lost (counter wrap, period not aligned)', async () => {
    const from = base - 30_000;
    const to = base + 40 * MIN + 20_000;
    const res = await coverage(FREEZER, from, to);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json() as Coverage;
    expect(c).toMatchObject({
      from: iso(from),
      to: iso(to),
      expectedIntervalSeconds: 60,
      intervalSource: 'configured',
      thresholdMs: 3 * MIN,
      expected: 41, // 40 min 50 s at one a minute
      received: 20,
      percent: 48.8,
      gapCount: 1,
      gapTotalMs: 21 * MIN,
      lost: 20,
    });
    expect(c.gaps).toEqual([{ start: iso(base + 9 * MIN), end: iso(base + 30 * MIN), durationMs: 21 * MIN }]);
  });

  it('with no readings: the whole period is one gap, nothing received, no counters', async () => {
    const from = daysAgo(40);
    const c = (await coverage(FREEZER, from, from + 10 * MIN)).json() as Coverage;
    expect(c).toMatchObject({ expected: 10, received: 0, percent: 0, gapCount: 1, lost: null });
    expect(c.gaps[0]).toEqual({ start: iso(from), end: iso(from + 10 * MIN), durationMs: 10 * MIN });
  });

  it('with one reading: the silences before and after it, no pair of counters', async () => {
    const from = daysAgo(50);
    await post([{ mac: FREEZER, ts: iso(from + 5 * MIN), temperature: -18, seq: 9 }]);
    const c = (await coverage(FREEZER, from, from + 20 * MIN)).json() as Coverage;
    expect(c).toMatchObject({ expected: 20, received: 1, percent: 5, gapCount: 2, lost: null });
    expect(c.gaps.map((g) => g.durationMs)).toEqual([5 * MIN, 15 * MIN]);
  });

  it('a counter reset is not counted as losses; a repeated counter neither', async () => {
    const from = daysAgo(70);
    const seqs = [1000, 1001, 1001, 1003, 5, 6, 7];
    await post(seqs.map((seq, k) => ({ mac: FREEZER, ts: iso(from + k * MIN), temperature: -18, seq })));
    const c = (await coverage(FREEZER, from, from + 7 * MIN)).json() as Coverage;
    // 1001 → 1003 lost one; 1003 → 5 is a reset (a step of more than half the counter); 1001 → 1001 is a repeat.
    expect(c).toMatchObject({ received: 7, lost: 1, gapCount: 0 });
  });

  it('stops at now: the future is not a gap', async () => {
    const now = ctx.clock.now().getTime();
    const c = (await coverage(FREEZER, now - 10 * MIN, now + 86_400_000)).json() as Coverage;
    expect(Date.parse(c.to)).toBe(now);
  });

  it('another enterprise’s device is not found; a bad period is refused in pt-BR', async () => {
    const res = await coverage(VACCINES, base, base + MIN);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Dispositivo não encontrado.');
    const reversed = await coverage(FREEZER, base + MIN, base);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toBe('A data inicial deve ser anterior à data final.');
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${FREEZER}/coverage`)).statusCode).toBe(401);
  });

  it('the device’s series tells the chart its gap threshold', async () => {
    const series = await ctx.request('GET', `/api/beacon-device/history/mac/${FREEZER}/series?dateInitUtc=${iso(base)}&dateEndUtc=${iso(base + 40 * MIN)}`, tokens['aurora.adm']);
    expect(series.json().gapSeconds).toBe(180);
  });

  describe('in reports', () => {
    async function exportReport(kind: 'pdf' | 'excel') {
      const url = `/api/beacon-device/history/mac/${FREEZER}/${kind}?dateInitUtc=${iso(base - 30_000)}&dateEndUtc=${iso(base + 40 * MIN + 20_000)}`;
      const res = await ctx.request('GET', url, tokens['aurora.adm']);
      expect(res.statusCode, res.body).toBe(200);
      const done = await waitForReport(ctx, tokens['aurora.adm']!, (res.json() as Report)._id, 150_000);
      expect(done.status.id, done.error ?? '').toBe(2);
      return (await ctx.request('GET', done.download_url!, tokens['aurora.adm'])).rawPayload;
    }

    it('the signed PDF prints the coverage beside the statistics, with the gap', async () => {
      const file = path.join(dir, 'coverage.pdf');
      writeFileSync(file, await exportReport('pdf'));
      const text = (await pdftotext(file, 1, 2)).replace(/\s+/g, ' ');
      expect(text).toContain('Cobertura dos dados');
      expect(text).toContain('48,8 % (20 de 41 leituras esperadas)');
      expect(text).toContain('1 (21 min sem dados)');
      expect(text).toContain('Leituras perdidas 20 (entre sensor e gateway, pelo contador de sequência)');
      expect(text).toContain('Intervalo esperado 1 min (configurado); lacuna acima de 3 min');
      expect(text).toMatch(/1 \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} 21 min/);
      expect(text.indexOf('Estatísticas')).toBeLessThan(text.indexOf('Cobertura dos dados'));
    }, 180_000);

    it('the Excel gets a "Lacunas" sheet', async () => {
      const workbook = await readXlsx(await exportReport('excel'));
      const sheet = workbook.getWorksheet('Lacunas')!;
      expect(sheet).toBeDefined();
      expect(sheet.rowCount).toBe(2);
      const row = sheet.getRow(2);
      expect(row.getCell(1).value).toBe(1);
      expect(row.getCell(2).value).toBeInstanceOf(Date);
      // A duration cell reads back as a date after Excel's epoch (1899-12-30).
      expect(((row.getCell(4).value as Date).getTime() - Date.UTC(1899, 11, 30)) / 1000).toBe(21 * 60);
      const summary = workbook.getWorksheet('Resumo')!;
      const texts: string[] = [];
      summary.eachRow((r) => r.eachCell((cell) => void texts.push(String(cell.text))));
      expect(texts).toContain('48,8 % (20 de 41 leituras esperadas)');
    }, 180_000);
  });
});
