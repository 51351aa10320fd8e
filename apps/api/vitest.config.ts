import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: process.env.TEST_DB === 'pglite' ? 'api (PGlite)' : 'api (PostgreSQL)',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
