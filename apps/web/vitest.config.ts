import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    root: fileURLToPath(new URL('.', import.meta.url)),
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['./src/test/setup.ts'],
      // Dates are shown in local time: pin one zone so the expected texts hold anywhere.
      env: { TZ: 'America/Sao_Paulo' },
      restoreMocks: true,
      unstubGlobals: true,
    },
  }),
);
