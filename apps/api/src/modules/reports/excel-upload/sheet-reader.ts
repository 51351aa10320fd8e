import { Inflate } from 'fflate';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { REPORT_MESSAGES } from '@sentinela/contract';
import { AppError, badRequest } from '../../../lib/errors';
import { inflatedTooLarge, type ZipEntry } from './zip-directory';

/** A cell as the report columns read it: what exceljs's value became once its wrappers were taken off. */
export type CellValue = string | number | boolean | Date | null;

/** A filled row (the header included): its number as Excel shows it and its first SHEET_COLUMNS cells. */
export interface SheetLine {
  row: number;
  cells: CellValue[];
}

export interface SheetLimits {
  /** Bytes all the parts read may inflate to, counted while inflating (the declared sizes may lie). */
  maxInflatedBytes: number;
  /** Filled rows the upload may carry, its header included; reading stops at the first one past it. */
  maxRows: number;
  /** The sheet read when present; else the workbook's first. */
  sheetName: string;
}

export interface SheetLines {
  lines: SheetLine[];
  /** More filled rows than `maxRows`: reading stopped there, and `lines` holds only the first ones. */
  overflow: boolean;
}

/**
 * Cells read per row, from column A: the header names the columns in any order (issue 26, header-columns.ts), so a
 * sheet may carry extra columns before the ones asked for; beyond this many they are not read.
 */
export const SHEET_COLUMNS = 32;
const COLUMNS = SHEET_COLUMNS;
/** Compressed bytes fed to the inflater at once: one push inflates to at most ~1,000 times this. */
const FEED_BYTES = 4096;
/** Built-in number formats that are dates (exceljs's table: ids 14–22 and 45–47). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Thrown inside a parser's handlers to stop reading a part early (the row cap is reached). */
class StopReading extends Error {}

/**
 * Reads the report rows of an .xlsx whose directory was checked: the workbook, its relationships, the number
 * styles and shared strings, then the sheet row by row, inflating and parsing as a stream. Memory stays at the
 * rows kept plus the shared strings; reading stops at the row cap or when inflating passes the byte cap.
 *
 * The values are exactly those today's exceljs reader handed to the column rules: shared, inline and formula
 * strings; numbers; numbers in a date format as dates (1900 or 1904 system); booleans; errors as empty.
 */
export function readSheetLines(data: Uint8Array, entries: ZipEntry[], limits: SheetLimits): SheetLines {
  const parts = new Map(entries.map((e) => [e.name, e]));
  const budget = { left: limits.maxInflatedBytes, max: limits.maxInflatedBytes };
  const read = (path: string, handlers: (parser: SaxesParser) => void) => {
    const entry = parts.get(path);
    if (!entry) return false;
    parseXml(data, entry, budget, handlers);
    return true;
  };

  const officeDocument = relationships(read, '_rels/.rels', '').find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbook = readWorkbook(read, officeDocument);
  const links = relationships(read, relsPathOf(officeDocument), dirOf(officeDocument));
  const sheet = workbook.sheets.find((s) => s.name === limits.sheetName) ?? workbook.sheets[0];
  const sheetPath = sheet && links.find((r) => r.id === sheet.rid)?.target;
  if (!sheetPath || !parts.has(sheetPath)) throw badRequest(REPORT_MESSAGES.notXlsx);
  const stylesPath = links.find((r) => r.type.endsWith('/styles'))?.target;
  const dateStyles = stylesPath ? readDateStyles(read, stylesPath) : [];
  const stringsPath = links.find((r) => r.type.endsWith('/sharedStrings'))?.target;
  const strings = stringsPath ? readSharedStrings(read, stringsPath) : [];

  return readRows(read, sheetPath, { strings, dateStyles, date1904: workbook.date1904, maxRows: limits.maxRows });
}

type Reader = (path: string, handlers: (parser: SaxesParser) => void) => boolean;

