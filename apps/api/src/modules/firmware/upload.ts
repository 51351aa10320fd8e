import type { FastifyReply, FastifyRequest } from 'fastify';
import { FIRMWARE_MESSAGES as M, FIRMWARE_NOTES_MAX_CHARS } from '@sentinela/contract';
import { receiveFormWithFile, type ReceivedForm } from '../../lib/form-upload';
import type { FirmwareStorage } from './storage';

/** Bytes the notes field may take (UTF-8: up to 4 bytes a character). */
export const NOTES_MAX_BYTES = FIRMWARE_NOTES_MAX_CHARS * 4;
/**
 * What a form may carry besides the file: the notes, the version and the multipart boundaries and headers. A request
 * whose declared length passes the file's limit plus this cannot hold an acceptable file and is refused unread.
 */
export const FORM_OVERHEAD_BYTES = NOTES_MAX_BYTES + 16 * 1024;

export type ReceivedFirmwareForm = ReceivedForm;

/**
 * Reads the add-version form (version, notes, file) as it arrives (lib/form-upload). Fields that arrive before the
 * file are handed to `beforeFile`, which may refuse the form (a version that is not higher) before a byte of the file
 * is stored.
 */
export function readFirmwareForm(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FirmwareStorage,
  maxBytes: number,
  beforeFile: (fields: Record<string, string>) => Promise<void>,
): Promise<ReceivedFirmwareForm> {
  return receiveFormWithFile(request, reply, {
    folder: storage,
    fileField: 'file',
    maxBytes,
    fieldMaxBytes: NOTES_MAX_BYTES,
    maxFields: 10,
    messages: {
      tooLarge: M.fileTooLarge,
      oneFile: M.oneFile,
      notMultipart: M.notMultipart,
      fieldTooLong: (field) => (field === 'notes' ? M.notesTooLong : M.notMultipart),
    },
    beforeFile,
  });
}
