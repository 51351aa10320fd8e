import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// Files that replace modules with vi.mock need a module registry of their own; the others share their worker's
// (isolate: false), which saves loading React, Mantine and the app's modules once per file (ADR 29 did the same for the API).
const MOCKING = [
  'src/features/locations/components/LocationsPage.test.tsx',
  'src/features/device-history/components/DeviceHistoryPage.test.tsx',
  'src/features/travels/components/TravelFormModal.test.tsx',
  'src/features/travels/components/TravelsPage.test.tsx',
  'src/features/travels/components/LocalizatorPage.test.tsx',
];

const shared = {
  environment: 'jsdom',
  setupFiles: ['./src/test/setup.ts'],
  env: { TZ: 'America/Sao_Paulo' },
  testTimeout: 20_000,
  restoreMocks: true,
  unstubGlobals: true,
};

export default mergeConfig(
  viteConfig,
  defineConfig({
    root: fileURLToPath(new URL('.', import.meta.url)),
    test: {
      projects: [
        { extends: true, test: { ...shared, name: 'shared', include: ['src/**/*.test.{ts,tsx}'], exclude: MOCKING, isolate: false } },
        { extends: true, test: { ...shared, name: 'isolated', include: MOCKING, isolate: true } },
      ],
    },
  }),
);
