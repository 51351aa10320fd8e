import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OkResponse, z } from '@sentinela/contract';
import { listenWarm } from '../src/listen';
import openapi from '../src/plugins/openapi';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { OPERATIONS } from '../src/openapi/operations';
import { createTestContext, type TestContext } from './context';
import { startFakeTelegram, type FakeTelegram } from './fake-telegram';
import { at, postReadings } from './ingest-helpers';
import { MACS } from './travel-helpers';
import { undocumented, type OpenApiDocument } from './openapi-coverage';
import { walkableRoutes } from './route-walk';

/**
 * Issue 14, item 2 (ADR 34): GET /api/openapi.json describes every route of the app, as the app registered them
 * (a route added later is checked without editing this file), and is a valid OpenAPI 3.1 document; GET /api/docs
 * is a reference page whose files come from this server.
 */
let ctx: TestContext;
let telegram: FakeTelegram;
let document: OpenApiDocument;

beforeAll(async () => {
  // Routes registered only when configured are described too: the Telegram webhook (with a local Bot API).
  telegram = await startFakeTelegram();
  ctx = await createTestContext({
    demo: true,
    config: {
      telegramBotToken: telegram.token,
      telegramApiRoot: telegram.apiRoot,
      telegramWebhookUrl: 'https://sentinela.test/api/telegram/webhook',
      pixWebhookToken: 'pix-webhook-token',
    },
  });
  const res = await ctx.request('GET', '/api/openapi.json');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  document = res.json();
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await telegram?.close();
});

