import { sql } from 'kysely';
import type { Firmware } from '@sentinela/contract';
import type { Db } from '../../db/database';

const columns = ['id', 'version', 'notes', 'created_at', 'file_name', 'file_size', 'sha256'] as const;

type FirmwareRow = { id: string; version: string; notes: string; created_at: Date; file_name: string; file_size: number; sha256: string };

function toFirmware(row: FirmwareRow): Firmware {
  return {
    _id: row.id,
    version: row.version,
    notes: row.notes,
    created_at: row.created_at.toISOString(),
    file_name: row.file_name,
    file_size: Number(row.file_size),
    sha256: row.sha256,
  };
}

/** Newest first: by version, which only grows, so the first one is the current version. */
export async function listFirmwares(db: Db): Promise<Firmware[]> {
  const rows = await db.selectFrom('firmwares').select(columns).orderBy('version_number', 'desc').execute();
  return rows.map(toFirmware);
}

export async function findFirmwareFile(db: Db, id: string) {
  return db.selectFrom('firmwares').select(['version', 'file_name', 'file_path', 'file_size', 'sha256']).where('id', '=', id).executeTakeFirst();
}

export async function highestVersionNumber(db: Db): Promise<number | null> {
  const row = await db.selectFrom('firmwares').select((eb) => eb.fn.max('version_number').as('max')).executeTakeFirst();
  return row?.max === null || row?.max === undefined ? null : Number(row.max);
}

/**
 * Serialises adding versions: the "higher than the current version" check and the insert must see the same
 * current version, or two uploads (1.0.2 and 1.0.3 at once) could both pass and leave the lower one newest.
 * The lock is released at the end of the transaction; reads are not blocked.
 */
export async function lockFirmwareVersions(db: Db): Promise<void> {
  await sql`LOCK TABLE firmwares IN SHARE ROW EXCLUSIVE MODE`.execute(db);
}

export async function insertFirmware(
  db: Db,
  values: { version: string; versionNumber: number; notes: string; fileName: string; filePath: string; fileSize: number; sha256: string; createdBy: string; at: Date },
): Promise<Firmware> {
  const row = await db
    .insertInto('firmwares')
    .values({
      version: values.version,
      version_number: values.versionNumber,
      notes: values.notes,
      file_name: values.fileName,
      file_path: values.filePath,
      file_size: values.fileSize,
      sha256: values.sha256,
      created_by: values.createdBy,
      created_at: values.at,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toFirmware(row);
}
