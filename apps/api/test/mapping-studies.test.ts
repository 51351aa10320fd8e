import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_MESSAGES, formatCalendarDate, MAPPING_STUDY_MESSAGES as M, type MappingStudy, type Report } from '@sentinela/contract';
import { addDays, localDay } from '../src/lib/time-zone';
import { pdfsig, pdftotext, signatureValidation } from '../src/reports/testing/poppler';
import { createTestContext, type TestContext } from './context';
import { pdfPart, upload, waitForReport } from './report-helpers';
import { MACS } from './travel-helpers';

/**
 * X12 thermal mapping studies (issue 24 point 4, ADR 0083): a study over fixture readings of three sensors of Aurora
 * makes a signed PDF through the report queue that names the hottest and coldest point by the mean, prints each
 * sensor's figures and calibration line; another enterprise neither reaches Aurora's sensors, location nor studies;
 * bad input is a pt-BR 400 that stores nothing.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP = 10 * 60_000;
const ZONE = 'America/Sao_Paulo';

let ctx: TestContext;
let dir: string;
const tokens: Record<string, string> = {};
const names: Record<string, string> = {};
let from: Date;
let to: Date;

/** 145 readings every 10 minutes over the study's day: the chamber at 5 °C, truck 2 at 7 °C, the freezer at 3 °C with one 9.5 °C spike. */
async function insertFixtureReadings() {
  const series: Array<[string, (i: number) => number]> = [
    [MACS.chamber, () => 5],
    [MACS.truck2, () => 7],
    [MACS.freezer, (i) => (i === 72 ? 9.5 : 3)],
  ];
  for (const [mac, value] of series) {
    const { num } = await ctx.db.selectFrom('devices').select('num').where('mac', '=', mac).executeTakeFirstOrThrow();
    const rows = Array.from({ length: 145 }, (_, i) => ({
      device_num: num, ts: new Date(from.getTime() + i * STEP), temperature: value(i), humidity: 60, battery: 90, lat: null, lng: null, travel_id: null, seq: null, seq_modulo: null,
    }));
    await ctx.db.insertInto('readings').values(rows).execute();
  }
}

