import { badRequest } from '../../../lib/errors';
import type { CellValue, SheetLine, SheetLines } from './sheet-reader';

export interface CsvLimits {
  /** Filled rows the file may carry; reading stops at the first one past it. */
  maxRows: number;
  /** The refusal of a file that is not UTF-8 text, in the words of the upload that reads it. */
  notTextMessage: string;
}

const COLUMNS = 4;

/**
 * CSV as spreadsheets in Brazil save it: `;` or `,` between fields (whichever the first line has more of), double
 * quotes around fields that hold them, CRLF or LF. The first line is the header; like a sheet, only the first four
 * cells of a filled row are kept. One pass over bytes already capped in size, stopping at the row cap; a file that is
 * not UTF-8 text (or holds NULs: a binary) is refused. Runs in a spreadsheet reader thread (reader-thread.ts): a
 * 5 MB file is tens of milliseconds of the sender's choosing, which the event loop must not pay.
 */
export function readCsvLines(data: Uint8Array, limits: CsvLimits): SheetLines {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw badRequest(limits.notTextMessage);
  }
  if (text.includes('\u0000')) throw badRequest(limits.notTextMessage);
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
    if (cells.length < COLUMNS) cells.push(field.trim() === '' ? null : field.trim());
    field = '';
  };
  const endRow = (): boolean => {
    endField();
    if (row > 1 && cells.some((c) => c !== null)) {
      if (lines.length >= limits.maxRows) return false;
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
