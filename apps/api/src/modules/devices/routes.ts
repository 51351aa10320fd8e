import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientIdParam, Device, DeviceEventsResponse, DeviceList, UpdateDeviceBody, HistoricCountResponse, IdParam, MacParam, MSG, Profile, UpdateDeviceNameBody, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { clientMeta } from '../../lib/client-meta';
import { forbidden, notFound } from '../../lib/errors';
import type { AppServices } from '../../services';
import { isEnterpriseInScope } from '../enterprises/repository';
import { findUserInScope } from '../users/repository';
import { findDeviceInScope, listDevicesInScope } from './repository';

/**
 * The documents list devices through three calls chosen by the client from the caller's profile.
 * Whatever the call, the server answers only the caller's tenant scope.
 */
export const deviceRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const list = { schema: { response: { 200: DeviceList } }, config: { permission: 'devices:read' as const } };

  app.get('/api/beacon-device/allAdmin', list, async (request) => {
    const auth = requireAuth(request);
    if (auth.profileId !== Profile.SuperAdmin) throw forbidden();
    return listDevicesInScope(services.db, auth.scope);
  });

  app.get('/api/beacon-device/all', list, async (request) => listDevicesInScope(services.db, requireAuth(request).scope));

  app.get(
    '/api/devices-by-user/:userId',
    { ...list, schema: { ...list.schema, params: z.object({ userId: z.uuid(MSG.notFound) }) } },
    async (request) => {
      // Another user's devices only for those whose scope holds that user.
      const target = await findUserInScope(services.db, requireAuth(request).scope, request.params.userId);
      if (!target) throw notFound('Usuário não encontrado.');
      return listDevicesInScope(services.db, { kind: 'user', userId: target.id, enterpriseId: target.enterprise?._id ?? null });
    },
  );

  app.get(
    '/api/devices-by-client/:clientId',
    { schema: { params: ClientIdParam, response: { 200: DeviceList } }, config: { permission: 'client-devices:read' } },
    async (request) => {
      const { scope } = requireAuth(request);
      if (!(await isEnterpriseInScope(services.db, scope, request.params.clientId))) throw notFound('Empresa não encontrada.');
      return listDevicesInScope(services.db, scope, { enterpriseId: request.params.clientId });
    },
  );

  app.get(
    '/api/show-beacon-device/:id',
    { schema: { params: IdParam, response: { 200: Device } }, config: { permission: 'devices:read' } },
    async (request) => {
      const device = await findDeviceInScope(services.db, requireAuth(request).scope, request.params.id);
      if (!device) throw notFound('Dispositivo não encontrado.');
      return device;
    },
  );

  app.get(
    '/api/beacon-device/:mac/historic-count',
    { schema: { params: MacParam, response: { 200: HistoricCountResponse } }, config: { permission: 'devices:read' } },
    async (request) => ({ count: await services.devices.historicCount(requireAuth(request).scope, request.params.mac) }),
  );

  app.post(
    '/api/devices/update-name/:mac',
    { schema: { params: MacParam, body: UpdateDeviceNameBody, response: { 200: Device } }, config: { permission: 'devices:rename' } },
    async (request) => {
      const auth = requireAuth(request);
      return services.devices.rename(auth.scope, request.params.mac, request.body.name, { userId: auth.userId, meta: clientMeta(request) });
    },
  );

  app.get(
    '/api/beacon-device/:mac/logs',
    { schema: { params: MacParam, response: { 200: DeviceEventsResponse } }, config: { permission: 'devices:read' } },
    async (request) => ({ content: await services.devices.events(requireAuth(request).scope, request.params.mac) }),
  );

  app.put(
    '/api/devices/:id',
    { schema: { params: IdParam, body: UpdateDeviceBody, response: { 200: Device } }, config: { permission: 'devices:configure' } },
    async (request) => {
      const auth = requireAuth(request);
      return services.devices.configure(auth.scope, request.params.id, request.body, { userId: auth.userId, meta: clientMeta(request) });
    },
  );
};
