import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaySeal, SealVerifyResult } from '@sentinela/contract';
import { addDays, localDay } from '../src/lib/time-zone';
import { insertReadings } from '../src/modules/readings/repository';
import { createTestContext, type TestContext } from './context';
import { runSealJobs, saoPauloAt, SEAL_ZONE } from './seal-helpers';
import { opensslVerifiesToken, startFakeTsa, type FakeTsa } from './fake-tsa';
import { postReadings } from './ingest-helpers';
import { MACS } from './travel-helpers';

/**
 * X12 timestamps of the seal chains (ADR 0091): with REPORT_TSA_URL set, each run of the seal job ends with a token
 * from a local `openssl ts` TSA over every chain head that has none; the token dates the head and, through the hash
 * links, each earlier entry. A TSA that fails leaves the head unstamped until the next run; verify tells a token or
 * a link changed behind the tables' triggers; the README's openssl commands check a real token.
 */
const run = promisify(execFile);
let ctx: TestContext;
let tsa: FakeTsa;
const tokens: Record<string, string> = {};
let aurora = '';
let vida = '';
let chamber = 0;
let DAY = '';

async function signIn() {
  for (const username of ['aurora.adm', 'vida.adm', 'admin']) tokens[username] = (await ctx.login(username)).token;
}

async function sealOf(date: string, token = tokens['aurora.adm']!): Promise<DaySeal> {
  const res = await ctx.request('GET', `/api/seals?date=${date}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function verify(date: string): Promise<SealVerifyResult> {
  const res = await ctx.request('GET', `/api/seals/verify?date=${date}`, tokens['aurora.adm']!);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A change behind the append-only triggers, as someone with the database's superuser could make. */
const behindTriggers = (statement: ReturnType<typeof sql>) =>
  ctx.db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });

beforeAll(async () => {
  tsa = await startFakeTsa();
  ctx = await createTestContext({ demo: true, config: { reportTsaUrl: tsa.url, reportTsaTimeoutMs: 4000, reportTsaRetrySeconds: 1 } });
  aurora = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  vida = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
  chamber = (await ctx.db.selectFrom('devices').select('num').where('mac', '=', MACS.chamber).executeTakeFirstOrThrow()).num;
  DAY = addDays(localDay(ctx.clock.now(), SEAL_ZONE), 2);
  await insertReadings(ctx.db, [{ deviceNum: chamber, ts: saoPauloAt(DAY, 12), temperature: -19, humidity: 60, battery: 90, lat: null, lng: null, travelId: null }]);
  ctx.clock.set(saoPauloAt(addDays(DAY, 1), 3, 5));
  await signIn();
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
});

describe('X12 seal chain timestamps', () => {
  it('X12 a run stamps each chain head once, with a token openssl verifies over the entry; earlier entries are dated through the links', async () => {
    const requests = tsa.requests.length;
    const first = await runSealJobs(ctx);
    expect(first.days).toBeGreaterThanOrEqual(7);
    // One token per enterprise whose chain has entries, not one per day sealed.
    const chains = await ctx.db.selectFrom('day_seals').select('enterprise_id').distinct().execute();
    expect(chains.length).toBeGreaterThanOrEqual(2);
    expect(first.stamped).toBe(chains.length);
    expect(tsa.requests.length - requests).toBe(chains.length);

    const head = await sealOf(DAY);
    expect(head.timestamp).toMatchObject({ seq: head.seq, sha256: head.sha256, authority: tsa.authority });
    expect(await opensslVerifiesToken(tsa, Buffer.from(head.timestamp!.token, 'base64'), Buffer.from(head.canonical, 'utf8'))).toBe(true);
    expect(await verify(DAY)).toMatchObject({ ok: true, timestamps: [{ addendum: 0, status: 'stamped', time: head.timestamp!.time, authority: tsa.authority }] });

    // A demo day sealed in the same run: the head's token dates it, through the chain.
    const earlier = await sealOf(addDays(DAY, -4));
    expect(earlier.seq).toBeLessThan(head.seq);
    expect(earlier.timestamp).toMatchObject({ seq: head.seq, sha256: head.sha256 });
    expect((await verify(addDays(DAY, -4))).timestamps).toEqual([{ addendum: 0, status: 'stamped', time: head.timestamp!.time, authority: tsa.authority }]);

    // Nothing new: nothing asked of the TSA again.
    expect(await runSealJobs(ctx)).toEqual({ days: 0, addenda: 0, stamped: 0 });
    expect(tsa.requests.length - requests).toBe(chains.length);
  });

  it('X12 a TSA that answers garbage: the run asks it once, leaves the new heads unstamped ("none"), and the next run stamps them', async () => {
    // A late reading for Aurora's sealed day (an addendum) and Vida's first of that day (its seal): two new heads.
    const late = await postReadings(ctx, [
      { mac: MACS.chamber, ts: saoPauloAt(DAY, 15).toISOString(), temperature: -19.5 },
      { mac: MACS.vaccines, ts: saoPauloAt(DAY, 15).toISOString(), temperature: 5 },
    ]);
    expect(late.json()).toMatchObject({ accepted: 2 });
    const requests = tsa.requests.length;
    tsa.answer = { kind: 'garbage' };
    try {
      expect(await runSealJobs(ctx)).toEqual({ days: 1, addenda: 1, stamped: 0 });
    } finally {
      tsa.answer = { kind: 'reply' };
    }
    // A failing TSA is asked once per run, not once per head: a thousand enterprises would wait a thousand deadlines.
    expect(tsa.requests.length - requests).toBe(1);
    const waiting = await sealOf(DAY);
    expect(waiting.addenda[0]).toMatchObject({ addendum: 1, kind: 'late', timestamp: null });
    expect((await verify(DAY)).timestamps.map((t) => t.status)).toEqual(['stamped', 'none']);

    expect(await runSealJobs(ctx)).toEqual({ days: 0, addenda: 0, stamped: 2 });
    const stamped = await sealOf(DAY);
    const addendum = stamped.addenda[0]!;
    expect(addendum.timestamp).toMatchObject({ seq: addendum.seq, sha256: addendum.sha256, authority: tsa.authority });
    // The day's seal keeps the earlier token, the one that dated it first.
    expect(stamped.timestamp!.seq).toBe(stamped.seq);
    expect((await verify(DAY)).timestamps.map((t) => t.status)).toEqual(['stamped', 'stamped']);
    const vidaDay = await sealOf(DAY, tokens['vida.adm']!);
    expect(vidaDay.timestamp).toMatchObject({ seq: vidaDay.seq, sha256: vidaDay.sha256 });
  });

  it('X12 verify says "invalid" for a token or a link changed behind the append-only triggers', async () => {
    const day = await sealOf(addDays(DAY, -4));
    const stampedSeq = day.timestamp!.seq;
    const original = await ctx.db.selectFrom('seal_timestamps').select('token').where('enterprise_id', '=', aurora).where('seq', '=', stampedSeq).executeTakeFirstOrThrow();

    // One byte of the token's signature flipped (its last byte).
    const forged = Buffer.from(original.token);
    forged[forged.length - 1] = forged[forged.length - 1]! ^ 0x01;
    await behindTriggers(sql`UPDATE seal_timestamps SET token = ${forged} WHERE enterprise_id = ${aurora}::uuid AND seq = ${stampedSeq}`);
    expect((await verify(addDays(DAY, -4))).timestamps[0]!.status).toBe('invalid');
    await behindTriggers(sql`UPDATE seal_timestamps SET token = ${original.token} WHERE enterprise_id = ${aurora}::uuid AND seq = ${stampedSeq}`);
    expect((await verify(addDays(DAY, -4))).timestamps[0]!.status).toBe('stamped');

    // A day between the seal and the stamped head rewritten: the token still holds, the link to it does not.
    const between = day.seq + 1;
    const link = await ctx.db.selectFrom('day_seals').select('canonical').where('enterprise_id', '=', aurora).where('seq', '=', between).executeTakeFirstOrThrow();
    await behindTriggers(sql`UPDATE day_seals SET canonical = ${link.canonical.replace('"count":', '"count":1')} WHERE enterprise_id = ${aurora}::uuid AND seq = ${between}`);
    expect((await verify(addDays(DAY, -4))).timestamps[0]!.status).toBe('invalid');
    await behindTriggers(sql`UPDATE day_seals SET canonical = ${link.canonical} WHERE enterprise_id = ${aurora}::uuid AND seq = ${between}`);
    expect((await verify(addDays(DAY, -4))).timestamps[0]!.status).toBe('stamped');
  });

  it('X12 each enterprise reads the timestamps of its own chain only', async () => {
    const own = await sealOf(addDays(DAY, -4), tokens['vida.adm']!);
    const row = await ctx.db.selectFrom('seal_timestamps').select(['seq', 'sha256']).where('enterprise_id', '=', vida).orderBy('seq').executeTakeFirstOrThrow();
    expect(own.timestamp).toMatchObject({ seq: row.seq, sha256: row.sha256 });
    expect((await ctx.request('GET', `/api/seals?date=${DAY}&enterprise_id=${aurora}`, tokens['vida.adm']!)).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/seals/verify?date=${DAY}&enterprise_id=${aurora}`, tokens['vida.adm']!)).statusCode).toBe(404);
    // The super admin names the enterprise and gets that chain's.
    const named = (await ctx.request('GET', `/api/seals?date=${addDays(DAY, -4)}&enterprise_id=${vida}`, tokens.admin)).json() as DaySeal;
    expect(named.timestamp).toEqual(own.timestamp);
  });

  it('X12 the README\'s openssl commands verify a real seal\'s token', async () => {
    const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
    const block = /<!-- seal-timestamp:start -->\s*```bash\n([\s\S]*?)```\s*<!-- seal-timestamp:end -->/.exec(readme)?.[1];
    expect(block).toBeTruthy();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const dir = mkdtempSync(path.join(tmpdir(), 'sentinela-seal-ts-'));
    try {
      const env = { ...process.env, SENTINELA: `http://127.0.0.1:${port}`, TOKEN: tokens['aurora.adm']!, DATE: DAY, TSA_CA: tsa.caFile };
      const out = await run('bash', ['-euo', 'pipefail', '-c', block!.replace(/^ {2}/gm, '')], { cwd: dir, env });
      const expected = await sealOf(DAY);
      expect(out.stdout.split('\n')[0]).toBe(`${expected.seq} ${expected.sha256} ${expected.timestamp!.time}`);
      expect(out.stdout).toContain('Verification: OK');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
