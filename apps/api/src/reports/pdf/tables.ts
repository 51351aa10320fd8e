/**
 * Tables drawn cell by cell at fixed x positions. pdfkit's own table helper measures and wraps every cell, about
 * four times slower. Tables without wrapping columns (readings, excursions, statistics) have rows of one height and
 * are written through TextRowWriter, a few µs per cell; columns that may hold long text (alarm messages) wrap with
 * doc.text, and their rows grow to fit.
 */
import { COLOR, CONTENT_WIDTH, type Doc, ensureSpace, fit, FONT, newPage, PAGE } from './layout';
import { rgbOperator, type RowCell, TextRowWriter } from './text-rows';
import { toWinAnsi } from './win-ansi';

export interface Column {
  header: string;
  /** Share of the content width, relative to the other columns' weights. */
  weight: number;
  align?: 'left' | 'right';
  /** Long text: wrapped, and the row grows to fit. */
  wrap?: boolean;
}

/** A cell: its text, or its text flagged (out of range: printed bold and red). */
export type Cell = string | { text: string; flagged: true };

export interface TableOptions {
  fontSize?: number;
  /** Shades every other row, which keeps the eye on a line across a long table. */
  zebra?: boolean;
}

const PADDING = 4;
const ROW_PADDING = 1.6;
const TEXT_COLOR = rgbOperator(COLOR.text);
const ALERT_COLOR = rgbOperator(COLOR.alert);
const ZEBRA_COLOR = rgbOperator(COLOR.zebra);

interface PlacedColumn extends Column {
  x: number;
  width: number;
}

export function flagged(text: string): Cell {
  return { text, flagged: true };
}

/** Draws the header and `rows` from doc.y on, repeating the header on each new page; leaves doc.y below the table. */
export function drawTable(doc: Doc, columns: readonly Column[], rows: Iterable<readonly Cell[]>, options: TableOptions = {}): void {
  const fontSize = options.fontSize ?? 8;
  const lineHeight = fontSize * 1.16;
  const writer = new TextRowWriter(doc, FONT.regular, FONT.bold, fontSize);
  const placed = place(columns);
  const header = layOutHeader(writer, placed, lineHeight);
  const wraps = placed.some((column) => column.wrap);
  const drawRow = wraps ? wrappingRows(doc, placed, lineHeight) : fixedRows(writer, placed, lineHeight + 2 * ROW_PADDING);

  doc.fontSize(fontSize);
  ensureSpace(doc, header.height + (lineHeight + 2 * ROW_PADDING) * 2);
  drawHeader(doc, writer, header);
  let index = 0;
  for (const row of rows) {
    const height = drawRow.height(row);
    if (doc.y + height > PAGE.bottom) {
      writer.flush();
      newPage(doc);
      drawHeader(doc, writer, header);
    }
    const y = doc.y;
    if (options.zebra && index % 2 === 1) {
      // Queued shading is written under the queued text; wrapped rows are drawn at once, so theirs must be too.
      if (wraps) doc.rect(PAGE.left, y, CONTENT_WIDTH, height).fill(COLOR.zebra);
      else writer.shade(PAGE.left, y, CONTENT_WIDTH, height, ZEBRA_COLOR);
    }
    drawRow.draw(row, y);
    doc.y = y + height;
    index++;
  }
  writer.flush();
  doc.save().moveTo(PAGE.left, doc.y).lineTo(PAGE.right, doc.y).lineWidth(0.6).strokeColor(COLOR.rule).stroke().restore();
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
  doc.x = PAGE.left;
  doc.y += 8;
}

interface RowDrawer {
  height(row: readonly Cell[]): number;
  draw(row: readonly Cell[], y: number): void;
}

/** Rows of one line each, queued on the raw text writer. */
function fixedRows(writer: TextRowWriter, columns: readonly PlacedColumn[], rowHeight: number): RowDrawer {
  const cells: RowCell[] = columns.map(() => ({ x: 0, text: '', bold: false, color: TEXT_COLOR }));
  return {
    height: () => rowHeight,
    draw(row, y) {
      for (let c = 0; c < columns.length; c++) {
        const column = columns[c]!;
        const cell = row[c] ?? '';
        const isFlagged = typeof cell !== 'string';
        const text = writer.fit(toWinAnsi(isFlagged ? cell.text : cell), column.width - 2 * PADDING, isFlagged);
        const target = cells[c]!;
        target.text = text;
        target.bold = isFlagged;
        target.color = isFlagged ? ALERT_COLOR : TEXT_COLOR;
        target.x = column.align === 'right' ? column.x + column.width - PADDING - writer.width(text, isFlagged) : column.x + PADDING;
      }
      writer.row(y + ROW_PADDING + 0.4, cells);
    },
  };
}

