import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors';
import { FileFolder } from './file-folder';

/**
 * Forms with one file kept on disk (firmware images, calibration certificates): the file is streamed to a temporary
 * name in its folder, hashed and counted on the way, never past the limit, and moved to its final name only once
 * the record that points to it is accepted.
 */
export class UploadFolder extends FileFolder {
  /** A fresh temporary file for an upload in progress (same folder: the final move is a rename). */
  newTemporary(): { relative: string; stream: WriteStream } {
    const relative = `.upload-${randomBytes(8).toString('hex')}.part`;
    return { relative, stream: createWriteStream(this.absolute(relative), { flags: 'wx' }) };
  }

  /** Moves an accepted upload to its final name (relative to the folder) and answers that name. */
  async keepAs(temporary: string, relative: string): Promise<string> {
    await rename(this.absolute(temporary), this.absolute(relative));
    return relative;
  }

  /** The absolute path of a stored file (for a reader that takes a path). */
  pathOf(relative: string): string {
    return this.absolute(relative);
  }
}

export interface ReceivedFile {
  /** The name the client gave, as sent. */
  filename: string;
  /** The temporary file in the upload folder: removed by the caller unless kept. */
  temporary: string;
  size: number;
  sha256: string;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

export interface FormRules {
  folder: UploadFolder;
  /** The form field that carries the file; parts with another name are skipped. */
  fileField: string;
  maxBytes: number;
  /** Largest text field, in bytes. */
  fieldMaxBytes: number;
  /** Most text fields. */
  maxFields: number;
  messages: {
    tooLarge: (maxBytes: number) => string;
    oneFile: string;
    notMultipart: string;
    /** A text field over `fieldMaxBytes`, by its name. */
    fieldTooLong: (field: string) => string;
  };
  /** Fields that arrived before the file: may refuse the form before a byte of the file is stored. */
  beforeFile?: (fields: Record<string, string>) => Promise<void>;
}

export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);

/**
 * Multipart errors of @fastify/multipart and busboy, by code, in the product's words (every upload route): a file over
 * the limit is a 413, a second file or a malformed body (no boundary, cut short) the client's 400.
 */
export function multipartError(error: unknown, messages: { tooLarge: string; oneFile: string; notMultipart: string }): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return payloadTooLarge(messages.tooLarge);
  if (code === 'FST_FILES_LIMIT') return badRequest(messages.oneFile);
  return badRequest(messages.notMultipart);
}

/**
 * Reads a form as it arrives: text fields into `fields`, the file straight to a temporary file in the folder, never
 * past `maxBytes` (busboy stops counting it at the limit: one byte more is a 413, and the rest of the body is not
 * read). A refusal removes what was written.
 */
export async function readFormWithFile(request: FastifyRequest, rules: FormRules): Promise<ReceivedForm> {
  if (!request.isMultipart()) throw badRequest(rules.messages.notMultipart);
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  let temporary: string | null = null;
  try {
    const parts = request.parts({
      limits: { fileSize: rules.maxBytes, files: 1, fields: rules.maxFields, parts: rules.maxFields + 1, fieldSize: rules.fieldMaxBytes },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(rules.messages.fieldTooLong(part.fieldname));
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== rules.fileField) {
        part.file.resume();
        continue;
      }
      await rules.beforeFile?.(fields);
      await rules.folder.init();
      const target = rules.folder.newTemporary();
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
      if (part.file.truncated || size > rules.maxBytes) throw payloadTooLarge(rules.messages.tooLarge(rules.maxBytes));
      file = { filename: part.filename, temporary: target.relative, size, sha256: hash.digest('hex') };
    }
  } catch (error) {
    if (temporary) await rules.folder.remove(temporary);
    throw multipartError(error, { ...rules.messages, tooLarge: rules.messages.tooLarge(rules.maxBytes) });
  }
  return { fields, file };
}

/**
 * A route's `onRequest` hook (after the session and profile checks, which are global and run first; before a byte of
 * the body is read): a body declared larger than the file's limit plus what the form's fields and boundaries may take
 * cannot hold an acceptable form. It is refused and its connection closed, so it is never received.
 */
export function refuseDeclaredOversize(maxBytes: number, overheadBytes: number, tooLarge: (maxBytes: number) => string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes + overheadBytes) {
      reply.header('connection', 'close');
      throw payloadTooLarge(tooLarge(maxBytes));
    }
  };
}

/**
 * `readFormWithFile` for a route handler. A file over the limit: the rest of it is not read, the connection is closed
 * instead. Other refusals (known from the fields, before the file) let the client finish sending, within the limit
 * the declared length was checked against, so that a browser reads the answer rather than a broken connection.
 */
export async function receiveFormWithFile(request: FastifyRequest, reply: FastifyReply, rules: FormRules): Promise<ReceivedForm> {
  try {
    return await readFormWithFile(request, rules);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 413) reply.header('connection', 'close');
    throw error;
  }
}
