import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { buildInfo } from './build-info-plugin.ts';

const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), buildInfo()],
  server: {
    proxy: {
      '/api': { target: api, changeOrigin: true },
      '/socket.io': { target: api, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which files each route loads first, for the size budgets (scripts/check-web-budgets.mjs).
    manifest: true,
    // The entry chunk holds what every screen shares (React, router, Mantine, zod): ~190 kB gzip.
    // Screens are split with React.lazy; this limit flags growth of the shared part.
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // zod and the switch that keeps it from probing for eval (lib/zod-without-eval.ts) share one chunk, so the
        // switch runs before any other chunk builds a schema: left to the bundler, the contract's schemas can land in
        // zod's chunk and be built (and probe) before main.tsx's first import runs, a CSP violation (ADR 0014).
        manualChunks: (id) => (id.includes('/node_modules/zod/') || id.endsWith('/lib/zod-without-eval.ts') ? 'zod' : undefined),
      },
    },
  },
});
