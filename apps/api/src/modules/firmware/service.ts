import path from 'node:path';
import type { ReadStream } from 'node:fs';
import {
  FIRMWARE_MESSAGES as M,
  FIRMWARE_NOTES_MAX_CHARS,
  FirmwareVersion,
  firmwareVersionNumber,
  textProblem,
  type Firmware,
  type FirmwareLimits,
} from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, gone, notFound } from '../../lib/errors';
import { notesAreEmpty, sanitizeNotes } from './notes-sanitizer';
import { findFirmwareFile, highestVersionNumber, insertFirmware, listFirmwares, lockFirmwareVersions } from './repository';
import type { FirmwareStorage } from './storage';
import type { ReceivedFirmwareForm } from './upload';

export interface FirmwareFile {
  stream: ReadStream;
  size: number;
  filename: string;
  sha256: string;
}

const FILE_NAME_MAX = 120;

/** The client's file name, reduced to something safe to store and to offer back: its last segment, plain text. */
function cleanFileName(name: string | undefined, version: string): string {
  const base = path.posix.basename((name ?? '').replace(/\\/g, '/')).normalize('NFC').trim();
  const fallback = `firmware-${version}.bin`;
  if (!base || base === '.' || base === '..' || textProblem(base, 'O nome', { max: FILE_NAME_MAX })) return fallback;
  return base;
}

function parseVersion(value: string | undefined): { version: string; number: number } {
  const parsed = FirmwareVersion.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? M.versionFormat);
  const number = firmwareVersionNumber(parsed.data);
  if (number === null) throw badRequest(M.versionFormat);
  return { version: parsed.data, number };
}

const notHigher = () => conflict(M.versionNotHigher);

/**
 * Firmware versions (M1): the list, the upload of a new version and its file's download. A version is accepted only
 * above the current one, compared part by part, and the check holds against concurrent uploads (ADR 19).
 */
export class FirmwareService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly storage: FirmwareStorage,
    readonly maxBytes: number,
  ) {}

  list(): Promise<Firmware[]> {
    return listFirmwares(this.db);
  }

  limits(): FirmwareLimits {
    return { max_bytes: this.maxBytes };
  }

  /**
   * The checks that need no file, run as soon as the form's fields have arrived: a malformed or not higher version
   * is refused before its file is stored. The decisive check is `add`'s, under the lock.
   */
  async checkBeforeFile(fields: Record<string, string>): Promise<void> {
    if (fields.version === undefined) return;
    const { number } = parseVersion(fields.version);
    const current = await highestVersionNumber(this.db);
    if (current !== null && number <= current) throw notHigher();
  }

  /** Adds the version of a received form; its temporary file is kept under the version or removed, never left. */
  async add(form: ReceivedFirmwareForm, userId: string): Promise<Firmware> {
    const temporary = form.file?.temporary ?? null;
    let kept: string | null = null;
    try {
      const { version, number } = parseVersion(form.fields.version);
      const rawNotes = form.fields.notes ?? '';
      if (rawNotes.length > FIRMWARE_NOTES_MAX_CHARS) throw badRequest(M.notesTooLong);
      const notes = notesAreEmpty(rawNotes) ? '' : sanitizeNotes(rawNotes);
      const notesProblem = textProblem(notes, 'As notas', { max: FIRMWARE_NOTES_MAX_CHARS, multiline: true });
      if (notesProblem) throw badRequest(notesProblem);
      const file = form.file;
      if (!file) throw badRequest(M.fileRequired);
      if (file.size === 0) throw badRequest(M.fileEmpty);

      return await this.db.transaction().execute(async (trx) => {
        await lockFirmwareVersions(trx);
        const current = await highestVersionNumber(trx);
        if (current !== null && number <= current) throw notHigher();
        kept = await this.storage.keep(file.temporary, version);
        return insertFirmware(trx, {
          version,
          versionNumber: number,
          notes,
          fileName: cleanFileName(file.filename, version),
          filePath: kept,
          fileSize: file.size,
          sha256: file.sha256,
          createdBy: userId,
          at: this.clock.now(),
        });
      });
    } catch (error) {
      // Whatever refused the version, its file goes: the folder holds only files of recorded versions.
      if (kept) await this.storage.remove(kept);
      else if (temporary) await this.storage.remove(temporary);
      if (isUniqueViolation(error, 'firmwares_version_key') || isUniqueViolation(error, 'firmwares_version_number_idx')) throw notHigher();
      throw error;
    }
  }

  async file(id: string): Promise<FirmwareFile> {
    const row = await findFirmwareFile(this.db, id);
    if (!row) throw notFound(M.notFound);
    const size = await this.storage.size(row.file_path);
    if (size === null) throw gone(M.fileMissing);
    return { stream: this.storage.open(row.file_path), size, filename: row.file_name, sha256: row.sha256 };
  }
}
