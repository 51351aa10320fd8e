import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportStatus, type AuditTrailPage, type AuditVerifyResult, type RetentionSettings } from '@sentinela/contract';
import { ensureReadingPartitions } from '../src/modules/readings/partitions';
import { createTestContext, type TestContext } from './context';
import { MACS } from './travel-helpers';

/** X14 retention (issue 25 point 5, ADR 0081): per-enterprise periods, a legal hold, and a job that records what it removed. */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const nums: Record<string, number> = {};
const DAY = 86_400_000;
const REASON = 'Política de retenção revisada pela Qualidade (POP-012).';

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const username of ['aurora.adm', 'vida.adm', 'admin', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
  for (const name of ['Aurora Alimentos', 'Vida Farma']) {
    ids[name] = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }
  for (const [key, mac] of [['chamber', MACS.chamber], ['vaccines', MACS.vaccines]] as const) {
    nums[key] = (await ctx.db.selectFrom('devices').select('num').where('mac', '=', mac).executeTakeFirstOrThrow()).num;
  }
});
afterAll(() => ctx.close());

const daysAgo = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY);

/** Readings written as an old import would have: straight into the table, in their months' partitions. */
async function storeReading(deviceNum: number, ts: Date, temperature: number) {
  await ensureReadingPartitions(ctx.db, [ts]);
  await ctx.db.insertInto('readings').values({ device_num: deviceNum, ts, temperature, humidity: null, battery: null, lat: null, lng: null, travel_id: null, seq: null, seq_modulo: null }).execute();
}

