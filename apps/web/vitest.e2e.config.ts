import { defineConfig } from 'vitest/config';

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
    // One browser at a time: two cores are shared with the server and the database.
    fileParallelism: false,
  },
});
