import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { CLIENT_VERSION } from '@sentinela/contract';
import { buildApp } from '../src/app';
import { jobConnectionOf, openDatabase, type DatabaseHandle } from '../src/db/database';
import { MIGRATION_NAMES, migrateToLatest, pendingMigrations } from '../src/db/migrate';
import { ManualClock } from '../src/lib/clock';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { testConfig } from './context';
import { withDatabase } from './global-setup';

/**
 * X14 Operations, upgrades (docs/operations.md §7): a database of the previous release — the one at commit edeef23,
 * its migrations and its demo data, dumped as SQL by fixtures/make-release-fixture.mts — is migrated at start to this
 * release, loses nothing, and serves the app: its users sign in and its readings are read.
 */
const FIXTURE = path.join(__dirname, 'fixtures', 'release-edeef23.sql.gz');
const TABLES = ['users', 'enterprises', 'devices', 'gateways', 'travels', 'travel_devices', 'device_users', 'plans', 'invoices', 'readings'] as const;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An empty database loaded with the previous release's dump. */
async function previousRelease(): Promise<DatabaseHandle> {
  const dump = gunzipSync(readFileSync(FIXTURE)).toString('utf8');
  const postgres = inject('postgres');
  if (postgres) {
    const name = `u_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = withDatabase(postgres.url, name);
    // Its own session: the dump empties search_path for the session that loads it.
    const loader = new pg.Client({ connectionString: url });
    await loader.connect();
    await loader.query(dump);
    await loader.end();
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await client.end();
    });
    return openDatabase({ databaseUrl: url, dataDir: '', poolSize: 3 });
  }
  const handle = await openDatabase({ dataDir: 'memory://' });
  const connection = jobConnectionOf(handle.db);
  if (connection?.kind !== 'pglite') throw new Error('expected the embedded database');
  await connection.pglite.exec(dump);
  await connection.pglite.exec('RESET search_path');
  return handle;
}

describe('X14 upgrade from the previous release', () => {
  it('migrates a database of release edeef23 with its data, which the app then serves', async () => {
    const database = await previousRelease();
    cleanups.push(() => database.close());
    const db = database.db;

    const ran = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
    // Migrations are frozen: the previous release's list is the start of this one's, in order.
    expect(ran.length).toBeGreaterThan(0);
    expect(MIGRATION_NAMES.slice(0, ran.length)).toEqual(ran);
    expect(await pendingMigrations(db)).toEqual(MIGRATION_NAMES.slice(ran.length));

    const countsOf = async () => {
      const out: Record<string, number> = {};
      for (const table of TABLES) out[table] = Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      return out;
    };
    const before = await countsOf();
    expect(before.readings).toBeGreaterThan(100);
    expect(before.users).toBeGreaterThanOrEqual(5);
    const sample = await db.selectFrom('readings').innerJoin('devices', 'devices.num', 'readings.device_num').select(['devices.mac', 'readings.ts', 'readings.temperature', 'readings.humidity']).orderBy('readings.ts', 'desc').orderBy('devices.mac').limit(3).execute();

    await migrateToLatest(db);
    expect(await pendingMigrations(db)).toEqual([]);
    expect(await countsOf()).toEqual(before);
    const after = await db.selectFrom('readings').innerJoin('devices', 'devices.num', 'readings.device_num').select(['devices.mac', 'readings.ts', 'readings.temperature', 'readings.humidity']).orderBy('readings.ts', 'desc').orderBy('devices.mac').limit(3).execute();
    expect(after).toEqual(sample);

    // The app on the upgraded database: a user of the old release signs in and reads the old readings.
    const clock = new ManualClock(new Date(sample[0]!.ts.getTime() + 60_000));
    const { app } = await buildApp({ config: testConfig(), db, clock, logger: false });
    cleanups.push(() => app.close());
    await app.ready();
    const headers = { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };
    const signIn = await app.inject({ method: 'POST', url: '/api/authenticate', headers, payload: { username: 'aurora.adm', password: DEMO_PASSWORD } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const token = (signIn.json() as { token: { token: string } }).token.token;
    const mac = sample.find((s) => s.mac.startsWith('C3:00:00:00:01'))?.mac ?? 'C3:00:00:00:01:01';
    const from = new Date(clock.now().getTime() - 24 * 3_600_000).toISOString();
    const count = await app.inject({ method: 'GET', url: `/api/beacon-device/${encodeURIComponent(mac)}/historic-count?dateInitUtc=${from}&dateEndUtc=${clock.now().toISOString()}`, headers: { ...headers, authorization: `Bearer ${token}` } });
    expect(count.statusCode, count.body).toBe(200);
    expect((count.json() as { count: number }).count).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  }, 300_000);
});
