import { createHash } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditTrailPage, AuditVerifyResult } from '@sentinela/contract';
import { jobConnectionOf } from '../src/db/database';
import { UNAUDITED_HOT_TABLES } from '../src/db/audit-driver';
import { asSystem } from '../src/lib/audit-context';
import { declareReadingsRemoval } from '../src/modules/audit-trail/repository';
import { createTestContext, type TestContext } from './context';
import { at, deviceByMac, postReadings } from './ingest-helpers';
import { MACS, deviceId, userId } from './travel-helpers';

/** X11: the audit trail (issue 22 points 2, 3 and 7; ADR 0060). */
let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const isPglite = process.env.TEST_DB === 'pglite';

/** Signs the test's users in (again: moving the clock past the session window ends their sessions). */
async function signIn() {
  for (const username of ['aurora.adm', 'vida.adm', 'admin', 'joao.silva']) tokens[username] = (await ctx.login(username)).token;
}

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  await signIn();
  ids.aurora = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  ids.vida = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
  ids.chamber = await deviceId(ctx, MACS.chamber);
  ids.joao = await userId(ctx, 'joao.silva');
});
afterAll(() => ctx.close());

async function trail(token: string, query = ''): Promise<AuditTrailPage> {
  const res = await ctx.request('GET', `/api/audit-trail${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AuditTrailPage;
}

async function verify(token: string, query = ''): Promise<AuditVerifyResult> {
  const res = await ctx.request('GET', `/api/audit-trail/verify${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AuditVerifyResult;
}

/** Runs SQL as a database superuser outside the application (no audit context), as an intruder with psql would. */
async function behindTheAppsBack(statements: string[]): Promise<void> {
  const connection = jobConnectionOf(ctx.db)!;
  if (connection.kind === 'pglite') {
    // PGlite has one session, shared with the app: what a new session would carry is no audit context at all.
    await connection.pglite.exec("SELECT set_config('sentinela.audit', '', false)");
    for (const s of statements) await connection.pglite.exec(s);
    return;
  }
  const client = new pg.Client({ connectionString: connection.connectionString });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

describe('X11 audit trail: what is recorded', () => {
  it('X11 a limit change through the API is one entry: the user, before and after, the client, in the enterprise chain', async () => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/devices/${ids.chamber}`,
      headers: { authorization: `Bearer ${tokens['aurora.adm']}`, client: 'web', clientversion: '9.9.9', clientos: 'linux', 'user-agent': 'Mozilla/5.0 (X11) Teste' },
      payload: { config: { temperature: { min: -30, max: -12 } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await trail(tokens['aurora.adm']!, `?entity=device&entity_id=${ids.chamber}`);
    const entry = page.data.find((e) => e.action === 'update')!;
    expect(entry).toMatchObject({
      chain: ids.aurora,
      entity: 'device',
      entity_id: ids.chamber,
      actor: { type: 'user', name: 'Aurora Administração', username: 'aurora.adm' },
      client: { client: 'web', clientVersion: '9.9.9', clientOs: 'linux', userAgent: 'Mozilla/5.0 (X11) Teste', address: '127.0.0.1' },
      reason: null,
    });
    // Only what changed: never the last state nor updated_at.
    expect(Object.keys(entry.after!).sort()).toEqual(Object.keys(entry.before!).sort());
    expect(entry.after).toMatchObject({ temperature_min: -30, temperature_max: -12 });
    expect(entry.after).not.toHaveProperty('updated_at');
    expect(entry.enterprise).toEqual({ _id: ids.aurora, name: 'Aurora Alimentos' });
  });

  it('X11 the ingestion hot path writes no entry for the last state; an alarm it opens is the system\'s', async () => {
    const device = await deviceByMac(ctx, MACS.chamber);
    const count = async () => Number((await ctx.db.selectFrom('audit_trail').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    // Inside the new limits (-30..-12): the device's last state moves, nothing is audited.
    ctx.clock.advance(10 * 60_000);
    expect((await postReadings(ctx, [{ mac: MACS.chamber, ts: at(ctx, 0), temperature: -20, humidity: 50 }])).statusCode).toBe(200);
    expect((await deviceByMac(ctx, MACS.chamber)).last_temperature).toBe(-20);
    expect(await count()).toBe(before);
    // Out of range for longer than the device allows: an alarm opens, recorded with the ingestion as actor.
    const minutes = device.out_of_range_minutes;
    ctx.clock.advance((minutes + 3) * 60_000);
    const readings = [minutes + 1, 0].map((m) => ({ mac: MACS.chamber, ts: at(ctx, -m * 60), temperature: 5, humidity: 50 }));
    await signIn();
    expect((await postReadings(ctx, readings)).statusCode).toBe(200);
    const alarms = await trail(tokens['aurora.adm']!, `?entity=alarm&entity_id=${ids.chamber}`);
    expect(alarms.data.length).toBeGreaterThan(0);
    expect(alarms.data[0]).toMatchObject({ action: 'create', actor: { type: 'system', name: 'ingestão' }, chain: ids.aurora });
    expect(alarms.data[0]!.after).toMatchObject({ device_id: ids.chamber, type: 'temperature_high' });
  });

  it('X11 sign-ins, successful and failed, are in the user\'s chain; an unknown username in the platform\'s', async () => {
    await ctx.login('joao.silva');
    await ctx.request('POST', '/api/authenticate', undefined, { username: 'joao.silva', password: 'senha-errada-123' });
    await ctx.request('POST', '/api/authenticate', undefined, { username: 'ninguem.aqui', password: 'senha-errada-123' });
    const joao = await trail(tokens['aurora.adm']!, `?entity=user&entity_id=${ids.joao}`);
    const actions = joao.data.map((e) => `${e.action}:${String(e.after?.outcome)}:${e.actor.type}`);
    expect(actions).toContain('sign_in:ok:user');
    expect(actions).toContain('sign_in_failed:wrong_password:anonymous');
    const platform = await trail(tokens.admin!, '?enterprise_id=platform&entity=user');
    expect(platform.data.some((e) => e.action === 'sign_in_failed' && e.after?.username === 'ninguem.aqui')).toBe(true);
  });

  it('X11 secrets never reach the trail: a password reset shows the hash changed, never its value', async () => {
    const res = await ctx.request('POST', `/api/admin/users/${ids.joao}/reset-password`, tokens['aurora.adm'], { password: 'Nova@Senha2026' });
    expect(res.statusCode, res.body).toBe(200);
    const page = await trail(tokens['aurora.adm']!, `?entity=user&entity_id=${ids.joao}`);
    const entry = page.data.find((e) => e.action === 'update' && e.after && 'password_hash' in e.after)!;
    expect(entry.after!.password_hash).toBe('[redigido]');
    expect(entry.before!.password_hash).toBe('[redigido]');
    const all = JSON.stringify(await ctx.db.selectFrom('audit_trail').select(['before', 'after']).execute());
    expect(all).not.toMatch(/\$argon2/);
  });

  it('X11 a write with no context is the system\'s; one from outside the application names the database role', async () => {
    await ctx.db.updateTable('devices').set({ name: 'Sem contexto' }).where('id', '=', ids.chamber!).execute();
    await asSystem('rotina de teste', () => ctx.db.updateTable('devices').set({ name: 'Rotina' }).where('id', '=', ids.chamber!).execute());
    await behindTheAppsBack([`UPDATE devices SET name = 'Por fora' WHERE id = '${ids.chamber}'`]);
    const page = await trail(tokens['aurora.adm']!, `?entity=device&entity_id=${ids.chamber}`);
    const names = page.data.filter((e) => e.after && 'name' in e.after).slice(0, 3).map((e) => [e.after!.name, e.actor.type, e.actor.name]);
    expect(names[0]).toEqual(['Por fora', 'database', expect.any(String)]);
    expect(names[1]).toEqual(['Rotina', 'system', 'rotina de teste']);
    expect(names[2]).toEqual(['Sem contexto', 'system', 'sistema']);
  });

  it('X11 every column of every audited table is either audited on update or declared ignored; hot tables are never audited', async () => {
    const tables = await ctx.db.selectFrom('audit_tables').selectAll().execute();
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['devices', 'users', 'travels', 'alarms', 'device_users', 'reports', 'enterprises', 'gateways', 'monitor_links']));
    for (const t of tables) {
      const { rows } = await sql<{ column: string; audited: boolean }>`
        SELECT a.attname AS column, a.attnum = ANY (tg.tgattr::int2[]) AS audited
        FROM pg_attribute a
        JOIN pg_trigger tg ON tg.tgrelid = a.attrelid AND tg.tgname = 'audit_row_update'
        WHERE a.attrelid = ${t.table_name}::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''`.execute(ctx.db);
      expect(rows.length, `${t.table_name} has its update trigger`).toBeGreaterThan(0);
      for (const r of rows) expect(r.audited || t.ignored.includes(r.column), `${t.table_name}.${r.column}`).toBe(true);
    }
    for (const table of UNAUDITED_HOT_TABLES) expect(tables.map((t) => t.table_name)).not.toContain(table);
    const { rows: hot } = await sql<{ table: string }>`
      SELECT c.relname AS table FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid JOIN pg_proc p ON p.oid = tg.tgfoid
      WHERE p.proname = 'audit_row_change' AND c.relname = ANY (${[...UNAUDITED_HOT_TABLES]}::text[])`.execute(ctx.db);
    expect(hot).toEqual([]);
  });
});

describe('X11 audit trail: append-only and tamper-evident', () => {
  it('X11 the database refuses UPDATE, DELETE and TRUNCATE of the trail, and UPDATE and DELETE of readings', async () => {
    await expect(sql`UPDATE audit_trail SET reason = 'x'`.execute(ctx.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_trail`.execute(ctx.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_trail`.execute(ctx.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_chain_heads`.execute(ctx.db)).rejects.toThrow(/append-only/);
    const device = await deviceByMac(ctx, MACS.freezer);
    await expect(sql`UPDATE readings SET temperature = 99 WHERE device_num = ${device.num}`.execute(ctx.db)).rejects.toThrow(/never changed/);
    await expect(sql`DELETE FROM readings WHERE device_num = ${device.num}`.execute(ctx.db)).rejects.toThrow(/never changed/);
    await expect(sql`TRUNCATE readings`.execute(ctx.db)).rejects.toThrow(/never changed/);
  });

  it('X11 the declared removal path deletes readings, with its entry in the trail', async () => {
    const device = await deviceByMac(ctx, MACS.freezer);
    const oldest = await ctx.db.selectFrom('readings').select('ts').where('device_num', '=', device.num).orderBy('ts').limit(1).executeTakeFirstOrThrow();
    const removed = await ctx.db.transaction().execute(async (trx) => {
      await declareReadingsRemoval(trx, { enterpriseId: ids.aurora!, reason: 'retenção (teste)', details: { device_num: device.num, before: oldest.ts.toISOString() } });
      return trx.deleteFrom('readings').where('device_num', '=', device.num).where('ts', '<=', oldest.ts).executeTakeFirst();
    });
    expect(Number(removed.numDeletedRows)).toBe(1);
    const page = await trail(tokens['aurora.adm']!, '?entity=readings');
    expect(page.data[0]).toMatchObject({ action: 'readings_removal', after: { reason: 'retenção (teste)', device_num: device.num } });
  });

  it('X11 each hash is sha256(prev_hash || canonical text): recomputed outside the database', async () => {
    const { rows } = await sql<{ seq: number; prev_hash: string; hash: string; canonical: string }>`
      SELECT seq, prev_hash, hash, audit_canonical(t) AS canonical FROM audit_trail t WHERE chain = ${ids.aurora} ORDER BY seq`.execute(ctx.db);
    expect(rows.length).toBeGreaterThan(5);
    let prev = '0'.repeat(64);
    for (const r of rows) {
      expect(r.prev_hash).toBe(prev);
      expect(createHash('sha256').update(r.prev_hash + r.canonical, 'utf8').digest('hex')).toBe(r.hash);
      prev = r.hash;
    }
  });

  it('X11 verify answers ok, and after an edit behind the application\'s back, ok:false at that sequence', async () => {
    const clean = await verify(tokens['aurora.adm']!);
    expect(clean.ok).toBe(true);
    expect(clean.entries).toBeGreaterThan(5);
    expect(clean.first_bad_seq).toBeUndefined();
    const target = await ctx.db.selectFrom('audit_trail').select('seq').where('chain', '=', ids.aurora!).where('entity', '=', 'device').where('action', '=', 'update').orderBy('seq').limit(1).executeTakeFirstOrThrow();
    // What a superuser could do: disable the guard, rewrite an entry, enable it again.
    await behindTheAppsBack([
      'ALTER TABLE audit_trail DISABLE TRIGGER audit_trail_append_only',
      `UPDATE audit_trail SET after = '{"temperature_max": 30}' WHERE chain = '${ids.aurora}' AND seq = ${target.seq}`,
      'ALTER TABLE audit_trail ENABLE TRIGGER audit_trail_append_only',
    ]);
    expect(await verify(tokens['aurora.adm']!)).toEqual({ ok: false, entries: clean.entries, first_bad_seq: Number(target.seq), chain: ids.aurora });
    // Vida Farma's chain is untouched; the super admin's whole check names the bad chain.
    expect((await verify(tokens['vida.adm']!)).ok).toBe(true);
    expect(await verify(tokens.admin!)).toMatchObject({ ok: false, first_bad_seq: Number(target.seq), chain: ids.aurora });
  });

  it('X11 removing the newest entries is found too (the chain head no longer matches)', async () => {
    const before = await verify(tokens['vida.adm']!);
    expect(before.ok).toBe(true);
    const last = await ctx.db.selectFrom('audit_chain_heads').select('seq').where('chain', '=', ids.vida!).executeTakeFirstOrThrow();
    await behindTheAppsBack([
      'ALTER TABLE audit_trail DISABLE TRIGGER audit_trail_append_only',
      `DELETE FROM audit_trail WHERE chain = '${ids.vida}' AND seq = ${last.seq}`,
      'ALTER TABLE audit_trail ENABLE TRIGGER audit_trail_append_only',
    ]);
    expect(await verify(tokens['vida.adm']!)).toMatchObject({ ok: false, first_bad_seq: Number(last.seq) });
  });

  it.skipIf(isPglite)('X11 concurrent changes of one enterprise never fork its chain', async () => {
    const fresh = await createTestContext({ demo: true });
    try {
      const token = (await fresh.login('aurora.adm')).token;
      const id = await deviceId(fresh, MACS.truck1);
      const other = await deviceId(fresh, MACS.truck2);
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          fresh.request('PUT', `/api/devices/${i % 2 ? id : other}`, token, { config: { temperature: { min: -10 - i, max: 10 + i } } }),
        ),
      );
      for (const r of results) expect(r.statusCode, r.body).toBe(200);
      const res = await fresh.request('GET', '/api/audit-trail/verify', token);
      expect(res.json()).toMatchObject({ ok: true });
      const seqs = (await fresh.db.selectFrom('audit_trail').select('seq').where('chain', '=', (await fresh.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id).orderBy('seq').execute()).map((r) => Number(r.seq));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    } finally {
      await fresh.close();
    }
  });
});

describe('X11 audit trail: tenant walls', () => {
  it('X11 an enterprise admin reads only their chain; another enterprise named answers 404', async () => {
    const own = await trail(tokens['vida.adm']!);
    expect(own.data.length).toBeGreaterThan(0);
    expect(own.data.every((e: AuditEntry) => e.chain === ids.vida)).toBe(true);
    for (const url of [`/api/audit-trail?enterprise_id=${ids.aurora}`, `/api/audit-trail/verify?enterprise_id=${ids.aurora}`, '/api/audit-trail?enterprise_id=platform']) {
      const res = await ctx.request('GET', url, tokens['vida.adm']);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Empresa não encontrada.');
    }
    // Aurora's device id as a filter finds nothing in Vida's chain.
    expect((await trail(tokens['vida.adm']!, `?entity_id=${ids.chamber}`)).total).toBe(0);
  });

  it('X11 users who are not administrators cannot read the trail; anonymous callers neither', async () => {
    tokens['joao.silva'] = (await ctx.login('joao.silva', 'Nova@Senha2026')).token;
    expect((await ctx.request('GET', '/api/audit-trail', tokens['joao.silva'])).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/audit-trail/verify', tokens['joao.silva'])).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/audit-trail')).statusCode).toBe(401);
  });

  it('X11 the super admin reads every chain or one, and bad filters are refused in pt-BR', async () => {
    const all = await trail(tokens.admin!);
    expect(new Set(all.data.map((e) => e.chain)).size).toBeGreaterThan(1);
    const aurora = await trail(tokens.admin!, `?enterprise_id=${ids.aurora}`);
    expect(aurora.data.every((e) => e.chain === ids.aurora)).toBe(true);
    const unknown = await ctx.request('GET', '/api/audit-trail?enterprise_id=00000000-0000-4000-8000-000000000000', tokens.admin);
    expect(unknown.statusCode).toBe(404);
    const bad = await ctx.request('GET', '/api/audit-trail?from=ontem&entity=DROP%20TABLE', tokens.admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/data inicial não é uma data válida|Tipo de registro inválido/);
    const filtered = await trail(tokens.admin!, `?actor=Aurora%20Administra%C3%A7%C3%A3o&from=2000-01-01T00:00:00Z&to=2199-01-01T00:00:00Z`);
    expect(filtered.data.length).toBeGreaterThan(0);
    expect(filtered.data.every((e) => e.actor.name === 'Aurora Administração')).toBe(true);
  });
});
