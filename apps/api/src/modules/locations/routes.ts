import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateDeviceGroupBody,
  DeviceGroup,
  DeviceGroupList,
  GeocodeQuery,
  GeocodeResultList,
  GeocoderStatus,
  IdParam,
  Location,
  LocationBody,
  LocationIdParam,
  LocationList,
  OkResponse,
  PlacedDeviceList,
  RemovalReasonBody,
  RenameDeviceGroupBody,
  UpdateLocationBody,
} from '@sentinela/contract';
import { clientMeta } from '../../lib/client-meta';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Locais (A8): locations, their device groups, the devices to place, and the address search. */
export const locationRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { locations, geocoder } = services;

  app.get(
    '/api/locations',
    { schema: { response: { 200: LocationList } }, config: { permission: 'locations:read' } },
    async (request) => locations.list(requireAuth(request).scope),
  );

  app.get(
    '/api/locations/devices',
    { schema: { response: { 200: PlacedDeviceList } }, config: { permission: 'locations:read' } },
    async (request) => locations.devices(requireAuth(request).scope),
  );

  app.post(
    '/api/locations',
    { schema: { body: LocationBody, response: { 201: Location } }, config: { permission: 'locations:manage' } },
    async (request, reply) => reply.status(201).send(await locations.create(requireAuth(request).scope, request.body)),
  );

  app.put(
    '/api/locations/:id',
    { schema: { params: IdParam, body: UpdateLocationBody, response: { 200: Location } }, config: { permission: 'locations:manage' } },
    async (request) => locations.update(requireAuth(request).scope, request.params.id, request.body),
  );

  app.delete(
    '/api/locations/:id',
    // A reason (GxP mode, ADR 0063) when the location holds devices: removing it unlinks them.
    { schema: { params: IdParam, body: RemovalReasonBody, response: { 200: OkResponse } }, config: { permission: 'locations:manage' } },
    async (request) => {
      const auth = requireAuth(request);
      await locations.remove(auth.scope, request.params.id, { userId: auth.userId, meta: clientMeta(request) });
      return { success: true as const };
    },
  );

  app.get(
    '/api/devices-groups/by-location/:locationId',
    { schema: { params: LocationIdParam, response: { 200: DeviceGroupList } }, config: { permission: 'locations:read' } },
    async (request) => locations.groups(requireAuth(request).scope, request.params.locationId),
  );

  app.post(
    '/api/devices-groups',
    { schema: { body: CreateDeviceGroupBody, response: { 201: DeviceGroup } }, config: { permission: 'locations:manage' } },
    async (request, reply) =>
      reply.status(201).send(await locations.createGroup(requireAuth(request).scope, request.body.location_id, request.body.name)),
  );

  app.put(
    '/api/devices-groups/:id',
    { schema: { params: IdParam, body: RenameDeviceGroupBody, response: { 200: DeviceGroup } }, config: { permission: 'locations:manage' } },
    async (request) => locations.renameGroup(requireAuth(request).scope, request.params.id, request.body.name),
  );

  app.delete(
    '/api/devices-groups/:id',
    { schema: { params: IdParam, body: RemovalReasonBody, response: { 200: OkResponse } }, config: { permission: 'locations:manage' } },
    async (request) => {
      await locations.removeGroup(requireAuth(request).scope, request.params.id);
      return { success: true as const };
    },
  );

  app.get(
    '/api/geocoder',
    { schema: { response: { 200: GeocoderStatus } }, config: { permission: 'locations:manage' } },
    async () => ({ enabled: geocoder.enabled }),
  );

  app.get(
    '/api/geocoder/search',
    { schema: { querystring: GeocodeQuery, response: { 200: GeocodeResultList } }, config: { permission: 'locations:manage' } },
    async (request) => geocoder.search(requireAuth(request).userId, request.query.q),
  );
};
