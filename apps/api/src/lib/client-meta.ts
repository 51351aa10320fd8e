import type { FastifyRequest } from 'fastify';
import type { ClientMeta } from '../modules/auth/session-service';

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, 100) : null;
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
