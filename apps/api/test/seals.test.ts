import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEAL_CHAIN_START, type DaySeal, type SealVerifyResult } from '@sentinela/contract';
import { addDays, localDay } from '../src/lib/time-zone';
import { insertReadings } from '../src/modules/readings/repository';
import { createTestContext, type TestContext } from './context';
import { runSealJobs, saoPauloAt, SEAL_ZONE } from './seal-helpers';
import { postReadings } from './ingest-helpers';
import { MACS } from './travel-helpers';

/**
 * X12 sealed days of readings (issue 24 point 3, ADR 0080): the seal job under a manual clock across midnight, the
 * chain, the CMS signature checked by the README's own openssl commands, a reading changed in SQL found by verify,
 * a late reading made an addendum, the retention's removal recorded, and no enterprise reading another's seals.
 */
const run = promisify(execFile);
let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
let chamber = 0;
/** The sealed day of the test: two days after the demo's readings end, so only the test's readings are in it. */
let DAY = '';

/** Sessions expire as the clock moves on days: everyone signs in again. */
async function signIn() {
  for (const username of ['aurora.adm', 'vida.adm', 'admin', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
}

const seal = (token: string, query: string) => ctx.request('GET', `/api/seals?${query}`, token);
const verify = async (query: string) => {
  const res = await ctx.request('GET', `/api/seals/verify?${query}`, tokens['aurora.adm']!);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SealVerifyResult;
};

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  await signIn();
  for (const name of ['Aurora Alimentos', 'Vida Farma']) {
    ids[name] = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }
  chamber = (await ctx.db.selectFrom('devices').select('num').where('mac', '=', MACS.chamber).executeTakeFirstOrThrow()).num;
  DAY = addDays(localDay(ctx.clock.now(), SEAL_ZONE), 2);
  const row = (ts: Date, temperature: number) => ({ deviceNum: chamber, ts, temperature, humidity: 61.5, battery: 88, lat: null, lng: null, travelId: null });
  // Just after the day's midnight, just before its end, and one just after it (the next day's).
  await insertReadings(ctx.db, [row(saoPauloAt(DAY, 0, 10), 4.25), row(saoPauloAt(DAY, 23, 50), 3.1), row(saoPauloAt(addDays(DAY, 1), 0, 5), 5)]);
});
afterAll(() => ctx.close());

