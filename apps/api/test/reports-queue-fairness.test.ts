import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportStatus, type ExcelGenerationResult, type Report } from '@sentinela/contract';
import { REPORT_SERVER_MESSAGES as M } from '../src/modules/reports/messages';
import { admitReports } from '../src/modules/reports/queue-admission';
import { createTestContext, type TestContext } from './context';
import { saoPauloText, upload, waitForReport, xlsxPart, xlsxWith } from './report-helpers';
import { deviceId, MACS, userId } from './travel-helpers';

/** Issue 9, item 4: one enterprise's pile of reports does not hold up another's, and the queue has caps. */

const EXCEL = '/api/reports/generate-reports-by-excel';
const hours = (n: number) => n * 3600_000;

/** A sheet of `n` rows asking for short reports of one device (distinct periods, so every row is its own report). */
async function sheetOf(ctx: TestContext, n: number, mac = MACS.truck1): Promise<Buffer> {
  const now = ctx.clock.now().getTime();
  return xlsxWith(Array.from({ length: n }, (_, i) => [mac, saoPauloText(new Date(now - hours(2) - i * 60_000)), saoPauloText(new Date(now - i * 60_000)), 'EXCEL']));
}

describe('fair queue across enterprises (one worker)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { reportWorkers: 1 } });
  });
  afterAll(() => ctx.close());

  it("serves another enterprise's single report before most of a 12-report upload", async () => {
    const joao = (await ctx.login('joao.silva')).token;
    const maria = (await ctx.login('maria.souza')).token;
    const uploaded = await upload(ctx, EXCEL, [xlsxPart(await sheetOf(ctx, 12))], joao);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect((uploaded.json() as ExcelGenerationResult).reportsToProccess).toBe(12);
    const single = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.box1}/pdf`, maria);
    expect(single.statusCode, single.body).toBe(200);
    const mariaReport = (single.json() as Report)._id;

    const aurora = await ctx.db.selectFrom('reports').select(['id', 'queue_turn']).where('user_id', '=', await userId(ctx, 'joao.silva')).execute();
    expect(aurora).toHaveLength(12);
    // Aurora's reports take consecutive turns; Vida Farma's starts at the turn being served.
    const turns = aurora.map((r) => r.queue_turn).sort((a, b) => a - b);
    expect(turns).toEqual(Array.from({ length: 12 }, (_, i) => turns[0]! + i));
    for (const r of [...aurora, { id: mariaReport }]) expect((await waitForReport(ctx, r.id === mariaReport ? maria : joao, r.id)).status.id).toBe(2);

    // The order the worker took them in, from the job queue's own records.
    const started = await sql<{ id: string }>`
      SELECT data->>'reportId' AS id FROM pgboss.job WHERE name = 'report.generate' ORDER BY started_on, created_on`.execute(ctx.db);
    const order = started.rows.map((r) => r.id);
    expect(order).toHaveLength(13);
    // Without turns it would be 13th; with them it waits for at most the report being generated and the next one.
    expect(order.indexOf(mariaReport)).toBeLessThanOrEqual(2);
    // Aurora's own reports keep their order among themselves.
    const turnOf = new Map(aurora.map((r) => [r.id, r.queue_turn]));
    const auroraOrder = order.filter((id) => id !== mariaReport).map((id) => turnOf.get(id));
    expect(auroraOrder).toEqual([...auroraOrder].sort((a, b) => a! - b!));
  });
});

describe('REPORT_QUEUE_MAX_PER_USER and REPORT_QUEUE_MAX_PER_ENTERPRISE (nothing generates here)', () => {
  let ctx: TestContext;
  let joao: string;
  beforeAll(async () => {
    ctx = await createTestContext({ demo: true, config: { reportWorkers: 0, reportQueueMaxPerUser: 5, reportQueueMaxPerEnterprise: 8 } });
    joao = (await ctx.login('joao.silva')).token;
  });
  afterAll(() => ctx.close());

  const queuedOf = async (column: 'user_id' | 'enterprise_id', id: string) =>
    Number(
      (
        await ctx.db
          .selectFrom('reports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', id)
          .where('status', '=', ReportStatus.Queued)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses an upload that would pass the user cap, whole, with a pt-BR 429', async () => {
    const res = await upload(ctx, EXCEL, [xlsxPart(await sheetOf(ctx, 6))], joao);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('Você já tem 0 relatórios na fila, e o limite é de 5. Aguarde a geração dos que estão na fila e tente novamente.');
    expect(await queuedOf('user_id', await userId(ctx, 'joao.silva'))).toBe(0);
    const fits = await upload(ctx, EXCEL, [xlsxPart(await sheetOf(ctx, 4))], joao);
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it('lets exactly one of two simultaneous exports take the last place', async () => {
    const results = await Promise.all([
      ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck1}/pdf`, joao),
      ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck2}/excel`, joao),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 429]);
    expect(results.find((r) => r.statusCode === 429)!.json().error).toBe(M.userQueueFull(5, 5));
    expect(await queuedOf('user_id', await userId(ctx, 'joao.silva'))).toBe(5);
  });

  it('caps the enterprise across its users, race-free, and leaves other enterprises alone', async () => {
    const admin = await userId(ctx, 'aurora.adm');
    const enterpriseId = (await ctx.db.selectFrom('users').select('enterprise_id').where('id', '=', admin).executeTakeFirstOrThrow()).enterprise_id!;
    const device = await deviceId(ctx, MACS.truck1);
    const now = ctx.clock.now();
    const report = () => ({
      enterprise_id: enterpriseId,
      user_id: admin,
      device_id: device,
      travel_id: null,
      kind: 'device-history',
      type: 'pdf',
      filters: JSON.stringify({ dateInit: new Date(now.getTime() - hours(2)).toISOString(), dateEnd: now.toISOString() }),
      status: ReportStatus.Queued,
      created_at: now,
      updated_at: now,
    });
    // Five at once for three places (8 − João's 5): the advisory locks make count-and-insert one step.
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, () => admitReports(ctx.db, admin, [report()], { perUser: 100, perEnterprise: 8 })),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    for (const a of attempts.filter((a) => a.status === 'rejected')) {
      expect((a as PromiseRejectedResult).reason).toMatchObject({ statusCode: 429, message: M.enterpriseQueueFull(8, 8) });
    }
    expect(await queuedOf('enterprise_id', enterpriseId)).toBe(8);
    // Turns stay distinct under the race.
    const turns = await ctx.db.selectFrom('reports').select('queue_turn').where('enterprise_id', '=', enterpriseId).where('status', '=', 1).execute();
    expect(new Set(turns.map((t) => t.queue_turn)).size).toBe(8);

    const adminToken = (await ctx.login('aurora.adm')).token;
    const refused = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.chamber}/pdf`, adminToken);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('A empresa já tem 8 relatórios na fila, e o limite é de 8. Aguarde a geração dos que estão na fila e tente novamente.');

    // Vida Farma's queue is its own.
    const maria = (await ctx.login('maria.souza')).token;
    const other = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.box1}/pdf`, maria);
    expect(other.statusCode, other.body).toBe(200);
  });
});
