import { BEACON_IMPORT_COLUMNS, BEACON_MESSAGES as B } from '@sentinela/contract';
import { AppError, badRequest } from '../../lib/errors';
import type { SpreadsheetReaderPool } from '../reports/excel-upload/reader-pool';
import { byHeader, type ColumnSpec } from '../reports/excel-upload/header-columns';
import type { CellValue, SheetLines } from '../reports/excel-upload/sheet-reader';
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

/** The columns of the beacon list (BEACON_IMPORT_COLUMNS), found by the header in any order (issue 26). */
export const BEACON_COLUMNS: readonly ColumnSpec<'mac' | 'name' | 'model'>[] = [
  { key: 'mac', label: BEACON_IMPORT_COLUMNS[0], aliases: ['endereço mac', 'mac address', 'endereco'], required: true },
  { key: 'name', label: BEACON_IMPORT_COLUMNS[1], aliases: ['nome do dispositivo', 'name', 'dispositivo'], required: true },
  { key: 'model', label: BEACON_IMPORT_COLUMNS[2], aliases: ['model', 'número de série', 'numero de serie', 'serial'], required: false },
];

export interface BeaconLine {
  row: number;
  cells: Record<'mac' | 'name' | 'model', CellValue>;
}

/**
 * The rows of an uploaded beacon list below its header, their cells picked by the header's names (issue 26): an .xlsx
 * (told by its zip signature) is read by the report upload's bounded reader (directory checked before inflating,
 * inflated bytes and rows capped while streaming: ADR 13); anything else must be CSV text (csv-parse, UTF-8 or
 * Windows-1252), read by the same reader threads (issue 21: a 5 MB file is the sender's CPU, never the event
 * loop's). The upload's size was capped before this.
 */
export async function readImportFile(data: Buffer, reader: SpreadsheetReaderPool, limits: ImportLimits): Promise<BeaconLine[]> {
  // The header and at most BEACON_IMPORT_MAX_ROWS rows below it.
  const maxRows = BEACON_IMPORT_MAX_ROWS + 1;
  let read: SheetLines;
  try {
    if (data.length >= 4 && data.readUInt32LE(0) === ZIP_SIGNATURE) {
      const entries = readZipDirectory(data, limits);
      read = await reader.read(data, entries, { maxInflatedBytes: limits.maxInflatedBytes, maxRows, sheetName: BEACON_IMPORT_SHEET });
    } else {
      // The thread takes texts, not functions: the malformed-file message with its line as a placeholder.
      const malformedMessage = B.importCsvInvalid('{line}' as unknown as number);
      read = await reader.readCsv(data, { maxRows, notTextMessage: B.importNotSpreadsheet, malformedMessage });
    }
  } catch (error) {
    // The reader's words speak of report sheets: the same refusal, in this upload's terms.
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') throw tooHeavy();
    throw error;
  }
  const { lines, overflow } = read;
  if (overflow) throw badRequest(B.importTooManyRows(BEACON_IMPORT_MAX_ROWS));
  const beacons = byHeader(lines, BEACON_COLUMNS);
  if (beacons.length === 0) throw badRequest(B.importNoRows);
  return beacons;
}
