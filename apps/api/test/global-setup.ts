import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server URL (admin database) and the migrated template each test file copies. */
    postgres: { url: string; template: string } | null;
  }
}

export const TEMPLATE_DB = 'sentinela_template';

/**
 * On PostgreSQL (the default): migrate one template database; each test file then gets its own copy.
 * Uses DATABASE_URL when the runner gives one, or starts a throwaway server itself.
 * With TEST_DB=pglite every test file opens its own in-memory embedded database instead.
 */
export default async function setup(project: TestProject) {
  // The report tests check generated PDFs with poppler's tools, as an auditor would.
  // @ts-expect-error plain ESM helper shared with the test runner script
  const { ensurePoppler } = await import('../../../scripts/lib/debian-packages.mjs');
  ensurePoppler();
  if (process.env.TEST_DB === 'pglite') {
    project.provide('postgres', null);
    return;
  }
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