describe('X12 sealed days: the job', () => {
  it('X12 seals a day only once its end in São Paulo is behind the roll-up line, with per-device counts and the canonical rows hashed', async () => {
    ctx.clock.set(saoPauloAt(DAY, 23, 30));
    await signIn();
    await runSealJobs(ctx);
    expect((await seal(tokens['aurora.adm']!, `date=${DAY}`)).json().error).toBe('Nenhum selo para este dia.');
    // Past midnight, but the line (3 hours behind) is still in the day: a batch may still be writing into it.
    ctx.clock.set(saoPauloAt(addDays(DAY, 1), 0, 30));
    await signIn();
    await runSealJobs(ctx);
    const early = await seal(tokens['aurora.adm']!, `date=${DAY}`);
    expect(early.statusCode).toBe(404);

    ctx.clock.set(saoPauloAt(addDays(DAY, 1), 3, 5));
    await signIn();
    await runSealJobs(ctx);
    const res = await seal(tokens['aurora.adm']!, `date=${DAY}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as DaySeal;
    // The rows as the README describes them, hashed here independently.
    const line = (ts: Date, t: string) => `${MACS.chamber};${ts.toISOString().replace('Z', '000Z')};${t};61.5;88;;\n`;
    const rows = line(saoPauloAt(DAY, 0, 10), '4.25') + line(saoPauloAt(DAY, 23, 50), '3.1');
    expect(body).toMatchObject({
      date: DAY,
      enterprise: ids['Aurora Alimentos'],
      addendum: 0,
      kind: 'day',
      devices: [{ mac: MACS.chamber, count: 2, first: saoPauloAt(DAY, 0, 10).toISOString(), last: saoPauloAt(DAY, 23, 50).toISOString(), sha256: createHash('sha256').update(rows).digest('hex') }],
      addenda: [],
    });
    expect(body.sha256).toBe(createHash('sha256').update(body.canonical).digest('hex'));
    // The signed text is every other field but the chain position, the addenda and the timestamp (ADR 0091).
    expect(body.timestamp).toBeNull();
    const { canonical, signature: _s, sha256: _h, addenda: _a, seq: _q, timestamp: _t, ...fields } = body;
    expect(JSON.parse(canonical)).toEqual(fields);
    // The next day (one reading after midnight) waits for its own end.
    expect((await seal(tokens['aurora.adm']!, `date=${addDays(DAY, 1)}`)).statusCode).toBe(404);
    // A run with nothing new seals nothing again.
    expect(await runSealJobs(ctx)).toEqual({ days: 0, addenda: 0, stamped: 0 });
  });

  it('X12 chains each enterprise\'s seals: the first to 64 zeros, each to the one before, the demo days included', async () => {
    const chain = await ctx.db
      .selectFrom('day_seals')
      .select(['seq', 'prev_seal_sha256', 'sha256', 'canonical', sql<string>`day::text`.as('day')])
      .where('enterprise_id', '=', ids['Aurora Alimentos']!)
      .orderBy('seq')
      .execute();
    expect(chain.length).toBeGreaterThanOrEqual(7);
    expect(chain[0]!.prev_seal_sha256).toBe(SEAL_CHAIN_START);
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.prev_seal_sha256).toBe(chain[i - 1]!.sha256);
    for (const entry of chain) expect(entry.sha256).toBe(createHash('sha256').update(entry.canonical).digest('hex'));
    expect(chain.at(-1)!.day).toBe(DAY);
    // Vida Farma has its own chain from zero.
    const vida = await ctx.db.selectFrom('day_seals').select('prev_seal_sha256').where('enterprise_id', '=', ids['Vida Farma']!).orderBy('seq').executeTakeFirstOrThrow();
    expect(vida.prev_seal_sha256).toBe(SEAL_CHAIN_START);
    // Append-only: the database refuses to change a seal.
    await expect(sql`UPDATE day_seals SET sha256 = ${'0'.repeat(64)}`.execute(ctx.db)).rejects.toThrow(/append-only/);
  });

  it('X12 the README\'s openssl commands verify a real seal, and an edited seal fails them', async () => {
    const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
    const block = /<!-- seal-verify:start -->\s*```bash\n([\s\S]*?)```\s*<!-- seal-verify:end -->/.exec(readme)?.[1];
    expect(block).toBeTruthy();
    const script = block!.replace(/^ {2}/gm, '');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const dir = mkdtempSync(path.join(tmpdir(), 'sentinela-seal-'));
    try {
      const env = { ...process.env, SENTINELA: `http://127.0.0.1:${port}`, TOKEN: tokens['aurora.adm']!, DATE: DAY };
      const out = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env });
      const expected = (await seal(tokens['aurora.adm']!, `date=${DAY}`)).json() as DaySeal;
      expect(out.stdout.split('\n')[0]).toBe(expected.sha256);
      expect(out.stdout).toMatch(/Sentinela/);
      expect(out.stderr).toContain('CMS Verification successful');
      // One device's count changed in the signed text: the signature no longer holds.
      writeFileSync(path.join(dir, 'seal.json'), expected.canonical.replace('"count":2', '"count":3'));
      const cms = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'seal.sig', '-content', 'seal.json', '-CAfile', 'signer.pem', '-purpose', 'any', '-out', '/dev/null'];
      await expect(run('openssl', cms, { cwd: dir })).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('X12 a reading changed in SQL (the immutability trigger switched off) is found by verify, by its MAC', async () => {
    // No REPORT_TSA_URL: no token dates the seal (ADR 0091).
    expect(await verify(`date=${DAY}`)).toEqual({
      date: DAY, enterprise: ids['Aurora Alimentos'], ok: true, differing: [], timestamps: [{ addendum: 0, status: 'none', time: null, authority: null }],
    });
    const change = (temperature: number) =>
      ctx.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL session_replication_role = replica`.execute(trx);
        await sql`UPDATE readings SET temperature = ${temperature} WHERE device_num = ${chamber} AND ts = ${saoPauloAt(DAY, 23, 50)}`.execute(trx);
      });
    await change(3.2);
    expect(await verify(`date=${DAY}`)).toMatchObject({ ok: false, differing: [MACS.chamber] });
    await change(3.1);
    expect((await verify(`date=${DAY}`)).ok).toBe(true);
  });

  it('X12 a reading that arrives late for a sealed day goes into an addendum, chained; verify stays ok', async () => {
    const head = await ctx.db.selectFrom('day_seals').select('sha256').where('enterprise_id', '=', ids['Aurora Alimentos']!).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    const ingested = await postReadings(ctx, [{ mac: MACS.chamber, ts: saoPauloAt(DAY, 15).toISOString(), temperature: 4.5 }]);
    expect(ingested.json()).toMatchObject({ accepted: 1 });
    expect(await runSealJobs(ctx)).toEqual({ days: 0, addenda: 1, stamped: 0 });
    const body = (await seal(tokens['aurora.adm']!, `date=${DAY}`)).json() as DaySeal;
    expect(body.devices[0]!.count).toBe(2);
    expect(body.addenda).toHaveLength(1);
    expect(body.addenda[0]).toMatchObject({ addendum: 1, kind: 'late', prev_seal_sha256: head.sha256, devices: [{ mac: MACS.chamber, count: 3, first: saoPauloAt(DAY, 0, 10).toISOString() }] });
    expect(await verify(`date=${DAY}`)).toMatchObject({ ok: true, differing: [] });
  });

  it('X12 readings of a sealed day removed by the retention are recorded by a final addendum, in its transaction', async () => {
    // An old day of Aurora's, imported now: it is older than every seal, so the job seals it when it sees it.
    const old = addDays(localDay(ctx.clock.now(), SEAL_ZONE), -45);
    await insertReadings(ctx.db, [{ deviceNum: chamber, ts: saoPauloAt(old, 12), temperature: 2, humidity: null, battery: null, lat: null, lng: null, travelId: null }]);
    expect(await runSealJobs(ctx)).toEqual({ days: 1, addenda: 0, stamped: 0 });
    expect((await seal(tokens['aurora.adm']!, `date=${old}`)).json()).toMatchObject({ kind: 'day', devices: [{ mac: MACS.chamber, count: 1 }] });

    const put = await ctx.request('PUT', '/api/enterprise/retention', tokens['aurora.adm']!, { readings_days: 30, report_files_days: 1827, legal_hold: false, reason: 'Teste de retenção' });
    expect(put.statusCode, put.body).toBe(200);
    await ctx.services.retention.run();
    const body = (await seal(tokens['aurora.adm']!, `date=${old}`)).json() as DaySeal;
    expect(body.addenda).toEqual([expect.objectContaining({ kind: 'retention', devices: [{ mac: MACS.chamber, count: 0, first: null, last: null, sha256: createHash('sha256').digest('hex') }] })]);
    expect(await verify(`date=${old}`)).toMatchObject({ ok: true, differing: [] });
    // The newer days keep their seals untouched.
    expect((await verify(`date=${DAY}`)).ok).toBe(true);
  });
});

describe('X12 sealed days: who reads them', () => {
  it('X12 the enterprise admins of the enterprise, the super admin naming it; never another enterprise nor an ordinary user', async () => {
    const own = (await seal(tokens['aurora.adm']!, `date=${DAY}`)).json() as DaySeal;
    const bySuper = await seal(tokens.admin!, `date=${DAY}&enterprise_id=${ids['Aurora Alimentos']!}`);
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().sha256).toBe(own.sha256);
    expect((await seal(tokens.admin!, `date=${DAY}`)).json().error).toBe('Informe a empresa.');

    for (const url of [`/api/seals?date=${DAY}&enterprise_id=${ids['Aurora Alimentos']!}`, `/api/seals/verify?date=${DAY}&enterprise_id=${ids['Aurora Alimentos']!}`]) {
      const across = await ctx.request('GET', url, tokens['vida.adm']!);
      expect(across.statusCode, url).toBe(404);
      expect(across.json().error).toBe('Empresa não encontrada.');
      expect((await ctx.request('GET', url, tokens['joao.silva']!)).statusCode).toBe(403);
      expect((await ctx.request('GET', url)).statusCode).toBe(401);
    }
    // Vida Farma's own day: its devices had no reading on it, so it has no seal.
    const vidaOwn = await seal(tokens['vida.adm']!, `date=${DAY}`);
    expect(vidaOwn.statusCode).toBe(404);
    expect(vidaOwn.json().error).toBe('Nenhum selo para este dia.');
  });

  it('X12 a date that is not a day of the calendar is refused in pt-BR', async () => {
    for (const date of ['2026-02-30', '26-11-2026', '1969-12-31', '', '2026-11-28T00:00:00Z']) {
      const res = await seal(tokens['aurora.adm']!, `date=${encodeURIComponent(date)}`);
      expect(res.statusCode, date).toBe(400);
      expect(res.json().error).toMatch(/Informe a data no formato AAAA-MM-DD/);
    }
    expect((await ctx.request('GET', '/api/seals/verify', tokens['aurora.adm']!)).statusCode).toBe(400);
  });
});
