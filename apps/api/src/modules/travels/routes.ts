import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateTravelBody,
  EditTravelDeviceBody,
  IdParam,
  LocalizatorParam,
  MacParam,
  Travel,
  TravelListQuery,
  TravelListResponse,
  TravelLocation,
  TravelReading,
  TravelStatusBody,
  TrackingLinkBody,
  UpdateTravelBody,
  z,
} from '@sentinela/contract';
import { clientMeta } from '../../lib/client-meta';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';
import { TRAVEL_MESSAGES } from './messages';
import type { TravelActor } from './service';

function actor(request: FastifyRequest): TravelActor {
  const auth = requireAuth(request);
  return { userId: auth.userId, profileId: auth.profileId, enterpriseId: auth.enterpriseId, scope: auth.scope, meta: clientMeta(request) };
}

/** Travels (spec 001 §7 and T8): paths and field names of the documents; answers within the caller's scope. */
export const travelRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const travels = services.travels;
  const read = { permission: 'travels:read' as const };
  const manage = { permission: 'travels:manage' as const };

  app.get(
    '/api/travels',
    { schema: { querystring: TravelListQuery, response: { 200: TravelListResponse } }, config: read },
    async (request) => ({ data: await travels.list(requireAuth(request).scope, request.query) }),
  );

  app.get(
    '/api/travels/:id',
    { schema: { params: IdParam, response: { 200: Travel } }, config: read },
    async (request) => travels.get(requireAuth(request).scope, request.params.id),
  );

  app.get(
    '/api/travels/:id/devices/:mac/history',
    { schema: { params: z.object({ ...IdParam.shape, ...MacParam.shape }), response: { 200: z.array(TravelReading) } }, config: read },
    async (request) => travels.deviceHistory(requireAuth(request).scope, request.params.id, request.params.mac),
  );

  app.get(
    '/api/travels/:id/locations',
    { schema: { params: IdParam, response: { 200: z.array(TravelLocation) } }, config: read },
    async (request) => travels.locations(requireAuth(request).scope, request.params.id),
  );

  // Per address, found or not: a code grants the public view, so it must not be guessed by brute force. One budget
  // for every route that takes a code (the lookup, its readings and reports): each is a guess.
  const byCode = {
    permission: 'public-or-signed-in' as const,
    limits: [{ limit: services.rateLimits.limit({ name: 'localizator-http', points: services.config.localizatorMaxPerMinute, windowSeconds: 60 }), message: TRAVEL_MESSAGES.tooManyLookups }],
  };

  app.get(
    '/api/travels/localizator/:cod',
    { schema: { params: LocalizatorParam, response: { 200: Travel } }, config: byCode },
    async (request) => travels.localizator(request.params.cod, request.auth?.scope ?? null),
  );

  // A card's readings for the holder of a code that shows them (ADR 72): the graphs and Registros of /localizator.
  app.get(
    '/api/travels/localizator/:cod/devices/:mac/history',
    { schema: { params: z.object({ ...LocalizatorParam.shape, ...MacParam.shape }), response: { 200: z.array(TravelReading) } }, config: byCode },
    async (request) => travels.deviceHistoryByCode(request.params.cod, request.auth?.scope ?? null, request.params.mac),
  );

  app.post(
    '/api/travels',
    { schema: { body: CreateTravelBody, response: { 201: Travel } }, config: manage },
    async (request, reply) => reply.status(201).send(await travels.create(actor(request), request.body)),
  );

  app.put(
    '/api/travels/edit-travel-device',
    { schema: { body: EditTravelDeviceBody, response: { 200: Travel } }, config: manage },
    async (request) => travels.editDevice(actor(request), request.body),
  );

  app.put(
    '/api/travels/:id',
    { schema: { params: IdParam, body: UpdateTravelBody, response: { 200: Travel } }, config: manage },
    async (request) => travels.update(actor(request), request.params.id, request.body),
  );

  app.post(
    '/api/travels/:id/status',
    { schema: { params: IdParam, body: TravelStatusBody, response: { 200: Travel } }, config: manage },
    async (request) => travels.changeStatus(actor(request), request.params.id, request.body.status),
  );

  // The tracking link (ADR 36): scope and expiry, revocation, a new code. Each answers the Travel (full view).
  app.put(
    '/api/travels/:id/tracking-link',
    { schema: { params: IdParam, body: TrackingLinkBody, response: { 200: Travel } }, config: manage },
    async (request) => travels.setTrackingLink(actor(request), request.params.id, request.body),
  );

  app.post(
    '/api/travels/:id/tracking-link/revoke',
    { schema: { params: IdParam, response: { 200: Travel } }, config: manage },
    async (request) => travels.revokeTrackingLink(actor(request), request.params.id),
  );

  app.post(
    '/api/travels/:id/tracking-link/regenerate',
    { schema: { params: IdParam, response: { 200: Travel } }, config: manage },
    async (request) => travels.regenerateTrackingLink(actor(request), request.params.id),
  );
};
