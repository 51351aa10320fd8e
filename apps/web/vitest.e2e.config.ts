import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './e2e/workers.ts';

/** End-to-end tests: the real server on a real PostgreSQL, driven in Debian's Chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A screen's first load (lazy chunks, then its requests) can take seconds on a busy 2-core machine: a poll without
    // its own timeout waits up to 15 s, not Vitest's default 1 s.
    expect: { poll: { timeout: 15_000 } },
    // Files run E2E_WORKERS at a time (two by default), each worker against its own server, database and fakes
    // (e2e/environment.ts, ADR 50): they share no demo data, so neither order nor company matters.
    pool: 'forks',
    maxWorkers: E2E_WORKERS,
    fileParallelism: E2E_WORKERS > 1,
  },
});
