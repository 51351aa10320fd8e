import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_VERSION } from '@sentinela/contract';
import { clientMeta } from '../lib/client-meta';
import { describeAccess } from '../modules/access-log/actions';
import { redactedPath } from '../lib/log-redaction';
import type { AppServices } from '../services';

/**
 * Records every authenticated request (P4, M7) through the batching writer. A request made with an API token is
 * logged under the administrator who created it, as the token: its id, and its name in the message (ADR 64).
 */
async function accessLog(app: FastifyInstance, { services }: { services: AppServices }) {
  app.addHook('onResponse', async (request, reply) => {
    const auth = request.auth;
    if (!auth) return;
    const meta = clientMeta(request);
    const route = request.routeOptions.url;
    // The route's pattern (`/api/monitor/:token`): never a parameter's value; off any route, the path redacted.
    const path = route ?? redactedPath(request.url.split('?')[0] ?? '', undefined);
    services.accessLog.record({
      created_at: services.clock.now(),
      user_id: auth.userId,
      enterprise_id: auth.enterpriseId,
      client: meta.client,
      client_version: meta.clientVersion,
      client_os: meta.clientOs,
      ip: meta.ip,
      api_version: API_VERSION,
      method: request.method,
      path,
      status_code: reply.statusCode,
      api_token_id: auth.apiToken?.id ?? null,
      // What the call did, in pt-BR, for whoever reads the log (M7); method, path and status stay in their columns.
      // A token's call says which token made it (ADR 64).
      message: `${describeAccess(request.method, route, reply.statusCode)}${auth.apiToken ? ` — pelo token de API «${auth.apiToken.name}»` : ''}`,
    });
  });
  app.addHook('onClose', async () => {
    await services.accessLog.flush();
    await services.apiTokens.flushUsage();
  });
}

export default fp(accessLog, { name: 'access-log' });
