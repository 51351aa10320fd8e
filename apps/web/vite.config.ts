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
    // The entry chunk holds what every screen shares (React, router, Mantine, zod): ~190 kB gzip.
    // Screens are split with React.lazy; this limit flags growth of the shared part.
    chunkSizeWarningLimit: 700,
  },
});
