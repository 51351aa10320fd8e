import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { badRequest } from '../../../lib/errors';
import { SHEET_COLUMNS, type CellValue, type SheetLine, type SheetLines } from './sheet-reader';

export interface CsvLimits {
  /** Filled lines the file may carry, its header included; reading stops at the first one past it. */
  maxRows: number;
  /** The refusal of a file that is not text (a binary), in the words of the upload that reads it. */
  notTextMessage: string;
  /** The refusal of a malformed file (a quote never closed); `{line}` is replaced by the line where it broke. */
  malformedMessage: string;
}

/**
 * The text of a CSV file as Excel in Portuguese saves it: UTF-8 (with or without its BOM) when the bytes are valid
 * UTF-8, else Windows-1252 ("CSV (separado por vírgulas)" writes the system's ANSI code page: "Câmara" as 0xE2, "–"
 * as 0x96). Decoded by iconv-lite: Node 20's TextDecoder('windows-1252') reads 0x80–0x9F as C1 controls, i.e. as
 * Latin-1. Any byte sequence decodes as 1252, so a binary file is told by its NUL bytes and refused.
 */
export function decodeCsvText(data: Uint8Array, notTextMessage: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    text = iconv.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), 'win1252');
  }
  if (text.includes('\u0000')) throw badRequest(notTextMessage);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * CSV as spreadsheets in Brazil save it (csv-parse, issue 26): `;` or `,` between fields (whichever the first line has
 * more of), double quotes around fields that hold them or line breaks, CRLF or LF. Like a sheet, every filled line is
 * returned with its row number as a spreadsheet shows it, the header first (the caller finds its columns by name,
 * header-columns.ts), with its first SHEET_COLUMNS cells; blank lines are skipped. Stops past `maxRows` filled lines.
 * Runs in a spreadsheet reader thread (reader-thread.ts): a 5 MB file is tens of milliseconds of the sender's
 * choosing, which the event loop must not pay (ADR 76).
 */
export function readCsvLines(data: Uint8Array, limits: CsvLimits): SheetLines {
  const text = decodeCsvText(data, limits.notTextMessage);
  const firstLine = text.slice(0, Math.max(0, text.search(/\r?\n|$/)));
  const delimiter = count(firstLine, ';') >= count(firstLine, ',') && firstLine.includes(';') ? ';' : ',';
  let records: { record: string[]; info: { lines: number; records: number; empty_lines: number } }[];
  try {
    records = parseCsv(text, {
      delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, info: true, to: limits.maxRows + 1,
    }) as unknown as typeof records;
  } catch (error) {
    const line = error instanceof CsvError && typeof (error as { lines?: unknown }).lines === 'number' ? (error as unknown as { lines: number }).lines : null;
    throw badRequest(line ? limits.malformedMessage.replace('{line}', String(line)) : limits.notTextMessage);
  }
  const lines: SheetLine[] = [];
  for (const { record, info } of records) {
    const cells: CellValue[] = record.slice(0, SHEET_COLUMNS).map((field) => (field === '' ? null : field));
    if (cells.every((c) => c === null)) continue;
    if (lines.length === limits.maxRows) return { lines, overflow: true };
    // The row a spreadsheet shows: records and the blank lines before them (a quoted line break stays in its row).
    lines.push({ row: info.records + info.empty_lines, cells });
  }
  return { lines, overflow: false };
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}
