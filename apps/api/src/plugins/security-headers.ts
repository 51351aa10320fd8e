import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/** The web app's tile server when nothing configures one (as in apps/web/src/components/map/config.ts). */
const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * The origin of a URL or Leaflet URL template, as a CSP source. A placeholder in the host (`{s}.tile.example.org`)
 * becomes a wildcard label when it is the leftmost one; anywhere else only the scheme can be named.
 */
export function cspSource(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  const match = /^(https?):\/\/([^/?#]+)/i.exec(url.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const host = match[2]!.toLowerCase();
  if (!host.includes('{')) return `${scheme}://${host}`;
  const wildcard = host.replace(/^\{[^}]*\}\./, '*.');
  return wildcard.includes('{') ? `${scheme}:` : `${scheme}://${wildcard}`;
}

/** The map settings the browser will use: WEB_RUNTIME_CONFIG, else a config.json placed in the build, else none. */
function mapSettings(webDist: string | undefined, runtimeConfig: Record<string, unknown> | undefined): Record<string, unknown> {
  if (runtimeConfig) return runtimeConfig;
  const file = webDist ? path.join(webDist, 'config.json') : null;
  if (!file || !existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface SecurityHeadersOptions {
  webDist: string | undefined;
  runtimeConfig?: Record<string, unknown>;
  /** The card provider's API root (ADR 31): the browser posts card numbers there, so it may connect to it. */
  cardProviderUrl?: string;
}

/**
 * Security headers on every answer (issue 9, ADR 0014) and `cache-control: no-store` on the API's.
 * The CSP lets the page reach only itself (API and Socket.IO, same origin) and the configured map services:
 * images from the tile server, requests to the routing server. Mantine writes its CSS variables in <style>
 * elements, hence 'unsafe-inline' for styles only; scripts are the build's own files.
 */
async function securityHeaders(app: FastifyInstance, opts: SecurityHeadersOptions) {
  const settings = mapSettings(opts.webDist, opts.runtimeConfig);
  const tiles = cspSource(settings.tileUrl ?? DEFAULT_TILE_URL);
  const routing = cspSource(settings.routingUrl);
  const cardProvider = cspSource(opts.cardProviderUrl);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        // Leaflet's markers are inlined images; downloads (reports) are blob: URLs.
        imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        connectSrc: ["'self'", ...(routing ? [routing] : []), ...(cardProvider ? [cardProvider] : [])],
        workerSrc: ["'self'", 'blob:'],
      },
    },
    // The same rule for browsers that read only the older header.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // A map page opens no popups that need the opener, and tiles are images (no CORP needed from the tile server).
    crossOriginEmbedderPolicy: false,
    // HTTPS is the reverse proxy's business (TRUST_PROXY); a plain-HTTP install (npm start) must stay reachable.
    strictTransportSecurity: false,
  });

  // API answers are per caller and often personal: no browser or proxy cache keeps them.
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith('/api/') && request.url !== '/api') return;
    const current = reply.getHeader('cache-control');
    if (typeof current !== 'string' || !current.includes('no-store')) reply.header('cache-control', 'no-store');
  });
}

export default fp(securityHeaders, { name: 'security-headers' });
