import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BeaconImportResult, Device, DiscoveredDevice, RegisterBeaconBody, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { clientMeta } from '../../lib/client-meta';
import type { AppServices } from '../../services';
import { bodyReadByHandler, fileResponse, multipartFileBody } from '../../openapi/route-schemas';
import { readSingleFile, uploadLimit } from '../../lib/single-file-upload';
import { CONTENT_TYPES } from '../reports/view';
import { attachment } from '../../lib/download';

const XLSX = CONTENT_TYPES.xlsx;

/** X1: the super admin registers beacons by hand, from a spreadsheet, or from the MACs gateways discovered. */
export const beaconRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const register = { permission: 'devices:register' as const };
  // Multipart only inside this plugin, with the same per-user upload limit as the report uploads (ADR 13).
  await app.register(multipart, { limits: { fileSize: services.config.reportExcelMaxBytes, files: 5 } });
  const uploads = uploadLimit(services.rateLimits, services.config.reportUploadMaxPerMinute);

  app.post(
    '/api/beacon-device',
    { schema: { body: RegisterBeaconBody, response: { 201: Device } }, config: register },
    async (request, reply) => {
      const auth = requireAuth(request);
      return reply.status(201).send(await services.beacons.register(request.body, { userId: auth.userId, meta: clientMeta(request) }));
    },
  );

  app.post(
    '/api/beacon-device/import',
    {
      schema: { consumes: ['multipart/form-data'], body: multipartFileBody(), response: { 200: BeaconImportResult } },
      validatorCompiler: bodyReadByHandler,
      config: { ...register, limits: [uploads] },
    },
    async (request) => {
      const auth = requireAuth(request);
      const file = await readSingleFile(request, services.config.reportExcelMaxBytes);
      return services.beacons.import(file.data, { userId: auth.userId, meta: clientMeta(request) });
    },
  );

  app.get('/api/beacon-device/import-template', { schema: { response: { 200: fileResponse('The spreadsheet template.', XLSX) } }, config: register }, async (_request, reply) =>
    reply
      .header('content-type', XLSX)
      .header('content-disposition', attachment('modelo-dispositivos.xlsx'))
      .send(await services.beacons.template()),
  );

  app.get(
    '/api/beacon-device/discovered',
    { schema: { response: { 200: z.array(DiscoveredDevice) } }, config: register },
    async () => services.beacons.discovered(),
  );
};
