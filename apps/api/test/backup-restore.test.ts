import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CLIENT_VERSION, type Report } from '@sentinela/contract';
import { buildApp } from '../src/app';
import { loadConfig, type AppConfig } from '../src/config/config';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { ManualClock } from '../src/lib/clock';
import { DEMO_GATEWAY_KEY, DEMO_PASSWORD, seedDemoData } from '../src/seed/demo';
import { testConfig } from './context';
import { withDatabase } from './global-setup';
import { multipart } from './report-helpers';
import { ROOT } from './server-process';

/**
 * X14 Operations, backups that restore (ADR 67): `npm run backup` and `npm run restore` as an operator runs them, on
 * the database these tests run on (PostgreSQL through pg_dump/pg_restore, or PGlite through its own dump). The restored
 * installation has the same counts, the same reading, the same report file, whose signature still validates, and the
 * same signing certificate and secrets; a restore into a target that holds anything is refused.
 */
const TRUCK = 'C3:00:00:00:01:01';
const headers = { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An installation: a DATA_DIR and, on PostgreSQL, a database of its own (`empty`: not even migrated). */
async function installation(empty: boolean): Promise<{ env: Record<string, string>; config: AppConfig; open(): Promise<DatabaseHandle> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sentinela-install-'));
  rmSync(dataDir, { recursive: true });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'silent' };
  const postgres = inject('postgres');
  if (postgres) {
    const name = `b_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${postgres.template}`);
    await admin.end();
    env.DATABASE_URL = withDatabase(postgres.url, name);
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await client.end();
    });
  }
  const derived = loadConfig(env);
  // The app as the server would run it on these paths; the rest as every test app.
  const config = testConfig({
    databaseUrl: derived.databaseUrl,
    dataDir: derived.dataDir,
    reportsDir: derived.reportsDir,
    reportSigningDir: derived.reportSigningDir,
    firmwareDir: derived.firmwareDir,
    calibrationsDir: derived.calibrationsDir,
    mailOutboxDir: derived.mailOutboxDir,
    vapidKeysFile: derived.vapidKeysFile,
  });
  return { env, config, open: () => openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }) };
}

/** `npm run <script> -- <args>` with the installation's environment: exit code and output. */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const clean = { ...process.env };
    for (const key of ['DATABASE_URL', 'DATA_DIR', 'REPORTS_DIR', 'FIRMWARE_DIR', 'CALIBRATIONS_DIR', 'MAIL_OUTBOX_DIR', 'REPORT_SIGNING_P12']) delete clean[key];
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function login(app: FastifyInstance, username: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/authenticate', headers, payload: { username, password: DEMO_PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { token: { token: string } }).token.token;
}

