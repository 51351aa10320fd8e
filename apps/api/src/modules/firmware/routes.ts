import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FIRMWARE_MESSAGES, Firmware, FirmwareLimits, FirmwareList, FirmwareVersion, IdParam, z } from '@sentinela/contract';
import { attachment } from '../../lib/download';
import { refuseDeclaredOversize } from '../../lib/form-upload';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';
import { bodyReadByHandler, fileResponse, multipartFileBody } from '../../openapi/route-schemas';
import { FORM_OVERHEAD_BYTES, readFirmwareForm } from './upload';

/** Firmware versions (M1, spec 001 §7): super admin only. */
export const firmwareRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const firmware = services.firmware;
  const manage = { permission: 'firmware:manage' as const };
  // Multipart in this plugin only (encapsulated), sized for the form's fields; the file's own limit is per request.
  await app.register(multipart, { limits: { fileSize: firmware.maxBytes, files: 1 } });

  app.get('/api/firmwares', { schema: { response: { 200: FirmwareList } }, config: manage }, async () => firmware.list());

  app.get('/api/firmwares/limits', { schema: { response: { 200: FirmwareLimits } }, config: manage }, async () => firmware.limits());

  app.post(
    '/api/firmwares',
    {
      schema: {
        consumes: ['multipart/form-data'],
        // The fields come before the file: the version is checked before a byte of the file is stored.
        body: multipartFileBody({ version: FirmwareVersion, notes: z.string().meta({ description: 'Notas da versão (HTML).' }).optional() }),
        response: { 201: Firmware },
      },
      validatorCompiler: bodyReadByHandler,
      config: manage,
      onRequest: refuseDeclaredOversize(firmware.maxBytes, FORM_OVERHEAD_BYTES, FIRMWARE_MESSAGES.fileTooLarge),
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const form = await readFirmwareForm(request, reply, firmware.storage, firmware.maxBytes, (fields) => firmware.checkBeforeFile(fields));
      return reply.status(201).send(await firmware.add(form, auth.userId));
    },
  );

  app.get(
    '/api/firmwares/:id/download',
    { schema: { params: IdParam, response: { 200: fileResponse('The firmware file (its SHA-256 in x-content-sha256).', 'application/octet-stream') } }, config: manage },
    async (request, reply) => {
      const file = await firmware.file(request.params.id);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', file.size)
        .header('content-disposition', attachment(file.filename))
        // RFC 9530: the digest of the file, for clients that check it themselves.
        .header('repr-digest', `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`)
        .header('x-content-sha256', file.sha256)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
};
