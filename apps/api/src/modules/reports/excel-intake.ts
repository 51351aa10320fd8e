import { EXCEL_TEMPLATE_COLUMNS, INSTANT_MAX_MS, INSTANT_MIN_MS, type ReportFileType } from '@sentinela/contract';
import { badRequest } from '../../lib/errors';
import { instantOf, isValidWallClock, type WallClock } from '../../lib/time-zone';
import { EXCEL_MAX_PERIOD_DAYS, EXCEL_MAX_ROWS, EXCEL_SHEET_NAME } from './excel-template';
import { byHeader, type ColumnSpec } from './excel-upload/header-columns';
import type { SpreadsheetReaderPool } from './excel-upload/reader-pool';
import { readZipDirectory } from './excel-upload/zip-directory';
import { EXCEL_ROW_MESSAGES as R, REPORT_SERVER_MESSAGES as M } from './messages';

/** A row of the uploaded sheet that reads well; whether its device is reachable is the service's question. */
export interface ExcelReportRow {
  /** The row number Excel shows, for messages. */
  row: number;
  mac: string;
  from: Date;
  to: Date;
  type: ReportFileType;
}

export interface RowError {
  row: number;
  message: string;
}

const MAC = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;
const DATE_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const DAY_MS = 86_400_000;
// Excel's day 0 is 1899-12-30; 25,569 days later is 1970-01-01.
const EXCEL_EPOCH_DAYS = 25_569;

/** What an upload may cost before and while it is read (ADR 13). */
export interface ExcelUploadLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

/**
 * The template's columns (EXCEL_TEMPLATE_COLUMNS), found by the header in any order (issue 26); the names people
 * also give them are accepted.
 */
const REPORT_COLUMNS: readonly ColumnSpec<'mac' | 'start' | 'end' | 'type'>[] = [
  { key: 'mac', label: EXCEL_TEMPLATE_COLUMNS[0], aliases: ['endereço mac', 'mac do dispositivo', 'dispositivo'], required: true },
  { key: 'start', label: EXCEL_TEMPLATE_COLUMNS[1], aliases: ['data/hora inicial', 'data inicial', 'data início', 'início', 'inicio do período'], required: true },
  { key: 'end', label: EXCEL_TEMPLATE_COLUMNS[2], aliases: ['data/hora final', 'data final', 'data fim', 'fim', 'fim do período'], required: true },
  { key: 'type', label: EXCEL_TEMPLATE_COLUMNS[3], aliases: ['tipo', 'formato', 'tipo do relatório'], required: true },
];

/**
 * Reads an uploaded .xlsx (R5): the first sheet (or the template's), one report per filled row below the header,
 * whose names say which column is which (any order; a missing one is a 400 naming it).
 * Each bad row gives exactly one message, the first problem found in it; blank rows are skipped.
 *
 * The archive's directory is checked here (declared sizes, parts, encryption); the sheet is then inflated and
 * parsed as a stream in a reader thread, which stops at the first row past the cap (ADR 13).
 */
export async function readExcelUpload(
  data: Buffer,
  timeZone: string,
  reader: SpreadsheetReaderPool,
  limits: ExcelUploadLimits,
): Promise<{ rows: ExcelReportRow[]; errors: RowError[] }> {
  const entries = readZipDirectory(data, limits);
  // The header and at most EXCEL_MAX_ROWS rows below it.
  const { lines, overflow } = await reader.read(data, entries, { maxInflatedBytes: limits.maxInflatedBytes, maxRows: EXCEL_MAX_ROWS + 1, sheetName: EXCEL_SHEET_NAME });
  if (overflow) throw badRequest(M.excelTooManyRows(EXCEL_MAX_ROWS));
  const reports = byHeader(lines, REPORT_COLUMNS);
  if (reports.length === 0) throw badRequest(M.excelNoRows);

  const rows: ExcelReportRow[] = [];
  const errors: RowError[] = [];
  for (const line of reports) {
    const { mac, start, end, type } = line.cells;
    const parsed = parseRow(line.row, [mac, start, end, type], timeZone);
    if ('message' in parsed) errors.push(parsed);
    else rows.push(parsed);
  }
  return { rows, errors };
}

function parseRow(row: number, [macCell, startCell, endCell, typeCell]: unknown[], timeZone: string): ExcelReportRow | RowError {
  const error = (message: string): RowError => ({ row, message });

  const macText = text(macCell).toUpperCase().replace(/-/g, ':');
  if (!macText) return error(R.macMissing(row));
  if (!MAC.test(macText)) return error(R.macInvalid(row, macText));

  const from = instant(startCell, timeZone);
  if (from === 'missing') return error(R.startMissing(row));
  if (typeof from === 'string') return error(R.startInvalid(row, from));
  const to = instant(endCell, timeZone);
  if (to === 'missing') return error(R.endMissing(row));
  if (typeof to === 'string') return error(R.endInvalid(row, to));
  if (to.getTime() <= from.getTime()) return error(R.endBeforeStart(row));
  if (to.getTime() - from.getTime() > EXCEL_MAX_PERIOD_DAYS * DAY_MS) return error(R.periodTooLong(row, EXCEL_MAX_PERIOD_DAYS));

  const typeText = text(typeCell).toUpperCase();
  if (!typeText) return error(R.typeMissing(row));
  const type = typeText === 'PDF' ? 'pdf' : typeText === 'EXCEL' || typeText === 'XLSX' ? 'xlsx' : null;
  if (!type) return error(R.typeInvalid(row, text(typeCell)));

  return { row, mac: macText, from, to, type };
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value).trim();
}

/**
 * A date cell as an instant: an Excel date (a wall-clock time without zone, which exceljs hands over in UTC
 * fields), a date serial number, or text "DD/MM/YYYY HH:mm"; all read in the report time zone.
 * Answers 'missing', the offending text, or the instant.
 */
function instant(value: unknown, timeZone: string): Date | string {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return 'missing';
  let wall: WallClock | null = null;
  if (value instanceof Date) {
    if (!Number.isNaN(value.getTime())) wall = utcFields(value);
  } else if (typeof value === 'number') {
    if (value > 0 && value < 2_958_466) wall = utcFields(new Date(Math.round((value - EXCEL_EPOCH_DAYS) * DAY_MS)));
  } else {
    const match = DATE_TEXT.exec(String(value).trim());
    if (match) {
      const [day, month, year, hour, minute, second] = match.slice(1).map((v) => Number(v ?? 0));
      wall = { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! };
    }
  }
  if (!wall || !isValidWallClock(wall)) return text(value) || 'missing';
  const at = instantOf(wall, timeZone);
  // Like every instant the product accepts: within 1970–2199 (ADR 11).
  if (at.getTime() < INSTANT_MIN_MS || at.getTime() >= INSTANT_MAX_MS) return text(value) || 'missing';
  return at;
}

function utcFields(d: Date): WallClock {
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}