async function validates(app: FastifyInstance, pdf: Buffer): Promise<unknown> {
  const body = multipart([{ filename: 'relatorio.pdf', contentType: 'application/pdf', data: pdf }]);
  const res = await app.inject({ method: 'POST', url: '/api/report/validate', headers: { ...headers, 'content-type': body.contentType }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function counts(db: DatabaseHandle['db']): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['readings', 'devices', 'users', 'enterprises', 'reports', 'alarms', 'travels', 'gateways'] as const) {
    out[table] = Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }
  return out;
}

/** Every file under `dir`, by relative path, with its bytes. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(relative);
      else out[relative] = readFileSync(path.join(dir, relative)).toString('base64');
    }
  };
  walk('');
  return out;
}

describe('X14 backup and restore', () => {
  it('round-trips the database, a report and its signature, the certificate and the secrets; refuses a non-empty target', async () => {
    // 1. A running installation with data: demo data, a reading, a signed report, push keys.
    const source = await installation(false);
    const clock = new ManualClock(new Date());
    let database = await source.open();
    if (!source.config.databaseUrl) await migrateToLatest(database.db);
    await seedDemoData(database.db, clock);
    let { app, services } = await buildApp({ config: source.config, db: database.db, clock, logger: false });
    await app.ready();
    const ts = new Date(clock.now().getTime() - 60_000).toISOString();
    const ingest = await app.inject({ method: 'POST', url: '/api/ingest/readings', headers: { authorization: `ApiKey ${DEMO_GATEWAY_KEY}` }, payload: { readings: [{ mac: TRUCK, ts, temperature: 3.21, humidity: 55.5, battery: 77 }] } });
    expect(ingest.json()).toMatchObject({ accepted: 1 });
    const joao = await login(app, 'joao.silva');
    const from = new Date(clock.now().getTime() - 24 * 3_600_000).toISOString();
    const queued = await app.inject({ method: 'GET', url: `/api/beacon-device/history/mac/${TRUCK}/pdf?dateInitUtc=${from}&dateEndUtc=${clock.now().toISOString()}`, headers: { ...headers, authorization: `Bearer ${joao}` } });
    expect(queued.statusCode, queued.body).toBe(200);
    const reportId = (queued.json() as Report)._id;
    const deadline = Date.now() + 60_000;
    let report: Report;
    for (;;) {
      report = (await app.inject({ method: 'GET', url: `/api/reports/${reportId}`, headers: { ...headers, authorization: `Bearer ${joao}` } })).json() as Report;
      if (report.status.id !== 1 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(report.status.id, report.error ?? '').toBe(2);
    const pdf = (await app.inject({ method: 'GET', url: report.download_url!, headers: { ...headers, authorization: `Bearer ${joao}` } })).rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await validates(app, pdf)).toMatchObject({ valid: true });
    const vapidPublicKey = await services.push.publicKey();
    const before = await counts(database.db);
    const reading = await database.db.selectFrom('readings').innerJoin('devices', 'devices.num', 'readings.device_num').select(['readings.temperature', 'readings.humidity', 'readings.battery']).where('devices.mac', '=', TRUCK).where('readings.ts', '=', new Date(ts)).executeTakeFirstOrThrow();
    const signing = filesOf(source.config.reportSigningDir);
    const secrets = filesOf(path.dirname(source.config.vapidKeysFile));
    expect(Object.keys(signing).length).toBeGreaterThan(0);
    await app.close();
    await database.close();

    // 2. The backup, as the operator runs it (the embedded database with its server stopped).
    const archiveDir = mkdtempSync(path.join(tmpdir(), 'sentinela-archive-'));
    cleanups.push(() => rmSync(archiveDir, { recursive: true, force: true }));
    const archive = path.join(archiveDir, 'sentinela.tar.gz');
    const backup = await npmRun('backup', ['--out', archive], source.env);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('Backup gravado em');
    // Never over an existing file.
    const again = await npmRun('backup', ['--out', archive], source.env);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain('já existe');

    // 3. Restored into an empty installation.
    const target = await installation(true);
    const restore = await npmRun('restore', ['--in', archive], target.env);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('restaurado');

    // 4. A second restore into it (no longer empty) is refused and changes nothing.
    const refused = await npmRun('restore', ['--in', archive], target.env);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('Restauração recusada: o destino não está vazio');
    // A backup of one kind of database is not restored into the other.
    const otherKind = await npmRun('restore', ['--in', archive], source.config.databaseUrl ? { DATA_DIR: path.join(archiveDir, 'x'), NODE_ENV: 'development' } : { ...target.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' });
    expect(otherKind.code).not.toBe(0);
    expect(otherKind.output).toMatch(/Este backup é (de um PostgreSQL|do banco embutido)/);

    // 5. The restored installation: same data, the same report file still valid, the same certificate and keys.
    database = await target.open();
    cleanups.push(() => database.close().catch(() => {}));
    expect(await counts(database.db)).toEqual(before);
    expect(await database.db.selectFrom('readings').innerJoin('devices', 'devices.num', 'readings.device_num').select(['readings.temperature', 'readings.humidity', 'readings.battery']).where('devices.mac', '=', TRUCK).where('readings.ts', '=', new Date(ts)).executeTakeFirstOrThrow()).toEqual(reading);
    expect(filesOf(target.config.reportSigningDir)).toEqual(signing);
    expect(filesOf(path.dirname(target.config.vapidKeysFile))).toEqual(secrets);
    ({ app, services } = await buildApp({ config: target.config, db: database.db, clock, logger: false }));
    cleanups.push(() => app.close());
    await app.ready();
    const token = await login(app, 'joao.silva');
    const restoredPdf = (await app.inject({ method: 'GET', url: report.download_url!, headers: { ...headers, authorization: `Bearer ${token}` } })).rawPayload;
    expect(restoredPdf.equals(pdf)).toBe(true);
    expect(await validates(app, restoredPdf)).toMatchObject({ valid: true });
    expect(await services.push.publicKey()).toBe(vapidPublicKey);
  }, 600_000);
});