async function readingsAt(deviceNum: number, ts: Date): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM readings WHERE device_num = ${deviceNum} AND ts = ${ts}`.execute(ctx.db);
  return Number(rows[0]!.n);
}

const put = (token: string, body: Record<string, unknown>, query = '') => ctx.request('PUT', `/api/enterprise/retention${query}`, token, body);
const settings = (days: number, extra: Record<string, unknown> = {}) => ({ readings_days: days, report_files_days: days, legal_hold: false, ...extra });

describe('X14 retention settings (GET/PUT /api/enterprise/retention)', () => {
  it('X14 five years and a day by default, read by the enterprise admin; the super admin names the enterprise; nobody else', async () => {
    const own = await ctx.request('GET', '/api/enterprise/retention', tokens['aurora.adm']!);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({
      enterprise_id: ids['Aurora Alimentos']!, readings_days: 1827, report_files_days: 1827, legal_hold: false, legal_hold_reason: null, minimum_readings_days: 30,
    } satisfies RetentionSettings);

    const unnamed = await ctx.request('GET', '/api/enterprise/retention', tokens.admin!);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error).toBe('Informe a empresa.');
    const named = await ctx.request('GET', `/api/enterprise/retention?enterprise_id=${ids['Vida Farma']!}`, tokens.admin!);
    expect(named.json().enterprise_id).toBe(ids['Vida Farma']!);

    // Another enterprise's administrator cannot read nor change Aurora's; an ordinary user reads none.
    const across = await ctx.request('GET', `/api/enterprise/retention?enterprise_id=${ids['Aurora Alimentos']!}`, tokens['vida.adm']!);
    expect(across.statusCode).toBe(404);
    expect(across.json().error).toBe('Empresa não encontrada.');
    const changeAcross = await put(tokens['vida.adm']!, settings(60), `?enterprise_id=${ids['Aurora Alimentos']!}`);
    expect(changeAcross.statusCode).toBe(404);
    expect((await ctx.request('GET', '/api/enterprise/retention', tokens['joao.silva']!)).statusCode).toBe(403);
  });

  it('X14 refuses periods the column or the law cannot take, and a legal hold without its reason, in pt-BR', async () => {
    for (const days of [10, 36601, 2 ** 31, 1.5, -1]) {
      const res = await put(tokens['aurora.adm']!, settings(days));
      expect(res.statusCode, String(days)).toBe(400);
      expect(res.json().error).toMatch(/deve ser um número inteiro entre 30 e 36600/);
    }
    const hold = await put(tokens['aurora.adm']!, settings(1827, { legal_hold: true }));
    expect(hold.statusCode).toBe(400);
    expect(hold.json().error).toMatch(/Informe o motivo da retenção legal/);
    const control = await put(tokens['aurora.adm']!, settings(1827, { legal_hold: true, legal_hold_reason: 'Processo\u0000 123' }));
    expect(control.statusCode).toBe(400);

    // In GxP mode readings are kept at least five years, and every change carries its reason.
    const gxp = await ctx.request('PUT', '/api/enterprise/compliance', tokens['vida.adm']!, { gxp: true });
    expect(gxp.statusCode, gxp.body).toBe(200);
    const short = await put(tokens['vida.adm']!, { ...settings(365), reason: REASON });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('No modo GxP as leituras são guardadas por pelo menos 1827 dias (5 anos).');
    const unexplained = await put(tokens['vida.adm']!, settings(1900));
    expect(unexplained.statusCode).toBe(400);
    expect(unexplained.json().error).toBe('Informe o motivo da alteração.');
    const held = await put(tokens['vida.adm']!, { ...settings(1827, { legal_hold: true, legal_hold_reason: 'Inspeção sanitária em andamento (ANVISA 2026/77).' }), reason: REASON });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({ legal_hold: true, legal_hold_reason: 'Inspeção sanitária em andamento (ANVISA 2026/77).', minimum_readings_days: 1827 });

    // The change is in Vida's trail, with its reason.
    const trail = (await ctx.request('GET', `/api/audit-trail?entity=enterprise&entity_id=${ids['Vida Farma']!}`, tokens['vida.adm']!)).json() as AuditTrailPage;
    const entry = trail.data.find((e) => (e.after as Record<string, unknown> | null)?.legal_hold === true);
    expect(entry?.reason).toBe(REASON);
  });
});

describe('X14 the retention job', () => {
  it('X14 removes what each policy lets go, by rows or whole partitions, keeps what a legal hold covers, and writes it into the trail', async () => {
    expect((await put(tokens['aurora.adm']!, settings(60))).statusCode).toBe(200);
    const old = { aurora400: daysAgo(400), aurora90: daysAgo(90), aurora10: daysAgo(10), vida2100: daysAgo(2100) };
    await storeReading(nums.chamber!, old.aurora400, 4.1);
    await storeReading(nums.chamber!, old.aurora90, 4.2);
    await storeReading(nums.chamber!, old.aurora10, 4.3);
    await storeReading(nums.vaccines!, old.vida2100, 5.1);
    const vidaPartition = `readings_p${old.vida2100.toISOString().slice(0, 7).replace('-', '')}`;

    // Report files: one of Aurora's from 75 days ago (past its 60-day limit) and one from 5 days ago.
    const folder = ctx.services.config.reportsDir;
    mkdirSync(path.join(folder, 'old'), { recursive: true });
    const oldFile = path.join('old', 'retention-old.pdf');
    const recentFile = path.join('old', 'retention-recent.pdf');
    writeFileSync(path.join(folder, oldFile), '%PDF-1.7 old');
    writeFileSync(path.join(folder, recentFile), '%PDF-1.7 recent');
    const report = (createdAt: Date, file: string) =>
      ctx.db
        .insertInto('reports')
        .values({ enterprise_id: ids['Aurora Alimentos']!, user_id: null, device_id: null, travel_id: null, kind: 'device', type: 'pdf', status: ReportStatus.Generated, error: null, filters: JSON.stringify({}), file_path: file, file_size: 12, sha256: null, created_at: createdAt, updated_at: createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
    const oldReport = await report(daysAgo(75), oldFile);
    const recentReport = await report(daysAgo(5), recentFile);

    // Whatever the demo keeps of Aurora's before its limit goes too.
    const cutoff = new Date(Math.floor(daysAgo(60).getTime() / DAY) * DAY);
    const { rows: due } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM readings WHERE ts < ${cutoff} AND device_num IN (SELECT num FROM devices WHERE enterprise_id = ${ids['Aurora Alimentos']!}::uuid)`.execute(ctx.db);
    const auroraDue = Number(due[0]!.n);
    expect(auroraDue).toBeGreaterThanOrEqual(2);

    // First run: Vida is under legal hold.
    let results = await ctx.services.retention.run();
    expect(results.get(ids['Aurora Alimentos']!)).toMatchObject({ readings: auroraDue, reportFiles: 1 });
    expect(await readingsAt(nums.chamber!, old.aurora400)).toBe(0);
    expect(await readingsAt(nums.chamber!, old.aurora90)).toBe(0);
    expect(await readingsAt(nums.chamber!, old.aurora10)).toBe(1);
    expect(await readingsAt(nums.vaccines!, old.vida2100)).toBe(1);
    expect(results.has(ids['Vida Farma']!)).toBe(false);

    expect(existsSync(path.join(folder, oldFile))).toBe(false);
    expect(existsSync(path.join(folder, recentFile))).toBe(true);
    const gone = await ctx.request('GET', `/api/report/files/${oldReport.id}`, tokens['aurora.adm']!);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('O arquivo deste relatório foi removido pela política de retenção da empresa.');
    expect((await ctx.request('GET', `/api/report/files/${recentReport.id}`, tokens['aurora.adm']!)).statusCode).toBe(200);

    // Aurora's trail says what went, and the chain still verifies.
    const trail = (await ctx.request('GET', '/api/audit-trail?entity=readings', tokens['aurora.adm']!)).json() as AuditTrailPage;
    const removal = trail.data.find((e) => e.action === 'readings_removal');
    expect(removal?.after).toMatchObject({ reason: 'retenção', readings: auroraDue });
    expect(removal?.actor.type).toBe('system');
    const verify = (await ctx.request('GET', '/api/audit-trail/verify', tokens['aurora.adm']!)).json() as AuditVerifyResult;
    expect(verify.ok).toBe(true);

    // The hold lifted, Vida's reading of 2100 days ago goes, with its whole month's partition.
    expect((await put(tokens['vida.adm']!, { ...settings(1827), reason: 'Inspeção encerrada.' })).statusCode).toBe(200);
    results = await ctx.services.retention.run();
    expect(results.get(ids['Vida Farma']!)).toMatchObject({ readings: 1, partitions: [vidaPartition] });
    expect(await readingsAt(nums.vaccines!, old.vida2100)).toBe(0);
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_class WHERE relname = ${vidaPartition}`.execute(ctx.db);
    expect(Number(rows[0]!.n)).toBe(0);
    // A late reading of that month finds its partition made again.
    await storeReading(nums.vaccines!, old.vida2100, 5.2);
    expect(await readingsAt(nums.vaccines!, old.vida2100)).toBe(1);

    // A second run the same day finds nothing more of Aurora's.
    results = await ctx.services.retention.run();
    expect(results.get(ids['Aurora Alimentos']!)).toMatchObject({ readings: 0, reportFiles: 0 });
  });
});
