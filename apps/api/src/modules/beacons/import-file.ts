import { BEACON_MESSAGES as B } from '@sentinela/contract';
import { AppError, badRequest } from '../../lib/errors';
import type { SpreadsheetReaderPool } from '../reports/excel-upload/reader-pool';
import type { CellValue, SheetLine } from '../reports/excel-upload/sheet-reader';
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
 * streaming, in a reader thread: ADR 13); anything else must be CSV text. The upload's size was capped before this.
 */
export async function readImportFile(data: Buffer, reader: SpreadsheetReaderPool, limits: ImportLimits): Promise<SheetLine[]> {
  let lines: SheetLine[];
  let overflow: boolean;
  if (data.length >= 4 && data.readUInt32LE(0) === ZIP_SIGNATURE) {
    try {
      const entries = readZipDirectory(data, limits);
      ({ lines, overflow } = await reader.read(data, entries, { maxInflatedBytes: limits.maxInflatedBytes, maxRows: BEACON_IMPORT_MAX_ROWS, sheetName: BEACON_IMPORT_SHEET }));
    } catch (error) {
      // The reader's words speak of report sheets: the same refusal, in this upload's terms.
      if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') throw tooHeavy();
      throw error;
    }
  } else {
    ({ lines, overflow } = readCsvLines(data, BEACON_IMPORT_MAX_ROWS));
  }
  if (overflow) throw badRequest(B.importTooManyRows(BEACON_IMPORT_MAX_ROWS));
  if (lines.length === 0) throw badRequest(B.importNoRows);
  return lines;
}

/**
 * CSV as spreadsheets in Brazil save it: `;` or `,` between fields (whichever the first line has more of), double
 * quotes around fields that hold them, CRLF or LF. The first line is the header. One pass over bytes already capped
 * in size, stopping at the row cap; a file that is not UTF-8 text (or holds NULs: a binary) is refused.
 */
export function readCsvLines(data: Buffer, maxRows: number): { lines: SheetLine[]; overflow: boolean } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw badRequest(B.importNotSpreadsheet);
  }
  if (text.includes('\u0000')) throw badRequest(B.importNotSpreadsheet);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = count(firstLine, ';') >= count(firstLine, ',') && firstLine.includes(';') ? ';' : ',';

  const lines: SheetLine[] = [];
  let row = 1;
  let cells: CellValue[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    if (cells.length < 4) cells.push(field.trim() === '' ? null : field.trim());
    field = '';
  };
  const endRow = (): boolean => {
    endField();
    if (row > 1 && cells.some((c) => c !== null)) {
      if (lines.length >= maxRows) return false;
      lines.push({ row, cells });
    }
    cells = [];
    row++;
    return true;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === separator) endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (!endRow()) return { lines, overflow: true };
    } else field += ch;
    i++;
  }
  if (field !== '' || cells.length > 0) if (!endRow()) return { lines, overflow: true };
  return { lines, overflow: false };
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}