describe('GET /api/openapi.json (X7)', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(validator.version).toBe('3.1');
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route the app registered: schemas, group, summary, authentication, answers', () => {
    const api = walkableRoutes(ctx.routes).filter((r) => r.url.startsWith('/api'));
    expect(api.map((r) => r.key)).toContain('POST /api/telegram/webhook');
    expect(undocumented(ctx.routes, document)).toEqual([]);
  });

  it('has no summary for a route the app does not have', () => {
    const keys = new Set(walkableRoutes(ctx.routes).map((r) => r.key));
    expect([...OPERATIONS.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });

  it('gives every operation its own operationId', () => {
    const ids = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('says how each kind of caller authenticates', () => {
    const op = (method: string, path: string) => document.paths![path]![method]!;
    expect(op('post', '/api/ingest/readings').security).toEqual([{ gatewayKey: [] }]);
    expect(op('post', '/api/ingest/readings').responses?.['401']).toBeDefined();
    expect(op('get', '/api/travels/{id}').security).toEqual([{ session: [] }, { apiToken: ['travels:read'] }]);
    expect(op('get', '/api/travels/{id}').responses?.['403']).toBeDefined();
    expect(op('get', '/api/health').security).toEqual([]);
    expect(op('get', '/api/health').responses?.['401']).toBeUndefined();
    expect(op('get', '/api/travels/localizator/{cod}').security).toEqual([{}, { session: [] }]);
    expect(op('post', '/api/pix/webhook').security).toEqual([{ pixWebhookToken: [] }]);
    expect(op('post', '/api/telegram/webhook').security).toEqual([{ telegramWebhookSecret: [] }]);
    // Errors share one shape, described once.
    expect(op('get', '/api/travels/{id}').responses?.['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    const components = document.components as { responses: Record<string, unknown>; schemas: Record<string, { required?: string[] }> };
    expect(components.schemas.ErrorResponse?.required).toEqual(['statusCode', 'code', 'error']);
    expect(Object.keys(components.responses)).toContain('NotFound');
  });

  it('X13: describes API tokens per operation, the readings export in JSON and CSV, and every webhook payload', () => {
    const op = (method: string, path: string) => document.paths![path]![method]!;
    const schemes = (document.components as { securitySchemes: Record<string, { scheme?: string }> }).securitySchemes;
    expect(schemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    // The scopes come from the contract's one table; routes no token may call list only the session.
    expect(op('post', '/api/alarms/{id}/acknowledge').security).toEqual([{ session: [] }, { apiToken: ['alarms:write'] }]);
    expect(op('get', '/api/beacon-device/history/mac/{mac}/pdf').security).toEqual([{ session: [] }, { apiToken: ['reports:read', 'readings:read'] }]);
    expect(op('post', '/api/me/change-password').security).toEqual([{ session: [] }]);
    expect(op('post', '/api/api-tokens').security).toEqual([{ session: [] }]);
    const exportAnswer = op('get', '/api/readings').responses?.['200'] as { content: Record<string, unknown> };
    expect(Object.keys(exportAnswer.content).sort()).toEqual(['application/json', 'text/csv']);
    const webhooks = (document as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> }; parameters: { name: string }[] } }> }).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual(['alarm.acknowledged', 'alarm.ended', 'alarm.opened', 'device.silent', 'report.ready', 'travel.status_changed', 'webhook.test']);
    const opened = webhooks['alarm.opened']!.post;
    expect(Object.keys(opened.requestBody.content['application/json']!.schema.properties)).toEqual(['type', 'timestamp', 'data']);
    expect(opened.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
  });

  it('describes the ingestion body and the uploads that routes read themselves', () => {
    const ingest = document.paths!['/api/ingest/readings']!.post as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
    expect(Object.keys(ingest.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(ingest.requestBody.content['application/json']!.schema.properties)).toEqual(['readings']);
    const upload = document.paths!['/api/firmwares']!.post as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.requestBody.content['multipart/form-data']!.schema.properties)).toEqual(['file', 'version', 'notes']);
  });

  it('still stores the good readings of a batch with a bad one (the body schema describes, each reading is checked)', async () => {
    const res = await postReadings(ctx, [
      { mac: MACS.chamber, ts: at(ctx, -60), temperature: 4.5 },
      { mac: 'not-a-mac', ts: at(ctx, -60), temperature: 4.5 },
      { mac: MACS.chamber, ts: at(ctx, -30), temperature: 999 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [{ index: 1, code: 'invalid_mac' }, { index: 2, code: 'out_of_range' }] });
    // A body that is not a batch is still the handler's pt-BR 400, and a missing key a 401 before the body is read.
    const bad = await ctx.app.inject({ method: 'POST', url: '/api/ingest/readings', headers: { authorization: `ApiKey ${DEMO_GATEWAY_KEY}` }, payload: { readings: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('O corpo deve ser um objeto JSON com "readings": uma lista de leituras.');
    expect((await postReadings(ctx, [], null)).statusCode).toBe(401);
  });
});

describe('the coverage check', () => {
  it('fails for a route without zod schemas, one without a summary, and a path parameter without a schema', async () => {
    const routes: RouteOptions[] = [];
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.addHook('onRoute', (route) => void routes.push(route));
    await app.register(openapi);
    app.get('/api/health', { config: { permission: 'public' } }, async () => ({ ok: true }));
    app.get('/api/unlisted/:id', { schema: { response: { 200: OkResponse } }, config: { permission: 'public' } }, async () => ({ success: true as const }));
    app.get(
      '/api/plans/:id',
      { schema: { querystring: z.object({ page: z.string().optional() }), response: { 200: OkResponse } }, config: { permission: 'public' } },
      async () => ({ success: true as const }),
    );
    await app.ready();
    const problems = undocumented(routes, app.swagger() as unknown as OpenApiDocument);
    await app.close();
    expect(problems).toContain('GET /api/health: no zod schema for its 2xx answer (schema.response)');
    expect(problems).toContain('GET /api/unlisted/:id: no summary (add it to apps/api/src/openapi/operations.ts)');
    expect(problems).toContain('GET /api/unlisted/:id: path parameter :id has no zod schema (schema.params)');
    expect(problems).toContain('GET /api/plans/:id: path parameter :id has no zod schema (schema.params)');
    expect(problems.some((p) => p.startsWith('GET /api/plans/:id: no summary'))).toBe(false);
  });
});

describe('the document is built before the server listens', () => {
  it('not by app.ready (each test app would pay it), but by listenWarm before the port opens: the first request finds it', async () => {
    const fresh = await createTestContext();
    try {
      expect(fresh.app.openapiDocument.built).toBe(false);
      // Any listener that the first request could reach finds the document made already.
      let builtWhenListening: boolean | undefined;
      fresh.app.server.once('listening', () => {
        builtWhenListening = fresh.app.openapiDocument.built;
      });
      const url = await listenWarm(fresh.app, { port: 0, host: '127.0.0.1' });
      expect(builtWhenListening).toBe(true);
      const res = await fetch(`${url}/api/openapi.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as OpenApiDocument).paths?.['/api/health']).toBeDefined();
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /api/docs (X7)', () => {
  it('is a page whose scripts and styles are files of this server, under the same CSP as the app', async () => {
    const page = await ctx.request('GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const health = await ctx.request('GET', '/api/health');
    expect(page.headers['content-security-policy']).toBe(health.headers['content-security-policy']);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const source of sources) {
      expect(source).toMatch(/^\/api\/docs\//);
      const file = await ctx.request('GET', source);
      expect(file.statusCode, source).toBe(200);
    }
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
  });

  it('serves swagger-ui-dist from node_modules, and nothing else of it', async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const bundle = await ctx.request('GET', '/api/docs/swagger-ui-bundle.js');
    expect(bundle.headers['content-type']).toContain('text/javascript');
    expect(bundle.rawPayload.length).toBe(statSync(path.join(dist, 'swagger-ui-bundle.js')).size);
    const init = await ctx.request('GET', '/api/docs/docs-init.js');
    expect(init.body).toContain("url: '/api/openapi.json'");
    expect(init.body).toContain('validatorUrl: null');
    for (const other of ['package.json', 'index.html', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) {
      const res = await ctx.request('GET', `/api/docs/${other}`);
      expect(res.statusCode, other).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
  });

  // A second app on its own database: slow on PGlite on a busy machine.
  it('is not swallowed by the web app’s fallback to index.html', { timeout: 120_000 }, async () => {
    const webDist = mkdtempSync(path.join(tmpdir(), 'sentinela-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>SPA</title>');
    const web = await createTestContext({ config: { webDist } });
    try {
      const page = await web.request('GET', '/api/docs');
      expect(page.body).toContain('/api/docs/swagger-ui-bundle.js');
      expect((await web.request('GET', '/api/openapi.json')).json()).toMatchObject({ openapi: '3.1.0' });
      expect((await web.request('GET', '/some/screen')).body).toContain('<title>SPA</title>');
    } finally {
      await web.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});
