import type { RouteOptions } from 'fastify';

/**
 * The app's registered routes, for tests that must reach every one of them (ADR 11): a route added later is
 * walked without editing the tests, and a test fails when it leaves one out.
 */
export interface WalkedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  /** `METHOD url`, as tests name routes. */
  key: string;
  options: RouteOptions;
}

/** Every route a client can call (HEAD routes are GET's own; the Socket.IO path is not a Fastify route). */
export function walkableRoutes(routes: readonly RouteOptions[]): WalkedRoute[] {
  const seen = new Set<string>();
  const out: WalkedRoute[] = [];
  for (const options of routes) {
    for (const method of [options.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const key = `${method} ${options.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ method: method as WalkedRoute['method'], url: options.url, key, options });
    }
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

/** The names of a route's path parameters, in order (`/api/travels/:id/devices/:mac` → id, mac). */
export function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}

/** The route a concrete path reaches: static segments win over parameters, as in Fastify's router. */
export function routeOf(routes: readonly WalkedRoute[], method: string, path: string): WalkedRoute | undefined {
  const bare = path.split('?')[0]!;
  const candidates = routes.filter((r) => r.method === method && patternOf(r.url).test(bare));
  return candidates.sort((a, b) => pathParams(a.url).length - pathParams(b.url).length)[0];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each route's pattern, compiled once: the walks look up the route of every one of their thousands of requests. */
const patterns = new Map<string, RegExp>();

function patternOf(url: string): RegExp {
  let pattern = patterns.get(url);
  if (!pattern) patterns.set(url, (pattern = compilePattern(url)));
  return pattern;
}

function compilePattern(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Fills a route's parameters: `/api/travels/:id` with { id } → `/api/travels/<id>` (values as given). */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} of ${url}`);
    return value;
  });
}
