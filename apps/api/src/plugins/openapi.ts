import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { API_VERSION, z } from '@sentinela/contract';
import { notFound } from '../lib/errors';
import { createOpenapiOptions } from '../openapi/document';
import { fileResponse } from '../openapi/route-schemas';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI document, built once (1–2 s of CPU): `build()` makes it now; `built` says whether it exists. */
    openapiDocument: { build(): void; readonly built: boolean };
  }
}

/** The files of swagger-ui-dist the reference page loads, with their media types: served from node_modules, no CDN. */
const UI_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const INIT_FILE = 'docs-init.js';
const ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', INIT_FILE] as const;

/**
 * Starts Swagger UI on the document. A file of its own (not an inline script): the CSP allows only the app's own
 * scripts. No validator badge (it would send the document to validator.swagger.io), no "Try it out" by default.
 */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Sentinela API</title>
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/${INIT_FILE}"></script>
  </body>
</html>
`;

/**
 * The API's description (ADR 34): @fastify/swagger collects every route registered after this plugin and
 * describes it from its zod schemas; GET /api/openapi.json answers the OpenAPI 3.1 document, GET /api/docs a
 * self-hosted Swagger UI reading it, under the app's CSP unchanged.
 */
async function openapi(fastify: FastifyInstance) {
  await fastify.register(swagger, createOpenapiOptions({ version: API_VERSION }));
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // @fastify/swagger builds the document on its first call and keeps it; this only remembers that it did.
  let built = false;
  const documentNow = () => {
    const document = app.swagger() as unknown as Record<string, unknown>;
    built = true;
    return document;
  };
  fastify.decorate('openapiDocument', {
    build: () => void documentNow(),
    get built() {
      return built;
    },
  });

  app.get(
    '/api/openapi.json',
    {
      schema: { response: { 200: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }) } },
      config: { permission: 'public' },
    },
    documentNow,
  );

  app.get(
    '/api/docs',
    { schema: { response: { 200: fileResponse('The reference page.', 'text/html') } }, config: { permission: 'public' } },
    (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE),
  );

  app.get(
    '/api/docs/:asset',
    {
      schema: {
        // Any name, answered 404 unless it is one of the page's files: nothing else of node_modules is reachable.
        params: z.object({ asset: z.string().max(64).meta({ enum: [...ASSETS] }) }),
        response: {
          200: fileResponse('A file of the reference page.', 'text/javascript', 'text/css', 'image/png'),
        },
      },
      config: { permission: 'public' },
    },
    (request, reply) => {
      const { asset } = request.params;
      if (!(ASSETS as readonly string[]).includes(asset)) throw notFound();
      if (asset === INIT_FILE) return reply.type('text/javascript; charset=utf-8').send(INIT_SCRIPT);
      return reply.type(UI_FILES[asset]!).send(createReadStream(path.join(uiDir, asset)));
    },
  );
}

export default fp(openapi, { name: 'openapi' });
