import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { sendRouteNotFound } from './error-handler';

/**
 * Serves the built web app at the site root. Any GET outside /api that is not a file gets index.html,
 * so the client's router owns those paths; /api paths that match no route get a JSON 404.
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
      wildcard: false,
      setHeaders: (res, filePath) => {
        // Hashed assets never change; the page and the build metadata must always be fresh (P1).
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (hasWeb && request.method === 'GET' && !request.url.startsWith('/api')) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return sendRouteNotFound(reply);
  });
}

export default fp(web, { name: 'web' });
