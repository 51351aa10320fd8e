import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LinkDevicesResult, LinkDevicesToClientBody, LinkDevicesToUserBody } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { clientMeta } from '../../lib/client-meta';
import type { AppServices } from '../../services';

/** M6, spec 001 §7: the two link calls of /add-beacons. */
export const deviceLinkRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  // Devices into an enterprise: the super admin's (who registers them).
  app.post(
    '/api/devices/link/client',
    { schema: { body: LinkDevicesToClientBody, response: { 200: LinkDevicesResult } }, config: { permission: 'enterprises:manage' } },
    async (request) => {
      const auth = requireAuth(request);
      return services.deviceLinks.linkToClient(request.body, { userId: auth.userId, scope: auth.scope, meta: clientMeta(request) });
    },
  );

  // An enterprise's devices to its users: its admin's (and the super admin's), within the caller's scope.
  app.post(
    '/api/devices/link/user',
    { schema: { body: LinkDevicesToUserBody, response: { 200: LinkDevicesResult } }, config: { permission: 'devices:link' } },
    async (request) => {
      const auth = requireAuth(request);
      return services.deviceLinks.linkToUser(request.body, { userId: auth.userId, scope: auth.scope, meta: clientMeta(request), auth });
    },
  );
};
