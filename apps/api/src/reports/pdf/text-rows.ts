/**
 * Table rows, table headers and page footers written as raw PDF text operators, one text object (`BT … ET`) per page.
 *
 * Why not doc.text: each pdfkit text call measures its string three times with kerning (a string-keyed lookup per
 * character pair) before encoding it; with a width check for right alignment that is about 50 µs per cell, and a
 * 10,000-reading table has 60,000 cells: 3 s of the report, as profiled while writing bench/reports.ts. Writing
 * the operators directly, with widths from a per-character table, costs a few µs per cell. The text is the same
 * Helvetica as everywhere else (the font object and its page resource come from pdfkit); only kerning is left out,
 * and widths are computed without it too, so right alignment stays exact.
 *
 * This leans on two pdfkit internals, named in `PdfkitInternals` below: the current font object (`_font`: its id,
 * its reference and its widths) and the page's font resources (`page.fonts`).
 */
import type { Doc } from './layout';
import { winAnsiByte } from './win-ansi';

interface PdfkitFont {
  id: string;
  ascender: number;
  ref(): unknown;
  widthOfString(text: string, size: number): number;
}

interface PdfkitInternals {
  _font: PdfkitFont;
  page: { fonts: Record<string, unknown>; height: number };
}

/** A font as this writer uses it: its resource id and a width table in 1/1000 em, filled on first use. */
class MeasuredFont {
  private readonly widths = new Float64Array(0x2200).fill(Number.NaN);

  constructor(readonly pdfkitFont: PdfkitFont) {}

  /** Width of WinAnsi text at `size`, without kerning. */
  width(text: string, size: number): number {
    let units = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let width = this.widths[code];
      if (width === undefined) width = this.pdfkitFont.widthOfString(text[i]!, 1000);
      else if (Number.isNaN(width)) width = this.widths[code] = this.pdfkitFont.widthOfString(text[i]!, 1000);
      units += width;
    }
    return (units * size) / 1000;
  }
}

export interface RowCell {
  /** Left edge of the text. */
  x: number;
  /** Already WinAnsi (see toWinAnsi). */
  text: string;
  bold: boolean;
  /** PDF colour operator, e.g. "0.13 0.15 0.16 rg" (see rgbOperator). */
  color: string;
}

/**
 * Queues the rows (and row shading) of one page and writes them as one text object when flushed: call flush()
 * before starting a new page, before switching to another buffered page, and at the end. Queued shading is written
 * before the text, so it lies under it.
 */
export class TextRowWriter {
  private readonly regular: MeasuredFont;
  private readonly bold: MeasuredFont;
  private pendingPage: unknown = null;
  private ops = '';
  private shades = '';
  private shadeColor = '';
  private font: MeasuredFont | null = null;
  private color = '';
  private lineX = 0;
  private lineY = 0;

  /** `regularName`/`boldName` are pdfkit font names; the document's current font is restored afterwards. */
  constructor(
    private readonly doc: Doc,
    regularName: string,
    boldName: string,
    private readonly size: number,
  ) {
    const internals = doc as unknown as PdfkitInternals;
    const current = internals._font;
    doc.font(boldName);
    this.bold = new MeasuredFont(internals._font);
    doc.font(regularName);
    this.regular = new MeasuredFont(internals._font);
    internals._font = current;
  }

  width(text: string, bold = false): number {
    return (bold ? this.bold : this.regular).width(text, this.size);
  }

  /** The text cut with "…" so that it fits `width`. */
  fit(text: string, width: number, bold = false): string {
    if (this.width(text, bold) <= width) return text;
    let low = 0;
    let high = text.length;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.width(`${text.slice(0, middle)}…`, bold) <= width) low = middle;
      else high = middle - 1;
    }
    return `${text.slice(0, low).trimEnd()}…`;
  }

  /** Queues one row whose text tops are at `top` (pdfkit's y, downwards from the top of the page). */
  row(top: number, cells: readonly RowCell[]): void {
    const page = this.ensurePage();
    // Text space has y upwards; positions move by Td relative to the previous one (shorter than a full Tm).
    const baseline = round2(page.height - top - (this.regular.pdfkitFont.ascender / 1000) * this.size);
    for (const cell of cells) {
      if (cell.text === '') continue;
      const cellFont = cell.bold ? this.bold : this.regular;
      if (cellFont !== this.font) {
        this.ops += ` /${cellFont.pdfkitFont.id} ${this.size} Tf`;
        this.font = cellFont;
      }
      if (cell.color !== this.color) {
        this.ops += ` ${cell.color}`;
        this.color = cell.color;
      }
      const x = round2(cell.x);
      this.ops += ` ${number(x - this.lineX)} ${number(baseline - this.lineY)} Td (${pdfLiteral(cell.text)}) Tj`;
      this.lineX = x;
      this.lineY = baseline;
    }
  }

  /** Queues a filled rectangle (row shading) to go under this page's text; `color` as from rgbOperator. */
  shade(x: number, top: number, width: number, height: number, color: string): void {
    this.ensurePage();
    if (color !== this.shadeColor) {
      this.shades += ` ${color}`;
      this.shadeColor = color;
    }
    this.shades += ` ${number(x)} ${number(top)} ${number(width)} ${number(height)} re f`;
  }

  /** Writes the queued shading and rows to their page. */
  flush(): void {
    if (this.pendingPage === null) return;
    const shades = this.shades === '' ? '' : `q${this.shades} Q `;
    this.doc.addContent(`${shades}${this.ops} ET Q`);
    this.pendingPage = null;
    this.ops = '';
    this.shades = '';
    this.shadeColor = '';
  }

  private ensurePage(): PdfkitInternals['page'] {
    const page = (this.doc as unknown as PdfkitInternals).page;
    if (this.pendingPage !== page) {
      if (this.pendingPage !== null) throw new Error('TextRowWriter: flush() before starting a new page');
      this.begin(page);
    }
    return page;
  }

  private begin(page: PdfkitInternals['page']): void {
    // The page must list the fonts its content uses; pdfkit does this inside doc.text, which is bypassed here.
    page.fonts[this.regular.pdfkitFont.id] = this.regular.pdfkitFont.ref();
    page.fonts[this.bold.pdfkitFont.id] = this.bold.pdfkitFont.ref();
    // pdfkit draws in a flipped coordinate system (y downwards); text needs it flipped back, as doc.text does.
    this.ops = `q 1 0 0 -1 0 ${page.height} cm BT`;
    this.pendingPage = page;
    this.font = null;
    this.color = '';
    this.lineX = 0;
    this.lineY = 0;
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A short PDF number: at most two decimals, no trailing zeros. */
function number(value: number): string {
  return String(round2(value));
}

/** A PDF literal string body for WinAnsi text: delimiters escaped, bytes outside ASCII as octal escapes. */
export function pdfLiteral(text: string): string {
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e && code !== 0x28 && code !== 0x29 && code !== 0x5c) continue;
    out += text.slice(plainFrom, i);
    out += code === 0x28 || code === 0x29 || code === 0x5c ? `\\${text[i]}` : `\\${winAnsiByte(code).toString(8).padStart(3, '0')}`;
    plainFrom = i + 1;
  }
  return plainFrom === 0 ? text : out + text.slice(plainFrom);
}

/** "#c92a2a" → "0.788 0.165 0.165 rg" (fill colour operator). */
export function rgbOperator(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => (((value >> shift) & 0xff) / 255).toFixed(3);
  return `${channel(16)} ${channel(8)} ${channel(0)} rg`;
}
