import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { FIRMWARE_MESSAGES as M, FIRMWARE_NOTES_MAX_CHARS } from '@sentinela/contract';
import { AppError, badRequest } from '../../lib/errors';
import type { FirmwareStorage } from './storage';

/** Bytes the notes field may take (UTF-8: up to 4 bytes a character). */
export const NOTES_MAX_BYTES = FIRMWARE_NOTES_MAX_CHARS * 4;
/**
 * What a form may carry besides the file: the notes, the version and the multipart boundaries and headers. A request
 * whose declared length passes the file's limit plus this cannot hold an acceptable file and is refused unread.
 */
export const FORM_OVERHEAD_BYTES = NOTES_MAX_BYTES + 16 * 1024;

export interface ReceivedFirmwareFile {
  /** The name the client gave, as sent. */
  filename: string;
  /** The temporary file in the storage folder: removed by the caller unless kept. */
  temporary: string;
  size: number;
  sha256: string;
}

export interface ReceivedFirmwareForm {
  fields: Record<string, string>;
  file: ReceivedFirmwareFile | null;
}

export const tooLarge = (maxBytes: number) => new AppError('PAYLOAD_TOO_LARGE', M.fileTooLarge(maxBytes));

/** Multipart errors of @fastify/multipart and busboy, by code, in the product's words. */
function formError(error: unknown, maxBytes: number): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return badRequest(M.oneFile);
  return badRequest(M.notMultipart);
}

/**
 * Reads the add-version form (version, notes, file) as it arrives: the file goes straight to a temporary file in
 * the storage folder, hashed on the way, and never past `maxBytes` (busboy stops counting it at the limit: one
 * byte more is a 413, and the rest of the body is not read). Fields that arrive before the file are handed to
 * `beforeFile`, which may refuse the form (a version that is not higher) before a byte of the file is stored.
 */
export async function readFirmwareForm(
  request: FastifyRequest,
  storage: FirmwareStorage,
  maxBytes: number,
  beforeFile: (fields: Record<string, string>) => Promise<void>,
): Promise<ReceivedFirmwareForm> {
  if (!request.isMultipart()) throw badRequest(M.notMultipart);
  const fields: Record<string, string> = {};
  let file: ReceivedFirmwareFile | null = null;
  let temporary: string | null = null;
  try {
    const parts = request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11, fieldSize: NOTES_MAX_BYTES } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(part.fieldname === 'notes' ? M.notesTooLong : M.notMultipart);
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      await beforeFile(fields);
      await storage.init();
      const target = storage.newTemporary();
      temporary = target.relative;
      const hash = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(part.file, measure, target.stream);
      // busboy ends a file at the limit and marks it truncated: the file was larger than allowed.
      if (part.file.truncated || size > maxBytes) throw tooLarge(maxBytes);
      file = { filename: part.filename, temporary: target.relative, size, sha256: hash.digest('hex') };
    }
  } catch (error) {
    if (temporary) await storage.remove(temporary);
    throw formError(error, maxBytes);
  }
  return { fields, file };
}
