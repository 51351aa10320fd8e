import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * The files the PGlite run leaves to the PostgreSQL one (ADR 85): what they prove does not depend on the database, so
 * running them twice proves nothing more and costs the suite their time again. Two kinds:
 * - unit tests beside the code (`src/**`) that open no database: they import nothing from the test folder or `db/`;
 * - test files that say so, with the reason, in a comment line `Database-agnostic (ADR 85): <why>`. That is for
 *   files about listeners, processes, configuration or files, where the database is only what the app stands on.
 *   A file that writes, reads or locks anything through the database never says it.
 */
export const AGNOSTIC_MARK = /^\s*(?:\/\/|\*)\s*Database-agnostic \(ADR 85\):/m;

export function databaseAgnosticFiles(root: string): string[] {
  const agnostic: string[] = [];
  for (const folder of ['src', 'test']) {
    for (const entry of readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.test.ts')) continue;
      const file = `${folder}/${entry.split(path.sep).join('/')}`;
      const source = readFileSync(path.join(root, file), 'utf8');
      const opensNoDatabase = folder === 'src' && !/from '[^']*(?:\/test\/|\/db\/)[^']*'/.test(source) && !/\binject\(/.test(source);
      if (opensNoDatabase || AGNOSTIC_MARK.test(source)) agnostic.push(file);
    }
  }
  return agnostic.sort();
}

const pglite = process.env.TEST_DB === 'pglite';

export default defineConfig({
  test: {
    name: pglite ? 'api (PGlite)' : 'api (PostgreSQL)',
    root: import.meta.dirname,
    include: INCLUDE,
    exclude: [...configDefaults.exclude, ...(pglite ? databaseAgnosticFiles(import.meta.dirname) : [])],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker process: each still opens its own app and database, but the app's modules and
    // PGlite's WebAssembly load once per worker instead of once per file (about half of the suite's CPU time). No
    // test mocks modules; spies are on instances and restored.
    isolate: false,
  },
});