async function insertCertificate(mac: string, number: string, calibratedAt: string, dueAt: string) {
  const device = await ctx.db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirstOrThrow();
  await ctx.db.insertInto('calibrations').values({
    device_id: device.id, calibrated_at: calibratedAt, due_at: dueAt, laboratory: 'Termolab (RBC)', certificate_number: number,
    points: '[]', file_name: 'c.pdf', file_path: `${number}.pdf`, file_size: 1, sha256: 'a'.repeat(64), created_by: null, created_at: ctx.clock.now(),
  }).execute();
}

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Câmara fria 2 — qualificação de verão',
  macs: [MACS.chamber, MACS.truck2, MACS.freezer],
  from: from.toISOString(),
  to: to.toISOString(),
  min: 2,
  max: 8,
  ...overrides,
});
const count = async (table: 'mapping_studies' | 'reports') => Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { loginMaxPerMinute: 100 } });
  dir = mkdtempSync(path.join(tmpdir(), 'mapping-studies-'));
  for (const username of ['admin', 'aurora.adm', 'vida.adm', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
  for (const mac of [MACS.chamber, MACS.truck2, MACS.freezer]) names[mac] = (await ctx.db.selectFrom('devices').select('name').where('mac', '=', mac).executeTakeFirstOrThrow()).name;
  // A day three weeks back: the demo's readings cover only the last week, so the study sees the fixture alone.
  from = new Date(Math.floor((ctx.clock.now().getTime() - 21 * DAY) / HOUR) * HOUR);
  to = new Date(from.getTime() + DAY);
  await insertFixtureReadings();
  const end = localDay(to, ZONE);
  await insertCertificate(MACS.chamber, 'RBC-100/2026', addDays(end, -30), addDays(end, 335));
  await insertCertificate(MACS.truck2, 'RBC-007/2025', addDays(end, -400), addDays(end, -35));
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('X12 a thermal mapping study report', () => {
  it('queues a signed PDF naming the hottest and coldest point by the mean, each sensor’s figures and calibration', async () => {
    const res = await ctx.request('POST', '/api/mapping-studies', tokens['aurora.adm'], body());
    expect(res.statusCode, res.body).toBe(201);
    const study = res.json() as MappingStudy;
    expect(study).toMatchObject({
      name: 'Câmara fria 2 — qualificação de verão',
      location: null,
      sensors: [MACS.chamber, MACS.truck2, MACS.freezer].map((mac) => ({ mac, name: names[mac] })),
      from: from.toISOString(),
      to: to.toISOString(),
      min: 2,
      max: 8,
      report: { kind: 'mapping-study', type: 'pdf', status: { id: 1 } },
    });

    const done = await waitForReport(ctx, tokens['aurora.adm']!, study.report._id, 150_000);
    expect(done.status.id, done.error ?? '').toBe(2);
    expect(done.file_name).toMatch(/^Mapeamento-Camara-fria-2-qualificacao-de-verao_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
    // The signed link of ADR 0070 opens it without a session, like every report.
    const file = await ctx.app.inject({ method: 'GET', url: done.download_url! });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const pdfPath = path.join(dir, 'study.pdf');
    writeFileSync(pdfPath, file.rawPayload);
    expect(signatureValidation(await pdfsig(pdfPath))).toBe('Signature is Valid.');
    const validated = await upload(ctx, '/api/report/validate', [pdfPart(file.rawPayload)]);
    expect(validated.json()).toMatchObject({ valid: true, report: { _id: study.report._id, kind: 'mapping-study', enterprise: 'Aurora Alimentos' } });

    const text = (await pdftotext(pdfPath, 1, 9)).replace(/[ \t]+/g, ' ');
    const flat = text.replace(/\s+/g, ' ');
    const [chamber, truck2, freezer] = [MACS.chamber, MACS.truck2, MACS.freezer].map((mac) => names[mac]!);
    expect(flat).toContain('Estudo de mapeamento térmico - Câmara fria 2 — qualificação de verão');
    expect(flat).toContain('Faixa de temperatura 2,00 a 8,00 °C');
    // By the mean: truck 2 (7 °C) is the hottest point, although the freezer's door spike (9.5 °C) is the highest value.
    expect(flat).toContain(`Ponto mais quente 2. ${truck2} (${MACS.truck2}): média 7,00 °C`);
    expect(flat).toContain(`Ponto mais frio 3. ${freezer} (${MACS.freezer}): média 3,04 °C`);
    expect(flat).toContain(`Maior máxima registrada 9,50 °C em 3. ${freezer}`);
    expect(flat).toContain(`Menor mínima registrada 3,00 °C em 3. ${freezer}`);
    // Per sensor: readings, min, max, mean, MKT, time out of range (the spike stands for its 10 minutes).
    const row = (name: string) => text.split('\n').find((line) => line.includes(name) && /\d+,\d\d/.test(line) && line.includes('145'))?.replace(/\s+/g, ' ').trim();
    // (pdftotext may join a short cell with its unit: "0s".)
    expect(row(chamber!)).toMatch(new RegExp(`1 ${chamber} 145 5,00 5,00 5,00 5,00 0 ?s 100,0 %`));
    expect(row(truck2!)).toMatch(new RegExp(`2 ${truck2} 145 7,00 7,00 7,00 7,00 0 ?s 100,0 %`));
    expect(row(freezer!)).toMatch(new RegExp(`3 ${freezer} 145 3,00 9,50 3,04 3,\\d\\d 10 min 00 ?s 99,3 %`));
    // Calibration of each sensor as of the study's last day.
    const end = localDay(to, ZONE);
    expect(flat).toContain(`Certificado RBC-100/2026, Termolab (RBC), válido até ${formatCalendarDate(addDays(end, 335))}`);
    expect(flat).toContain(`Certificado RBC-007/2025, Termolab (RBC): Calibração vencida (venceu em ${formatCalendarDate(addDays(end, -35))})`);
    expect(flat).toContain('Sem certificado de calibração');
    // The spread: 7 − 3 = 4 °C all day (truck 2 over the freezer), but 9.5 − 5 = 4.5 °C while the freezer spikes,
    // when it is the warmest and the chamber the coldest.
    expect(flat).toContain('Diferença entre o ponto mais quente e o mais frio');
    expect(flat).toMatch(new RegExp(`Maior diferença 4,50 °C em \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d \\(3\\. ${freezer} / 1\\. ${chamber}\\)`));
    expect(flat).toContain('Diferença média 4,00 °C');
    expect(flat).toMatch(new RegExp(`4,00 2\\. ${truck2} 3\\. ${freezer}`));

    // The list: the enterprise's studies with their report's status and link; another enterprise sees none.
    const list = (await ctx.request('GET', '/api/mapping-studies', tokens['aurora.adm'])).json() as MappingStudy[];
    expect(list.map((s) => [s._id, s.report.status.id, s.report.download_url !== null])).toEqual([[study._id, 2, true]]);
    expect((await ctx.request('GET', '/api/mapping-studies', tokens['vida.adm'])).json()).toEqual([]);
    expect(((await ctx.request('GET', '/api/mapping-studies', tokens.admin)).json() as MappingStudy[]).map((s) => s._id)).toEqual([study._id]);
    // Its report is one of the enterprise's reports, and of nobody else's.
    expect(((await ctx.request('GET', '/api/reports', tokens['aurora.adm'])).json() as Report[]).some((r) => r._id === study.report._id)).toBe(true);
    expect((await ctx.request('GET', `/api/reports/${study.report._id}`, tokens['vida.adm'])).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/report/files/${study.report._id}`, tokens['vida.adm'])).statusCode).toBe(404);
    // Audited: the study and its sensors in Aurora's chain.
    const trail = await ctx.db.selectFrom('audit_trail').select(['entity', 'action']).where('entity', 'in', ['mapping_study', 'mapping_study_sensor']).execute();
    expect(trail.filter((e) => e.entity === 'mapping_study')).toEqual([{ entity: 'mapping_study', action: 'create' }]);
    expect(trail.filter((e) => e.entity === 'mapping_study_sensor')).toHaveLength(3);
  }, 300_000);
});

describe('X12 who may start and see mapping studies', () => {
  it('another enterprise’s MACs are answered like unknown ones, its location is not found; users and visitors are refused', async () => {
    const studies = await count('mapping_studies');
    const reports = await count('reports');
    const foreign = await ctx.request('POST', '/api/mapping-studies', tokens['vida.adm'], body({ macs: [MACS.vaccines, MACS.chamber] }));
    expect([foreign.statusCode, foreign.json().error]).toEqual([404, M.deviceNotFound(MACS.chamber)]);
    const unknown = await ctx.request('POST', '/api/mapping-studies', tokens['vida.adm'], body({ macs: [MACS.vaccines, 'DE:AD:BE:EF:00:01'] }));
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, M.deviceNotFound('DE:AD:BE:EF:00:01')]);

    const auroraPlace = await ctx.request('POST', '/api/locations', tokens['aurora.adm'], { name: 'Depósito Central', latitude: -23.5, longitude: -46.6 });
    expect(auroraPlace.statusCode, auroraPlace.body).toBe(201);
    const place = await ctx.request('POST', '/api/mapping-studies', tokens['vida.adm'], body({ macs: [MACS.vaccines, MACS.box1], location_id: auroraPlace.json()._id }));
    expect([place.statusCode, place.json().error]).toEqual([404, M.locationNotFound]);
    // The super admin reaches both enterprises, but one study is one enterprise's space.
    const mixed = await ctx.request('POST', '/api/mapping-studies', tokens.admin, body({ macs: [MACS.vaccines, MACS.chamber] }));
    expect([mixed.statusCode, mixed.json().error]).toEqual([400, M.mixedEnterprises]);
    const otherPlace = await ctx.request('POST', '/api/mapping-studies', tokens.admin, body({ macs: [MACS.vaccines, MACS.box1], location_id: auroraPlace.json()._id }));
    expect([otherPlace.statusCode, otherPlace.json().error]).toEqual([400, M.locationOfAnotherEnterprise]);

    expect((await ctx.request('POST', '/api/mapping-studies', tokens['joao.silva'], body())).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/mapping-studies', tokens['joao.silva'])).statusCode).toBe(403);
    expect((await ctx.request('POST', '/api/mapping-studies', undefined, body())).statusCode).toBe(401);
    expect((await ctx.request('GET', '/api/mapping-studies')).statusCode).toBe(401);
    expect([await count('mapping_studies'), await count('reports')]).toEqual([studies, reports]);

    // With its own location, Aurora's admin names where the study was made.
    const located = await ctx.request('POST', '/api/mapping-studies', tokens['aurora.adm'], body({ name: 'Depósito', macs: [MACS.chamber, MACS.truck2], location_id: auroraPlace.json()._id }));
    expect(located.statusCode, located.body).toBe(201);
    expect((located.json() as MappingStudy).location).toEqual({ _id: auroraPlace.json()._id, name: 'Depósito Central' });
  });

  it('answers bad input with a pt-BR 400 and stores nothing', async () => {
    const studies = await count('mapping_studies');
    const reports = await count('reports');
    const day = (n: number) => new Date(from.getTime() + n * DAY).toISOString();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ macs: [MACS.chamber] }, M.tooFewSensors],
      [{ macs: Array.from({ length: 31 }, (_, i) => `C3:00:00:00:09:${String(i).padStart(2, '0')}`) }, M.tooManySensors],
      [{ macs: [MACS.chamber, MACS.chamber.toLowerCase()] }, M.repeatedSensor],
      [{ macs: undefined }, M.sensorsRequired],
      [{ macs: [MACS.chamber, 'xyz'] }, BEACON_MESSAGES.macInvalid],
      [{ from: to.toISOString(), to: from.toISOString() }, M.periodOrder],
      [{ to: from.toISOString() }, M.periodOrder],
      [{ to: day(31.5) }, M.periodTooLong],
      [{ from: '2026-11-01T00:00' }, 'O início do estudo não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).'],
      [{ to: '2300-01-01T00:00:00Z' }, 'O fim do estudo não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).'],
      [{ min: 8, max: 8 }, M.limitsOrder],
      [{ min: 9, max: 2 }, M.limitsOrder],
      [{ max: 1e308 }, 'Temperatura máxima fora da faixa permitida (-80 a 150 °C).'],
      [{ min: '2' }, 'Temperatura mínima inválida: esperado um número.'],
      [{ name: '   ' }, M.nameRequired],
      [{ name: 'Câmara\u0000oculta' }, 'O nome do estudo contém caracteres inválidos.'],
      [{ name: 'x'.repeat(121) }, 'O nome do estudo deve ter no máximo 120 caracteres.'],
      [{ location_id: 'abc' }, M.locationNotFound],
    ];
    for (const [overrides, message] of cases) {
      const res = await ctx.request('POST', '/api/mapping-studies', tokens['aurora.adm'], body(overrides));
      expect([res.statusCode, res.json().error], JSON.stringify(overrides).slice(0, 120)).toEqual([400, message]);
    }
    // Exactly 31 days is accepted (its report has no readings beyond the fixture's day).
    const longest = await ctx.request('POST', '/api/mapping-studies', tokens['aurora.adm'], body({ name: 'Trinta e um dias', to: day(31) }));
    expect(longest.statusCode, longest.body).toBe(201);
    expect([await count('mapping_studies'), await count('reports')]).toEqual([studies + 1, reports + 1]);
  });
});
