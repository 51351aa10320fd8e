import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { textProblem } from '@sentinela/contract';
import { currentAuditContext, runWithAuditContext, type AuditClient } from '../lib/audit-context';
import { clientMeta } from '../lib/client-meta';

const USER_AGENT_MAX = 300;

function auditClient(request: FastifyRequest): AuditClient {
  const meta = clientMeta(request);
  const agent = request.headers['user-agent'];
  return {
    address: meta.ip,
    client: meta.client,
    clientVersion: meta.clientVersion,
    clientOs: meta.clientOs,
    // Kept only when it is plain text (no control characters): it is stored and shown.
    userAgent: typeof agent === 'string' && !textProblem(agent.slice(0, USER_AGENT_MAX), 'user-agent', { max: USER_AGENT_MAX }) ? agent.slice(0, USER_AGENT_MAX) || null : null,
  };
}

/**
 * Every request runs inside its own audit context (lib/audit-context.ts, ADR 0060) from its first hook on: an anonymous
 * actor with the client's address and headers, named by the auth plugin once the caller is authenticated. A callback
 * hook around `done`, so the hooks and the handler that follow run inside the context.
 */
async function auditContext(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    runWithAuditContext({ actor: { type: 'anonymous', id: null, name: 'anônimo' }, client: auditClient(request), reason: null }, done);
  });
  // A reason for change travels in the body of the request that makes the change (`reason`, validated by the route's
  // schema: 3–500 characters); every entry the request writes carries it (GxP mode, ADR 0061).
  app.addHook('preHandler', (request, _reply, done) => {
    const reason = (request.body as { reason?: unknown } | undefined)?.reason;
    const context = currentAuditContext();
    if (context && typeof reason === 'string' && reason.trim() !== '') context.reason = reason.trim();
    done();
  });
}

export default fp(auditContext, { name: 'audit-context' });
