import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { buildInfo } from './build-info-plugin.ts';
import { mantineImportRedirects } from './mantine-import-redirects-plugin.ts';
import { keepPreviousAssets } from './keep-previous-assets-plugin.ts';

const api = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), buildInfo(), mantineImportRedirects(), keepPreviousAssets()],
  server: {
    proxy: {
      '/api': { target: api, changeOrigin: true },
      '/socket.io': { target: api, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // Earlier builds' hashed assets stay for pages opened before a deploy; keepPreviousAssets retires them (ADR 68).
    emptyOutDir: false,
    // dist/.vite/manifest.json: which files each route loads first, for the size budgets (scripts/check-web-budgets.mjs).
    manifest: true,
    // Screens are split with React.lazy; the first-load budgets per route (route-budgets.json) guard the shared part.
    chunkSizeWarningLimit: 700,
    // Browsers without <link rel="modulepreload"> (Safari before 17) still load every module, only without the
    // early preload: the polyfill would cost every route's first load instead (ADR 0040).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The popovers' positioning library in a chunk of its own: left to the bundler, small modules that share its
        // importers (Mantine's VisuallyHidden, say) join its chunk and bring its ~14 kB gzip to screens without
        // any popover, such as /my-devices. React has its group too, taken first: a group takes in the modules
        // it imports, and the entry would otherwise import floating-ui's chunk for React (ADR 0040).
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            { name: 'floating-ui', test: /[\\/]node_modules[\\/]@floating-ui[\\/]/, priority: 2 },
            { name: 'initial', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
});
