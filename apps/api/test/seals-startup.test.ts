import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDay } from '../src/lib/time-zone';
import { createTestContext, type TestContext } from './context';

/**
 * X12 (ADR 0080): the seal job is queued when the server starts (not run in the start-up path) and seals the days
 * before the start: the demo's readings have their seals, up to the last day whose end is behind the roll-up line.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { sealCheckMinutes: 60 } });
});
afterAll(() => ctx.close());

describe('X12 sealed days at start-up', () => {
  it('X12 the job queued at start seals every past day of the demo data, each enterprise its own chain', async () => {
    const { rows } = await sql<{ trusted_before: Date }>`SELECT trusted_before FROM reading_rollup_state`.execute(ctx.db);
    const lastSealable = addDays(localDay(rows[0]!.trusted_before, 'America/Sao_Paulo'), -1);
    const token = (await ctx.login('aurora.adm')).token;
    // The job runs in the background: polled, no timing assumed.
    let res = await ctx.request('GET', `/api/seals?date=${lastSealable}`, token);
    for (let tries = 0; res.statusCode === 404 && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      res = await ctx.request('GET', `/api/seals?date=${lastSealable}`, token);
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().devices.length).toBeGreaterThan(0);
    const days = await ctx.db.selectFrom('day_seals').select(sql<string>`day::text`.as('day')).where('addendum', '=', 0).distinct().orderBy('day').execute();
    // The demo writes seven days of readings up to now: each of them up to the last sealable day has its seal.
    expect(days.length).toBeGreaterThanOrEqual(6);
    expect(days.at(-1)!.day).toBe(lastSealable);
  });
});
