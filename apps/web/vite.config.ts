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
    // Screens are split with React.lazy; the first-load budgets per route (route-budgets.json) guard the shared part.
    chunkSizeWarningLimit: 700,
  },
});
