import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CALIBRATION_MESSAGES as M,
  Calibration,
  CalibrationDueList,
  CalibrationFields,
  CalibrationLimits,
  CalibrationList,
  IdParam,
  z,
} from '@sentinela/contract';
import { receiveFormWithFile, refuseDeclaredOversize } from '../../lib/form-upload';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';
import { bodyReadByHandler, fileResponse, multipartFileBody } from '../../openapi/route-schemas';
import { attachment } from '../../lib/download';

/** Largest text field of the form (the points' JSON at its longest is a few kilobytes). */
const FIELD_MAX_BYTES = 16 * 1024;
/** What a form may carry besides the certificate: its fields and the multipart boundaries and headers. */
const FORM_OVERHEAD_BYTES = 8 * FIELD_MAX_BYTES;

/** Calibration certificates per sensor (X12, ADR 0077): the device's enterprise admins and the super admin. */
export const calibrationRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const calibrations = services.calibrations;
  const manage = { permission: 'calibrations:manage' as const };
  // Multipart in this plugin only (encapsulated); the file's own limit is per request.
  await app.register(multipart, { limits: { fileSize: calibrations.maxBytes, files: 1 } });

  app.get('/api/calibrations/limits', { schema: { response: { 200: CalibrationLimits } }, config: manage }, async () => calibrations.limits());

  app.get('/api/calibrations/due', { schema: { response: { 200: CalibrationDueList } }, config: manage }, async (request) =>
    calibrations.due(requireAuth(request).scope),
  );

  app.get('/api/devices/:id/calibrations', { schema: { params: IdParam, response: { 200: CalibrationList } }, config: manage }, async (request) =>
    calibrations.list(requireAuth(request).scope, request.params.id),
  );

  app.post(
    '/api/devices/:id/calibrations',
    {
      schema: {
        params: IdParam,
        consumes: ['multipart/form-data'],
        body: multipartFileBody(
          {
            ...CalibrationFields.shape,
            points: z.string().optional().meta({ description: 'JSON: [{"quantity":"temperature","reference":-20,"measured":-19.8,"uncertainty":0.1}, …]' }),
          },
          'certificate',
        ),
        response: { 201: Calibration },
      },
      validatorCompiler: bodyReadByHandler,
      config: manage,
      onRequest: refuseDeclaredOversize(calibrations.maxBytes, FORM_OVERHEAD_BYTES, M.fileTooLarge),
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const deviceId = request.params.id;
      const form = await receiveFormWithFile(request, reply, {
        folder: calibrations.storage,
        fileField: 'certificate',
        maxBytes: calibrations.maxBytes,
        fieldMaxBytes: FIELD_MAX_BYTES,
        maxFields: 10,
        messages: { tooLarge: M.fileTooLarge, oneFile: M.oneFile, notMultipart: M.notMultipart, fieldTooLong: () => M.pointsFormat },
        beforeFile: (fields) => calibrations.checkBeforeFile(auth.scope, deviceId, fields),
      });
      return reply.status(201).send(await calibrations.add(auth.scope, deviceId, form, auth.userId));
    },
  );

  app.get(
    '/api/calibrations/:id/certificate',
    { schema: { params: IdParam, response: { 200: fileResponse('The certificate PDF, the bytes as uploaded (SHA-256 in x-content-sha256).', 'application/pdf') } }, config: manage },
    async (request, reply) => {
      const file = await calibrations.file(requireAuth(request).scope, request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', file.size)
        .header('content-disposition', attachment(file.filename))
        .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`)
        .header('x-content-sha256', file.sha256)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
};
