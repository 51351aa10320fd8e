import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { jobConnectionOf, openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { JobQueue } from '../src/jobs/job-queue';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server URL (admin database) and the migrated template each test file copies. */
    postgres: { url: string; template: string } | null;
    /** With TEST_DB=pglite: the file holding the dump of a migrated embedded database each test file loads. */
    pgliteDump: string | null;
  }
}

export const TEMPLATE_DB = 'sentinela_template';

/**
 * On PostgreSQL (the default): migrate one template database; each test file then gets its own copy.
 * Uses DATABASE_URL when the runner gives one, or starts a throwaway server itself.
 * With TEST_DB=pglite every test file loads its own in-memory embedded database from one migrated dump made here:
 * a fresh PGlite runs initdb (about 5 s of WebAssembly per file on this machine), loading a dump takes about 2.
 */
export default async function setup(project: TestProject) {
  // The report tests check generated PDFs with poppler's tools, as an auditor would.
  // @ts-expect-error plain ESM helper shared with the test runner script
  const { ensurePoppler } = await import('../../../scripts/lib/debian-packages.mjs');
  ensurePoppler();
  if (process.env.TEST_DB === 'pglite') {
    project.provide('postgres', null);
    const folder = mkdtempSync(path.join(tmpdir(), 'sentinela-pglite-'));
    const file = path.join(folder, 'migrated.tar');
    writeFileSync(file, await migratedPgliteDump());
    project.provide('pgliteDump', file);
    return () => rmSync(folder, { recursive: true, force: true });
  }
  project.provide('pgliteDump', null);
  let url = process.env.DATABASE_URL;
  let stop: (() => void) | undefined;
  if (!url) {
    // @ts-expect-error plain ESM helper shared with the test runner script
    const { startPostgres } = await import('../../../scripts/lib/postgres.mjs');
    const server = await startPostgres();
    url = server.url as string;
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();

  const template = await openDatabase({ databaseUrl: withDatabase(url, TEMPLATE_DB), dataDir: '' });
  await migrateToLatest(template.db);
  await template.close();
  project.provide('postgres', { url, template: TEMPLATE_DB });
  return () => stop?.();
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** An embedded database with every migration and the job queue's own schema, as a dump `openDatabase` can load. */
async function migratedPgliteDump(): Promise<Buffer> {
  const handle = await openDatabase({ dataDir: 'memory://' });
  await migrateToLatest(handle.db);
  const connection = jobConnectionOf(handle.db);
  if (connection?.kind !== 'pglite') throw new Error('expected an embedded database');
  // Starting the queue once creates pg-boss's schema; each test app then finds it made.
  const silent = { error: () => {}, warn: () => {}, info: () => {} };
  const queue = new JobQueue(connection, silent);
  await queue.start();
  await queue.stop();
  await dropTemplateDatabases(connection.pglite);
  const dump = await connection.pglite.dumpDataDir('none');
  await handle.close();
  return Buffer.from(await dump.arrayBuffer());
}

/**
 * Without template0 and template1 the dump is 29 MB instead of 45 (what is left is the app's database and a 16 MB WAL
 * segment), and each test file's load of it costs a fifth less CPU (ADR 85). Only CREATE DATABASE needs a template,
 * and nothing creates a database inside a test's embedded one.
 */
export async function dropTemplateDatabases(pglite: { exec(sql: string): Promise<unknown> }): Promise<void> {
  await pglite.exec('ALTER DATABASE template0 ALLOW_CONNECTIONS true');
  for (const name of ['template0', 'template1']) {
    await pglite.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await pglite.exec(`DROP DATABASE ${name}`);
  }
  await pglite.exec('CHECKPOINT');
}
