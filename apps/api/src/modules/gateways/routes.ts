import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreatedGateway,
  CreateGatewayBody,
  Gateway,
  GATEWAY_MQTT_TOPIC,
  RUUVI_MQTT_TOPIC,
  GatewayConnection,
  GatewayList,
  IdParam,
  OkResponse,
  RenameGatewayBody,
} from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Gateway keys: an enterprise admin manages its enterprise's gateways, the super admin all of them. */
export const gatewayRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/gateways',
    { schema: { response: { 200: GatewayList } }, config: { permission: 'gateways:manage' } },
    async (request) => services.gateways.list(requireAuth(request).scope),
  );

  // Where gateways send readings, as this server is configured: the address users reach (PUBLIC_URL) and the
  // embedded broker's ports as it listens. Readings through an external broker belong to MQTT_GATEWAY_KEY, so
  // no key made here works there: MQTT is then left out of the instructions.
  app.get(
    '/api/gateways/connection',
    { schema: { response: { 200: GatewayConnection } }, config: { permission: 'gateways:manage' } },
    async () => {
      const { config } = services;
      const embedded = app.mqtt && app.mqtt.kind === 'embedded' ? app.mqtt : null;
      return {
        http: { url: `${config.publicUrl}/api/ingest/readings` },
        ruuvi: { http_url: `${config.publicUrl}/api/ingest/ruuvi`, mqtt_topic: embedded ? RUUVI_MQTT_TOPIC : null },
        mqtt: embedded
          ? {
              host: new URL(config.publicUrl).hostname,
              port: embedded.port ?? (config.mqttPort || null),
              tls_port: config.mqttTls ? (embedded.tlsPort ?? (config.mqttTls.port || null)) : null,
              topic: GATEWAY_MQTT_TOPIC,
            }
          : null,
      };
    },
  );

  app.post(
    '/api/gateways',
    { schema: { body: CreateGatewayBody, response: { 201: CreatedGateway } }, config: { permission: 'gateways:manage' } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const created = await services.gateways.create(auth.scope, request.body, auth.userId);
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/api/gateways/:id',
    { schema: { params: IdParam, body: RenameGatewayBody, response: { 200: Gateway } }, config: { permission: 'gateways:manage' } },
    async (request) => services.gateways.rename(requireAuth(request).scope, request.params.id, request.body),
  );

  app.delete(
    '/api/gateways/:id',
    { schema: { params: IdParam, response: { 200: OkResponse } }, config: { permission: 'gateways:manage' } },
    async (request) => {
      await services.gateways.revoke(requireAuth(request).scope, request.params.id);
      return { success: true as const };
    },
  );
};
