import { pino, type Logger } from 'pino';

/**
 * What the server's logs may say about a request (issue 21 item 8, ADR 56). Links carry credentials in their paths
 * and query strings — monitor-link tokens (valid up to a year), tracking codes, e-mail confirmation tokens, the
 * Telegram link token, report file capabilities — and clients send Authorization/ApiKey headers. One serializer
 * writes a request as its method and a URL whose secret parts read `[redacted]`, for the server log and the access
 * log alike; pino's `redact` removes credential headers from anything else that is logged.
 */
export const REDACTED = '[redacted]';

/** Path parameters and query keys whose values are credentials, by name, in every route (present and future). */
const SECRET_NAME = /token|^cod$|code|key|secret|capab|^cap$|signature|^sig$|hash|password|senha|otp|nonce/i;
/** A path segment of an unknown route that looks like a credential: long, unbroken base64url (a UUID is an id). */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{20,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The parts of a request the redaction reads (a FastifyRequest, or a plain object in tests). */
export interface LoggedRequest {
  url: string;
  method?: string;
  routeOptions?: { url?: string | undefined };
}

function redactedQuery(query: string): string {
  if (!query) return '';
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      // a malformed escape: judged as written
    }
    return eq !== -1 && SECRET_NAME.test(key) ? `${rawKey}=${REDACTED}` : pair;
  });
  return `?${parts.join('&')}`;
}

/** The path with the values of secret parameters (by the route's pattern) or, off any route, token-like segments hidden. */
export function redactedPath(path: string, pattern: string | undefined): string {
  const segments = path.split('/');
  const names = pattern?.split('/');
  if (names && names.length === segments.length && !pattern!.includes('*')) {
    return segments.map((segment, i) => (names[i]!.startsWith(':') && SECRET_NAME.test(names[i]!.slice(1)) ? REDACTED : segment)).join('/');
  }
  return segments.map((segment) => (TOKEN_LIKE.test(segment) && !UUID.test(segment) ? REDACTED : segment)).join('/');
}

/** The request's URL as logs may show it. */
export function redactedUrl(request: LoggedRequest): string {
  const url = request.url ?? '';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return redactedPath(path, request.routeOptions?.url) + redactedQuery(q === -1 ? '' : url.slice(q + 1));
}

/** Pino's `req` serializer: what Fastify's default logs, with the URL redacted. */
export function serializeRequest(request: LoggedRequest & { ip?: string; host?: string; socket?: { remotePort?: number } }) {
  return { method: request.method, url: redactedUrl(request), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/** Credential headers wherever a logged object carries headers. */
const HEADER_PATHS = ['authorization', 'apikey', '"x-api-key"', 'cookie', '"set-cookie"', '"x-telegram-bot-api-secret-token"'].flatMap((h) => [
  `req.headers.${h}`,
  `res.headers.${h}`,
  `headers.${h}`,
  `*.headers.${h}`,
]);

/** The server's logger: level from settings, requests through `serializeRequest`, credential headers removed. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, serializers: { req: serializeRequest }, redact: { paths: HEADER_PATHS, censor: REDACTED } }, destination);
}
