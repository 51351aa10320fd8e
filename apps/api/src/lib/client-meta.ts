import type { FastifyRequest } from 'fastify';
import { textProblem } from '@sentinela/contract';
import type { ClientMeta } from '../modules/auth/session-service';

const HEADER_MAX = 100;

/** A client header as stored (sessions, access log, device events): at most 100 characters, none a control one. */
function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  // Cut at a character boundary: half of a surrogate pair is not text.
  const cut = text.slice(0, HEADER_MAX).replace(/[\uD800-\uDBFF]$/, '');
  return textProblem(cut, name, { max: HEADER_MAX }) ? null : cut;
}

/** The client headers every request carries (P4): client, clientVersion, clientOs. */
export function clientMeta(request: FastifyRequest): ClientMeta {
  return {
    client: header(request, 'client'),
    clientVersion: header(request, 'clientVersion'),
    clientOs: header(request, 'clientOs'),
    ip: request.ip ?? null,
  };
}
