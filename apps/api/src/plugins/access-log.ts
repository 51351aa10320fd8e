import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_VERSION } from '@sentinela/contract';
import { clientMeta } from '../lib/client-meta';
import type { AppServices } from '../services';

/** Records every authenticated request (P4, M7) through the batching writer. */
async function accessLog(app: FastifyInstance, { services }: { services: AppServices }) {
  app.addHook('onResponse', async (request, reply) => {
    const auth = request.auth;
    if (!auth) return;
    const meta = clientMeta(request);
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? request.url;
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
      message: `${request.method} ${path} (${reply.statusCode})`,
    });
  });
  app.addHook('onClose', async () => services.accessLog.flush());
}

export default fp(accessLog, { name: 'access-log' });
