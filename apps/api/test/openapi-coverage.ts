import type { RouteOptions } from 'fastify';
import { $ZodType } from 'zod/v4/core';
import { openapiPath } from '../src/openapi/document';
import { TAGS } from '../src/openapi/operations';
import { pathParams, walkableRoutes } from './route-walk';

/**
 * What is missing for each route of the API to be described in the OpenAPI document (ADR 34): the routes come
 * from the app's onRoute hook, so a route added later is checked without editing the tests. Empty when complete.
 */
export function undocumented(routes: readonly RouteOptions[], document: OpenApiDocument): string[] {
  const problems: string[] = [];
  const api = walkableRoutes(routes).filter((r) => r.url.startsWith('/api'));
  const described = new Set<string>();

  for (const route of api) {
    const key = route.key;
    const schema = (route.options.schema ?? {}) as Record<string, unknown>;
    // The route's own schemas must be zod's: a route without them would be described as "Default Response".
    const response = (schema.response ?? {}) as Record<string, unknown>;
    const success = Object.entries(response).filter(([status]) => /^2/.test(status));
    if (success.length === 0) problems.push(`${key}: no zod schema for its 2xx answer (schema.response)`);
    for (const [status, answer] of success) {
      if (!isZodAnswer(answer)) problems.push(`${key}: the ${status} answer is not a zod schema`);
    }
    for (const part of ['params', 'querystring', 'body', 'headers'] as const) {
      if (schema[part] !== undefined && !(schema[part] instanceof $ZodType)) problems.push(`${key}: schema.${part} is not a zod schema`);
    }
    const names = pathParams(route.url);
    if (names.length > 0) {
      const shape = schema.params instanceof $ZodType ? ((schema.params as unknown as { shape?: Record<string, unknown> }).shape ?? {}) : {};
      for (const name of names) if (!(name in shape)) problems.push(`${key}: path parameter :${name} has no zod schema (schema.params)`);
    }

    // And the document must describe it: method, path, group, summary, who may call it, what it answers.
    const operation = document.paths?.[openapiPath(route.url)]?.[route.method.toLowerCase()];
    if (!operation) {
      problems.push(`${key}: not in the OpenAPI document`);
      continue;
    }
    described.add(`${route.method.toLowerCase()} ${openapiPath(route.url)}`);
    if (!operation.summary) problems.push(`${key}: no summary (add it to apps/api/src/openapi/operations.ts)`);
    if (operation.tags?.length !== 1 || !(operation.tags[0]! in TAGS)) problems.push(`${key}: no tag of TAGS`);
    if (!Array.isArray(operation.security)) problems.push(`${key}: no security requirement (public routes say [])`);
    for (const requirement of operation.security ?? []) {
      for (const scheme of Object.keys(requirement)) {
        if (!document.components?.securitySchemes?.[scheme]) problems.push(`${key}: unknown security scheme ${scheme}`);
      }
    }
    const answers = Object.entries(operation.responses ?? {});
    const successes = answers.filter(([status]) => /^2/.test(status));
    if (successes.length === 0 || successes.some(([, answer]) => !answer.content)) problems.push(`${key}: no described 2xx answer`);
    for (const status of ['400', '500', 'default']) {
      if (!operation.responses?.[status]) problems.push(`${key}: no ${status} answer`);
    }
    const signedIn = (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
    const optional = (operation.security ?? []).some((requirement) => Object.keys(requirement).length === 0);
    if (signedIn && !optional && !operation.responses?.['401']) problems.push(`${key}: authenticated but no 401 answer`);
    if (names.length > 0 && !operation.responses?.['404']) problems.push(`${key}: has path parameters but no 404 answer`);
  }

  // Nothing described that the app does not have (a route removed, a path mistyped).
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(item)) {
      if (!described.has(`${method} ${path}`)) problems.push(`${method.toUpperCase()} ${path}: described but not a route of the app`);
    }
  }
  return problems;
}

function isZodAnswer(answer: unknown): boolean {
  if (answer instanceof $ZodType) return true;
  const content = (answer as { content?: Record<string, { schema?: unknown }> } | null)?.content;
  return !!content && Object.values(content).length > 0 && Object.values(content).every((media) => media.schema instanceof $ZodType);
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { content?: Record<string, unknown>; $ref?: string }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { securitySchemes?: Record<string, unknown> };
}