/** Inflates one part as a stream into an XML parser, counting every inflated byte against the budget. */
function parseXml(data: Uint8Array, entry: ZipEntry, budget: { left: number; max: number }, handlers: (parser: SaxesParser) => void): void {
  const parser = new SaxesParser({ xmlns: false });
  handlers(parser);
  const decoder = new TextDecoder('utf-8');
  const take = (chunk: Uint8Array) => {
    budget.left -= chunk.length;
    if (budget.left < 0) throw inflatedTooLarge(budget.max);
    parser.write(decoder.decode(chunk, { stream: true }));
  };
  const compressed = data.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  try {
    if (entry.method === 0) {
      for (let at = 0; at < compressed.length; at += FEED_BYTES * 256) take(compressed.subarray(at, at + FEED_BYTES * 256));
    } else {
      const inflate = new Inflate((chunk) => take(chunk));
      for (let at = 0; at < compressed.length; at += FEED_BYTES) {
        inflate.push(compressed.subarray(at, at + FEED_BYTES), at + FEED_BYTES >= compressed.length);
      }
      if (compressed.length === 0) inflate.push(new Uint8Array(0), true);
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof StopReading) return;
    if (error instanceof AppError) throw error;
    // Corrupt deflate data or XML that is not well formed: not a spreadsheet Excel would write.
    throw badRequest(REPORT_MESSAGES.notXlsx);
  }
}

/** The element's name without its namespace prefix (some writers use x:row). */
const local = (tag: { name: string }) => tag.name.slice(tag.name.indexOf(':') + 1);
const attr = (tag: SaxesTagPlain, name: string): string | undefined => {
  for (const [key, value] of Object.entries(tag.attributes)) if (key === name || key.endsWith(`:${name}`)) return value;
  return undefined;
};

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
const relsPathOf = (path: string) => `${dirOf(path)}_rels/${path.slice(path.lastIndexOf('/') + 1)}.rels`;

/** A relationship target as an archive path: absolute ("/xl/…") or relative to the part's folder, ".." resolved. */
function resolvePath(base: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : base + target).split('/');
  const out: string[] = [];
  for (const s of segments) {
    if (s === '..') out.pop();
    else if (s !== '.' && s !== '') out.push(s);
  }
  return out.join('/');
}

function relationships(read: Reader, path: string, base: string): Array<{ id: string; type: string; target: string }> {
  const found: Array<{ id: string; type: string; target: string }> = [];
  read(path, (p) =>
    p.on('opentag', (tag) => {
      if (local(tag) !== 'Relationship') return;
      const target = attr(tag, 'Target');
      if (target && attr(tag, 'TargetMode') !== 'External') {
        found.push({ id: attr(tag, 'Id') ?? '', type: attr(tag, 'Type') ?? '', target: resolvePath(base, target) });
      }
    }),
  );
  return found;
}

function readWorkbook(read: Reader, path: string): { sheets: Array<{ name: string; rid: string }>; date1904: boolean } {
  const sheets: Array<{ name: string; rid: string }> = [];
  let date1904 = false;
  const found = read(path, (p) =>
    p.on('opentag', (tag) => {
      const name = local(tag);
      if (name === 'workbookPr') date1904 = attr(tag, 'date1904') === '1' || attr(tag, 'date1904') === 'true';
      if (name === 'sheet') sheets.push({ name: attr(tag, 'name') ?? '', rid: attr(tag, 'id') ?? '' });
    }),
  );
  if (!found) throw badRequest(REPORT_MESSAGES.notXlsx);
  return { sheets, date1904 };
}

/** For each cell style (index of cellXfs), whether its number format is a date, by exceljs's rule. */
function readDateStyles(read: Reader, path: string): boolean[] {
  const formats = new Map<number, string>();
  const styleFormats: number[] = [];
  let inCellXfs = false;
  read(path, (p) => {
    p.on('opentag', (tag) => {
      const name = local(tag);
      if (name === 'numFmt') formats.set(Number(attr(tag, 'numFmtId')), attr(tag, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) styleFormats.push(Number(attr(tag, 'numFmtId') ?? 0));
    });
    p.on('closetag', (tag) => {
      if (local(tag) === 'cellXfs') inCellXfs = false;
    });
  });
  return styleFormats.map((id) => (formats.has(id) ? isDateFormat(formats.get(id)!) : BUILT_IN_DATE_FORMATS.has(id)));
}

/** exceljs's test: date characters left once quoted text and [brackets] are removed. */
function isDateFormat(code: string): boolean {
  return /[ymdhMsb]+/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** Each shared string as plain text (rich text runs joined; phonetic guides left out). */
function readSharedStrings(read: Reader, path: string): string[] {
  const strings: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  read(path, (p) => {
    p.on('opentag', (tag) => {
      const name = local(tag);
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't' && phonetic === 0) inText = true;
    });
    p.on('text', (text) => {
      if (inText && current !== null) current += text;
    });
    p.on('cdata', (text) => {
      if (inText && current !== null) current += text;
    });
    p.on('closetag', (tag) => {
      const name = local(tag);
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'si') {
        strings.push(current ?? '');
        current = null;
      }
    });
  });
  return strings;
}

