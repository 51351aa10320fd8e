import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '@sentinela/contract';
import { buildApp } from '../src/app';
import { REPORT_JOB } from '../src/modules/reports/service';
import { createTestContext, testConfig, type TestContext } from './context';
import { foreignPdf, pdfPart, upload, waitForReport } from './report-helpers';
import { MACS } from './travel-helpers';

/** The job side of reports: failures, reports left waiting by a dead server, limits. */

let ctx: TestContext;
let joao: string;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { reportMaxReadings: 1000, reportValidateMaxPerMinute: 3 } });
  joao = (await ctx.login('joao.silva')).token;
});
afterAll(() => ctx.close());

const hours = (n: number) => n * 3600_000;

/** A report row as a server that died before queueing its job leaves it: status 1, no job. */
async function orphanReport(values: { deviceId: string | null; hoursBack?: number }): Promise<string> {
  const user = await ctx.db.selectFrom('users').select(['id', 'enterprise_id']).where('username', '=', 'joao.silva').executeTakeFirstOrThrow();
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('reports')
    .values({
      enterprise_id: user.enterprise_id,
      user_id: user.id,
      device_id: values.deviceId,
      travel_id: null,
      kind: 'device-history',
      type: 'pdf',
      filters: JSON.stringify({ dateInit: new Date(now.getTime() - hours(values.hoursBack ?? 2)).toISOString(), dateEnd: now.toISOString() }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function deviceId(mac: string): Promise<string> {
  return (await ctx.db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirstOrThrow()).id;
}

describe('REPORT_MAX_READINGS', () => {
  it('refuses an export above it with a request for a shorter period, queueing nothing', async () => {
    const before = await ctx.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const from = new Date(ctx.clock.now().getTime() - hours(24 * 7)).toISOString();
    const res = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck1}/pdf?dateInitUtc=${from}`, joao);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('O período escolhido tem mais de 1.000 leituras. Escolha um período menor.');
    const after = await ctx.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // Two days (576 readings) fit.
    expect((await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck1}/pdf`, joao)).statusCode).toBe(200);
  });
});

describe('a report that cannot be generated', () => {
  it('ends in status 3 with the reason in Portuguese (the device is gone)', async () => {
    const id = await orphanReport({ deviceId: null });
    await ctx.services.reports.requeueWaiting();
    const report = await waitForReport(ctx, joao, id);
    expect(report.status).toEqual({ id: 3, name: 'Falhou', color: 'red' });
    expect(report.error).toBe('Não foi possível gerar o relatório: o dispositivo do relatório não existe mais.');
    expect(report.download_url).toBeNull();
    expect((await ctx.request('GET', `/api/report/files/${id}`, joao)).statusCode).toBe(404);
  });

  it('is retried once on an unexpected failure, then ends in status 3 without any technical detail', async () => {
    const dir = ctx.services.config.reportsDir;
    // The disk refuses the file: the reports folder is now a plain file.
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'não é uma pasta');
    try {
      const queued = (await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck1}/pdf`, joao)).json() as Report;
      const report = await waitForReport(ctx, joao, queued._id);
      expect(report.status.id).toBe(3);
      expect(report.error).toBe('Não foi possível gerar o relatório: ocorreu um erro inesperado ao montar o arquivo. Tente gerar o relatório novamente.');
      // Two attempts: the first, and its one retry; the job itself ends failed.
      const deadline = Date.now() + 10_000;
      let jobs = await ctx.services.jobs.jobsFor(REPORT_JOB, queued._id);
      while (jobs[0]?.state !== 'failed' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        jobs = await ctx.services.jobs.jobsFor(REPORT_JOB, queued._id);
      }
      expect(jobs).toEqual([{ state: 'failed', retryCount: 1 }]);
    } finally {
      rmSync(dir, { force: true });
      mkdirSync(dir, { recursive: true });
    }
  });
});

describe('reports left waiting by a server that died', () => {
  it('are queued again when a server starts', async () => {
    const id = await orphanReport({ deviceId: await deviceId(MACS.truck2) });
    // A second server on the same database (and files folder), as after a restart.
    const second = await buildApp({ config: testConfig({ reportsDir: ctx.services.config.reportsDir }), db: ctx.db, clock: ctx.clock, logger: false });
    try {
      await second.app.ready();
      const report = await waitForReport(ctx, joao, id);
      expect(report.status.id, report.error ?? '').toBe(2);
      const file = await ctx.request('GET', report.download_url!, joao);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await second.app.close();
    }
  });
});

describe('POST /api/report/validate rate limit', () => {
  it('answers 429 in Portuguese past the per-address limit', async () => {
    const pdf = await foreignPdf();
    for (let i = 0; i < 3; i++) expect((await upload(ctx, '/api/report/validate', [pdfPart(pdf)])).statusCode).toBe(200);
    const res = await upload(ctx, '/api/report/validate', [pdfPart(pdf)]);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('Muitas validações seguidas. Aguarde um minuto e tente novamente.');
  });
});
