import type { FastifyRequest } from 'fastify';
import { REPORT_MESSAGES } from '@sentinela/contract';
import { badRequest } from './errors';
import { multipartError } from './form-upload';
import type { RateLimits } from './rate-limits/rate-limits';
import { userOrAddress, type RouteLimit } from '../plugins/rate-limits';

/** What an upload of one file is told (reports' Excel and validator, the beacon import), in the documents' words. */
export const UPLOAD_MESSAGES = {
  fileTooLarge: (mb: number) => `O arquivo deve ter no máximo ${mb} MB.`,
  notMultipart: 'Envie o arquivo como formulário (multipart/form-data) no campo "file".',
  tooManyUploads: 'Muitos envios de arquivos seguidos. Aguarde um minuto e tente novamente.',
} as const;
const M = UPLOAD_MESSAGES;

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * The one file of a multipart upload (the reports' and the beacon import's routes) (the documents send it in the field `file`). No file, or more than one, is a
 * 400 in Portuguese; a file above `maxBytes` a 413. Other fields are ignored.
 */
export async function readSingleFile(request: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
  if (!request.isMultipart()) throw badRequest(M.notMultipart);
  let file: UploadedFile | null = null;
  let files = 0;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 5, fields: 20, parts: 30 } })) {
      if (part.type !== 'file') continue;
      files += 1;
      if (files > 1) {
        part.file.resume(); // drain it: the answer is already decided
        continue;
      }
      file = { filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() };
    }
  } catch (error) {
    throw multipartError(error, { tooLarge: M.fileTooLarge(Math.round(maxBytes / (1024 * 1024))), oneFile: REPORT_MESSAGES.oneFile, notMultipart: M.notMultipart });
  }
  if (files > 1) throw badRequest(REPORT_MESSAGES.oneFile);
  if (!file || file.data.length === 0) throw badRequest(REPORT_MESSAGES.noFile);
  return file;
}

/**
 * File uploads per user and minute, shared by every upload route (ADR 13): each upload costs a reader thread or a
 * hash of megabytes, so one account must not keep them busy for everyone. Counted per signed-in user, whatever
 * address they come from; an anonymous caller (the public validator) per address. Checked before a byte of the body is
 * read (after the session was): a refusal also closes the connection, so the server never reads (to discard) the
 * megabytes that were on their way — refusing must cost less than accepting.
 */
export function uploadLimit(rateLimits: RateLimits, maxPerMinute: number): RouteLimit {
  const limit = rateLimits.limit({ name: 'uploads', points: maxPerMinute, windowSeconds: 60 });
  return { limit, key: userOrAddress, message: M.tooManyUploads, closeConnection: true };
}
