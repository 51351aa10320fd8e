import type { Plugin } from 'vite';

/**
 * Build-version check (P1): stamps every build with one date, bundled as the constant `__BUILD_DATE__`
 * and written to `build.json` at the site root. The running client compares the two on start.
 * The dev server answers `/build.json` with the same value, so the check behaves as in production.
 */
export function buildInfo(buildDate: number = Date.now()): Plugin {
  const body = JSON.stringify({ buildDate });
  return {
    name: 'sentinela-build-info',
    config: () => ({ define: { __BUILD_DATE__: JSON.stringify(buildDate) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== '/build.json') return next();
        res.setHeader('content-type', 'application/json');
        res.setHeader('cache-control', 'no-store');
        res.end(body);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build.json', source: body });
    },
  };
}
