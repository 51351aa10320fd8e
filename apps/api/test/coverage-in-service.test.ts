import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coverage, Report } from '@sentinela/contract';
import { pdftotext } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { postReadings } from './ingest-helpers';
import { readXlsx, waitForReport } from './report-helpers';

/**
 * Issue 26 (X8, ADR 35): coverage counts from the later of the period's start and the moment the device came into
 * service (registered, or linked to its enterprise), on screen and in the signed reports — "Cobertura 6 %" for a
 * beacon registered today is gone.
 */
let ctx: TestContext;
let admin: string;
let aurora: string;
let vida: string;
let key: string;
let dir: string;
const MAC = 'C3:00:00:00:0A:01';
const MIN = 60_000;
let linkedAt: number;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  [admin, aurora, vida] = [(await ctx.login('admin')).token, (await ctx.login('aurora.adm')).token, (await ctx.login('vida.adm')).token];
  dir = mkdtempSync(path.join(tmpdir(), 'coverage-in-service-'));
  // Registered now by the super admin, linked to Aurora ten minutes later, reporting every minute for an hour after.
  const registered = await ctx.request('POST', '/api/beacon-device', admin, { mac: MAC, name: 'Sensor novo', model: null });
  expect(registered.statusCode, registered.body).toBe(201);
  ctx.clock.advance(10 * MIN);
  const enterprise = await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow();
  [admin] = [(await ctx.login('admin')).token];
  const link = await ctx.request('POST', '/api/devices/link/client', admin, { devices: [registered.json()._id], to_update: 1, client_id: enterprise.id });
  expect(link.statusCode, link.body).toBe(200);
  linkedAt = ctx.clock.now().getTime();
  [aurora, vida] = [(await ctx.login('aurora.adm')).token, (await ctx.login('vida.adm')).token];
  const gateway = await ctx.request('POST', '/api/gateways', aurora, { name: 'Gateway da câmara nova' });
  expect(gateway.statusCode, gateway.body).toBe(201);
  key = gateway.json().key;
  const readings = Array.from({ length: 60 }, (_, k) => ({ mac: MAC, ts: new Date(linkedAt + (k + 1) * MIN).toISOString(), temperature: 4, humidity: 60 }));
  ctx.clock.advance(61 * MIN);
  const res = await postReadings(ctx, readings, key);
  expect(res.json().accepted).toBe(60);
  await ctx.request('PUT', `/api/devices/${registered.json()._id}`, (aurora = (await ctx.login('aurora.adm')).token), { config: { report_interval_seconds: 60 } });
}, 180_000);
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await ctx?.close();
});

describe('coverage of a device that came into service during the period', () => {
  it('counts from its link to the enterprise, says so, and reads 100 % over "the last two days"', async () => {
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/coverage`, aurora);
    expect(res.statusCode, res.body).toBe(200);
    const coverage = res.json() as Coverage;
    expect(coverage.since).toEqual({ at: new Date(linkedAt).toISOString(), reason: 'linked' });
    expect(coverage.from).toBe(new Date(linkedAt).toISOString());
    expect(coverage).toMatchObject({ received: 60, expected: 61, gapCount: 0 });
    expect(coverage.percent).toBeGreaterThan(98);
    // A period that starts after the link is counted from its own start.
    const later = new Date(linkedAt + 30 * MIN).toISOString();
    const inside = (await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/coverage?dateInitUtc=${later}`, aurora)).json() as Coverage;
    expect(inside.since).toBeNull();
    expect(inside.from).toBe(later);
    // Another enterprise: the usual 404.
    vida = (await ctx.login('vida.adm')).token;
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/coverage`, vida)).statusCode).toBe(404);
  });

  it('prints the same in the signed PDF and the spreadsheet', async () => {
    const pdf = (await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/pdf`, aurora)).json() as Report;
    const xlsx = (await ctx.request('GET', `/api/beacon-device/history/mac/${MAC}/excel`, aurora)).json() as Report;
    const pdfDone = await waitForReport(ctx, aurora, pdf._id);
    const xlsxDone = await waitForReport(ctx, aurora, xlsx._id);
    expect(pdfDone.status.id, pdfDone.error ?? '').toBe(2);
    const file = path.join(dir, 'report.pdf');
    writeFileSync(file, (await ctx.request('GET', pdfDone.download_url!)).rawPayload);
    const text = (await pdftotext(file, 1, 2)).replace(/\s+/g, ' ');
    expect(text).toMatch(/Cobertura[^%]*9[89](,\d)? % \(60 de 61 leituras esperadas\); contada a partir de \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}, desde o vínculo do dispositivo à empresa/);
    const workbook = await readXlsx((await ctx.request('GET', xlsxDone.download_url!)).rawPayload);
    const cells: string[] = [];
    workbook.worksheets.forEach((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text)))));
    expect(cells.some((c) => /\(60 de 61 leituras esperadas\); contada a partir de .*desde o vínculo do dispositivo à empresa/.test(c))).toBe(true);
  });

  it('a device registered today and never linked counts from its registration (the super admin reads it)', async () => {
    const mac = 'C3:00:00:00:0A:02';
    const created = await ctx.request('POST', '/api/beacon-device', (admin = (await ctx.login('admin')).token), { mac, name: 'Sensor sem empresa', model: null });
    expect(created.statusCode).toBe(201);
    ctx.clock.advance(30 * MIN);
    const coverage = (await ctx.request('GET', `/api/beacon-device/history/mac/${mac}/coverage`, (admin = (await ctx.login('admin')).token))).json() as Coverage;
    expect(coverage.since).toEqual({ at: created.json().created_at, reason: 'created' });
    expect(coverage).toMatchObject({ received: 0, percent: 0 });
    expect(Date.parse(coverage.to) - Date.parse(coverage.from)).toBe(30 * MIN);
  });
});
