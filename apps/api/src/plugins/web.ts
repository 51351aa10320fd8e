import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { sendRouteNotFound } from './error-handler';

/**
 * A path that names a file rather than a screen: the build's hashed assets, and anything ending in a file extension a
 * build or the public folder holds. A missing one is a 404, never the app's index.html: sent as JavaScript, the page
 * would fail to parse it with an error that hides the real cause (a deploy that removed the chunk).
 */
const FILE_PATH = /^\/assets\/|\.(?:js|mjs|css|map|json|webmanifest|wasm|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|txt|xml)$/i;

/**
 * Serves the built web app at the site root. Files are read from disk at request time (a wildcard route, no list of
 * files made at start), so a new build placed in WEB_DIST is served without a restart; the web build keeps the
 * previous builds' hashed assets for a while (apps/web/keep-previous-assets-plugin.ts), so a page opened before a
 * deploy still loads its lazy chunks after it (X14, ADR 68). Any other GET outside /api gets index.html, so the
 * client's router owns those paths; /api paths that match no route get a JSON 404.
 */
async function web(
  app: FastifyInstance,
  { webDist, runtimeConfig }: { webDist: string | undefined; runtimeConfig?: Record<string, unknown> },
) {
  const hasWeb = !!webDist && existsSync(path.join(webDist, 'index.html'));
  // The web app's run-time settings (WEB_RUNTIME_CONFIG): one build, any tile and routing servers. Without it, a
  // config.json placed in the built app is served as a file instead, and without either the app keeps its defaults.
  if (runtimeConfig) {
    app.get('/config.json', { config: { permission: 'public' } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').send(runtimeConfig),
    );
  }
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      setHeaders: (res, filePath) => {
        // Hashed assets never change; the page and the build metadata must always be fresh (P1).
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split('?')[0] ?? request.url;
    if (hasWeb && request.method === 'GET' && !urlPath.startsWith('/api') && !FILE_PATH.test(urlPath)) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    // A missing file may appear with the next deploy: no cache may keep this answer.
    if (FILE_PATH.test(urlPath)) reply.header('cache-control', 'no-store');
    return sendRouteNotFound(reply);
  });
}

export default fp(web, { name: 'web' });