/** "AB12" → 28 (the column number); null without letters. */
function columnOf(ref: string): number | null {
  let column = 0;
  for (const ch of ref.toUpperCase()) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column || null;
}

interface CellDraft {
  column: number;
  type: string;
  style: number;
  value: string | undefined;
  inline: string | undefined;
  formula: boolean;
}

function readRows(
  read: Reader,
  path: string,
  context: { strings: string[]; dateStyles: boolean[]; date1904: boolean; maxRows: number },
): SheetLines {
  const lines: SheetLine[] = [];
  let overflow = false;
  let rowNumber = 0;
  let cells: CellValue[] = [];
  let lastColumn = 0;
  let cell: CellDraft | null = null;
  let textTarget: 'value' | 'inline' | null = null;
  let inInline = false;

  const number = (text: string, style: number): number | Date => {
    const n = parseFloat(text);
    if (!context.dateStyles[style]) return n;
    // exceljs's excelToDate: day 25,569 is 1970-01-01 (1900 system); the 1904 system starts 1,462 days later.
    return new Date(Math.round((n - 25_569 + (context.date1904 ? 1462 : 0)) * 86_400_000));
  };
  const valueOf = (c: CellDraft): CellValue => {
    if (c.formula) {
      if (!c.value || c.type === 'e') return null;
      const result = c.type === 'str' ? c.value : c.type === 'b' ? parseInt(c.value, 10) !== 0 : number(c.value, c.style);
      // exceljs keeps a formula's result only when it is truthy: false, 0 and "" read as an empty cell.
      return result ? result : null;
    }
    if (c.type === 'inlineStr') return c.inline ?? null;
    if (c.value === undefined) return null;
    switch (c.type) {
      case 's':
        return context.strings[parseInt(c.value, 10)] ?? null;
      case 'str':
        return c.value;
      case 'b':
        return parseInt(c.value, 10) !== 0;
      case 'e':
        return null;
      default:
        return number(c.value, c.style);
    }
  };

  read(path, (p) => {
    p.on('opentag', (tag) => {
      switch (local(tag)) {
        case 'row': {
          const r = Number(attr(tag, 'r'));
          rowNumber = Number.isInteger(r) && r > 0 ? r : rowNumber + 1;
          cells = new Array<CellValue>(COLUMNS).fill(null);
          lastColumn = 0;
          break;
        }
        case 'c': {
          const ref = attr(tag, 'r');
          const column = (ref && columnOf(ref)) || lastColumn + 1;
          lastColumn = column;
          cell = { column, type: attr(tag, 't') ?? 'n', style: Number(attr(tag, 's') ?? 0), value: undefined, inline: undefined, formula: false };
          break;
        }
        case 'v':
          textTarget = 'value';
          if (cell) cell.value = '';
          break;
        case 'f':
          if (cell) cell.formula = true;
          break;
        case 'is':
          inInline = true;
          if (cell) cell.inline = '';
          break;
        case 't':
          if (inInline) textTarget = 'inline';
          break;
        case 'rPh':
          inInline = false; // phonetic guides are not part of the text
          break;
      }
    });
    const addText = (text: string) => {
      if (!cell || !textTarget) return;
      if (textTarget === 'value') cell.value += text;
      else cell.inline += text;
    };
    p.on('text', addText);
    p.on('cdata', addText);
    p.on('closetag', (tag) => {
      switch (local(tag)) {
        case 'v':
        case 't':
          textTarget = null;
          break;
        case 'is':
          inInline = false;
          break;
        case 'rPh':
          inInline = cell?.inline !== undefined;
          break;
        case 'c':
          if (cell && cell.column <= COLUMNS) cells[cell.column - 1] = valueOf(cell);
          cell = null;
          break;
        case 'row':
          if (!isFilled(cells)) break;
          if (lines.length === context.maxRows) {
            overflow = true;
            throw new StopReading();
          }
          lines.push({ row: rowNumber, cells });
          break;
      }
    });
  });
  return { lines, overflow };
}

/** Blank rows are skipped; the first filled one is the header, which the caller reads (header-columns.ts). */
function isFilled(cells: CellValue[]): boolean {
  return !cells.every((v) => v === null || (typeof v === 'string' && v.trim() === ''));
}