/** Rows whose wrapping cells may take several lines, through doc.text (alarm tables: a few rows). */
function wrappingRows(doc: Doc, columns: readonly PlacedColumn[], lineHeight: number): RowDrawer {
  const textOf = (cell: Cell | undefined) => toWinAnsi(cell === undefined ? '' : typeof cell === 'string' ? cell : cell.text);
  return {
    height(row) {
      doc.font(FONT.regular);
      let height = lineHeight;
      columns.forEach((column, c) => {
        const text = textOf(row[c]);
        if (column.wrap && text !== '') height = Math.max(height, doc.heightOfString(text, { width: column.width - 2 * PADDING, lineGap: 0 }));
      });
      return height + 2 * ROW_PADDING;
    },
    draw(row, y) {
      columns.forEach((column, c) => {
        const cell = row[c];
        const text = textOf(cell);
        if (text === '') return;
        const isFlagged = cell !== undefined && typeof cell !== 'string';
        doc.font(isFlagged ? FONT.bold : FONT.regular).fillColor(isFlagged ? COLOR.alert : COLOR.text);
        const top = y + ROW_PADDING + 0.4;
        if (column.wrap) {
          doc.text(text, column.x + PADDING, top, { width: column.width - 2 * PADDING, lineGap: 0 });
          return;
        }
        const shown = fit(doc, text, column.width - 2 * PADDING);
        const x = column.align === 'right' ? column.x + column.width - PADDING - doc.widthOfString(shown) : column.x + PADDING;
        doc.text(shown, x, top, { lineBreak: false });
      });
    },
  };
}

function place(columns: readonly Column[]): PlacedColumn[] {
  const total = columns.reduce((sum, column) => sum + column.weight, 0);
  let x = PAGE.left;
  return columns.map((column) => {
    const width = (CONTENT_WIDTH * column.weight) / total;
    const placedColumn = { ...column, x, width };
    x += width;
    return placedColumn;
  });
}

interface HeaderLayout {
  height: number;
  /** Per line of header text, the cells of that line. */
  lines: RowCell[][];
  lineHeight: number;
}

/** Header texts split into lines once per table (bold, word by word), then redrawn on every page. */
function layOutHeader(writer: TextRowWriter, columns: readonly PlacedColumn[], lineHeight: number): HeaderLayout {
  const lines: RowCell[][] = [];
  columns.forEach((column) => {
    const width = column.width - 2 * PADDING;
    const wrapped: string[] = [];
    for (const word of toWinAnsi(column.header).split(' ')) {
      const last = wrapped.at(-1);
      if (last !== undefined && writer.width(`${last} ${word}`, true) <= width) wrapped[wrapped.length - 1] = `${last} ${word}`;
      else wrapped.push(writer.fit(word, width, true));
    }
    wrapped.forEach((text, index) => {
      const x = column.align === 'right' ? column.x + column.width - PADDING - writer.width(text, true) : column.x + PADDING;
      (lines[index] ??= []).push({ x, text, bold: true, color: TEXT_COLOR });
    });
  });
  return { height: lines.length * lineHeight + 8, lines, lineHeight };
}

function drawHeader(doc: Doc, writer: TextRowWriter, header: HeaderLayout): void {
  const y = doc.y;
  doc.rect(PAGE.left, y, CONTENT_WIDTH, header.height).fill(COLOR.headerFill);
  doc.save().moveTo(PAGE.left, y + header.height).lineTo(PAGE.right, y + header.height).lineWidth(0.6).strokeColor(COLOR.rule).stroke().restore();
  header.lines.forEach((cells, index) => writer.row(y + 4 + index * header.lineHeight, cells));
  doc.x = PAGE.left;
  doc.y = y + header.height;
}
