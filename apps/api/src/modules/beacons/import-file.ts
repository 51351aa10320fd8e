import { BEACON_MESSAGES as B } from '@sentinela/contract';
import { AppError, badRequest } from '../../lib/errors';
import type { SpreadsheetReaderPool } from '../reports/excel-upload/reader-pool';
import type { SheetLine, SheetLines } from '../reports/excel-upload/sheet-reader';
import { readZipDirectory } from '../reports/excel-upload/zip-directory';

/** Most beacon rows one upload may carry. */
export const BEACON_IMPORT_MAX_ROWS = 1000;
/** The template's sheet, read first when present (else the workbook's first sheet). */
export const BEACON_IMPORT_SHEET = 'Dispositivos';

export interface ImportLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

const ZIP_SIGNATURE = 0x04034b50;
const tooHeavy = () => new AppError('PAYLOAD_TOO_LARGE', `A planilha é grande demais para ser lida. Envie só a aba "${BEACON_IMPORT_SHEET}", com no máximo ${BEACON_IMPORT_MAX_ROWS} linhas.`);

/**
 * The filled rows of an uploaded beacon list, below its header: an .xlsx (told by its zip signature) is read by the
 * report upload's bounded reader (directory checked before inflating, inflated bytes and rows capped while
 * streaming: ADR 13); anything else must be CSV text, read by the same reader threads (issue 21: a 5 MB file is the
 * sender's CPU, never the event loop's). The upload's size was capped before this.
 */
export async function readImportFile(data: Buffer, reader: SpreadsheetReaderPool, limits: ImportLimits): Promise<SheetLine[]> {
  let read: SheetLines;
  try {
    if (data.length >= 4 && data.readUInt32LE(0) === ZIP_SIGNATURE) {
      const entries = readZipDirectory(data, limits);
      read = await reader.read(data, entries, { maxInflatedBytes: limits.maxInflatedBytes, maxRows: BEACON_IMPORT_MAX_ROWS, sheetName: BEACON_IMPORT_SHEET });
    } else {
      read = await reader.readCsv(data, { maxRows: BEACON_IMPORT_MAX_ROWS, notTextMessage: B.importNotSpreadsheet });
    }
  } catch (error) {
    // The reader's words speak of report sheets: the same refusal, in this upload's terms.
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') throw tooHeavy();
    throw error;
  }
  const { lines, overflow } = read;
  if (overflow) throw badRequest(B.importTooManyRows(BEACON_IMPORT_MAX_ROWS));
  if (lines.length === 0) throw badRequest(B.importNoRows);
  return lines;
}
