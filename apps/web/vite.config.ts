import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { buildInfo } from './build-info-plugin';

const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), buildInfo()],
  server: {
    proxy: {
      '/api': { target: api, changeOrigin: true },
      '/socket.io': { target: api, changeOrigin: true, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
