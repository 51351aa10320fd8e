/**
 * Page geometry, styles and the page furniture every report shares: the first-page header, section titles, the
 * label/value grid, and the running header and footer stamped on every page once the page count is known.
 *
 * Text is drawn at explicit positions with `lineBreak: false` wherever it is known to fit: pdfkit's line wrapper
 * (used whenever a width is given) is the costly part of drawing text, and it also adds pages on its own.
 */
import PDFDocument from 'pdfkit';
import { pageLine } from '../texts';
import { rgbOperator, TextRowWriter } from './text-rows';
import { toWinAnsi } from './win-ansi';

export type Doc = PDFKit.PDFDocument;

/** A4 in points, with room above for the running header and below for the footer. */
export const PAGE = {
  width: 595.28,
  height: 841.89,
  left: 40,
  right: 595.28 - 40,
  top: 58,
  bottom: 841.89 - 62,
} as const;
export const CONTENT_WIDTH = PAGE.right - PAGE.left;

export const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' } as const;

export const COLOR = {
  text: '#212529',
  muted: '#5c636a',
  brand: '#0b7285',
  rule: '#adb5bd',
  hairline: '#dee2e6',
  headerFill: '#e7f1f3',
  zebra: '#f4f6f8',
  alert: '#c92a2a',
  temperature: '#d9480f',
  humidity: '#1864ab',
  limit: '#c92a2a',
  grid: '#e9ecef',
} as const;

export interface DocumentMeta {
  title: string;
  subject: string;
  keywords: string;
  createdAt: Date;
}

/** An A4 document whose pages stay in memory until the end, so the footer can say "Página X de Y". */
export function createReportDocument(meta: DocumentMeta): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.height - PAGE.bottom, left: PAGE.left, right: PAGE.width - PAGE.right },
    bufferPages: true,
    lang: 'pt-BR',
    displayTitle: true,
    info: {
      Title: meta.title,
      Subject: meta.subject,
      Keywords: meta.keywords,
      Author: 'Sentinela',
      Creator: 'Sentinela',
      Producer: 'Sentinela (pdfkit)',
      CreationDate: meta.createdAt,
      ModDate: meta.createdAt,
    },
  });
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
  return doc;
}

/** What every PDF of the platform starts and ends with: its metadata, the first page's heading, every page's furniture. */
export interface DocumentSetup {
  meta: DocumentMeta;
  heading: ReportHeading;
  furniture: PageFurniture;
}

/**
 * The one way a PDF is made (device and travel reports, invoices, the audit trail): the A4 document, the heading,
 * the body `draw` writes, the running header and footer stamped on every page once the page count is known, the
 * bytes. Unsigned: callers sign them.
 */
export async function renderDocument(setup: DocumentSetup, draw: (doc: Doc) => void): Promise<Buffer> {
  const doc = createReportDocument(setup.meta);
  drawReportHeading(doc, setup.heading);
  draw(doc);
  stampPages(doc, setup.furniture);
  return documentToBuffer(doc);
}

/** Ends the document and collects its bytes. */
export function documentToBuffer(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** Starts a new page unless `height` more points fit on this one; true when it started one. */
export function ensureSpace(doc: Doc, height: number): boolean {
  if (doc.y + height <= PAGE.bottom) return false;
  newPage(doc);
  return true;
}

/** A new page, with the cursor at the top of its content area. */
export function newPage(doc: Doc): void {
  doc.addPage();
  doc.x = PAGE.left;
  doc.y = PAGE.top;
}

/** Draws one line of text at (x, y) without wrapping, cut with "…" to `width` when given. */
export function textAt(doc: Doc, text: string, x: number, y: number, width?: number): void {
  const printable = toWinAnsi(text);
  doc.text(width === undefined ? printable : fit(doc, printable, width), x, y, { lineBreak: false });
}

/** Like textAt, aligned to the right edge `right`. */
export function textRightAt(doc: Doc, text: string, right: number, y: number, width?: number): void {
  const printable = width === undefined ? toWinAnsi(text) : fit(doc, toWinAnsi(text), width);
  doc.text(printable, right - doc.widthOfString(printable), y, { lineBreak: false });
}

/** The text cut with "…" so that it fits `width` in the current font (already WinAnsi). */
export function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (doc.widthOfString(`${text.slice(0, middle)}…`) <= width) low = middle;
    else high = middle - 1;
  }
  return `${text.slice(0, low).trimEnd()}…`;
}

/** Height of `text` wrapped to `width` in the current font. */
export function wrappedHeight(doc: Doc, text: string, width: number): number {
  return doc.heightOfString(toWinAnsi(text), { width, lineGap: 1 });
}

/** Wrapped text at (x, y) within `width`; the caller has made room for it (see wrappedHeight). */
export function paragraphAt(doc: Doc, text: string, x: number, y: number, width: number): void {
  doc.text(toWinAnsi(text), x, y, { width, lineGap: 1 });
}

export function horizontalRule(doc: Doc, y: number, color: string = COLOR.rule, width = 0.6): void {
  doc.save().moveTo(PAGE.left, y).lineTo(PAGE.right, y).lineWidth(width).strokeColor(color).stroke().restore();
}

/** The first page's heading: the brand, the report title (and subtitle), and the report id on the right. */
export interface ReportHeading {
  title: string;
  subtitle?: string;
  reportId: string;
  /** Above the id on the right ("Relatório" unless given). */
  kind?: string;
}

export function drawReportHeading(doc: Doc, heading: ReportHeading): void {
  const top = PAGE.top - 20;
  doc.font(FONT.bold).fontSize(20).fillColor(COLOR.brand);
  textAt(doc, 'Sentinela', PAGE.left, top);
  doc.font(FONT.regular).fontSize(8).fillColor(COLOR.muted);
  textRightAt(doc, heading.kind ?? 'Relatório', PAGE.right, top + 2);
  textRightAt(doc, heading.reportId, PAGE.right, top + 12, 260);
  doc.font(FONT.bold).fontSize(14).fillColor(COLOR.text);
  textAt(doc, heading.title, PAGE.left, top + 28, CONTENT_WIDTH);
  let y = top + 46;
  if (heading.subtitle) {
    doc.font(FONT.regular).fontSize(10).fillColor(COLOR.muted);
    textAt(doc, heading.subtitle, PAGE.left, y, CONTENT_WIDTH);
    y += 14;
  }
  horizontalRule(doc, y, COLOR.brand, 1.2);
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
  doc.x = PAGE.left;
  doc.y = y + 10;
}

/** A section title with a thin rule, kept on the same page as at least `keepWith` points of what follows. */
export function drawSectionTitle(doc: Doc, title: string, keepWith = 60): void {
  ensureSpace(doc, 26 + keepWith);
  const y = doc.y + 6;
  doc.font(FONT.bold).fontSize(11).fillColor(COLOR.brand);
  textAt(doc, title, PAGE.left, y, CONTENT_WIDTH);
  horizontalRule(doc, y + 14, COLOR.hairline);
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
  doc.y = y + 20;
}

/** A line of muted text (e.g. "Nenhuma leitura no período."). */
export function drawNote(doc: Doc, text: string): void {
  ensureSpace(doc, 16);
  doc.font(FONT.italic).fontSize(9).fillColor(COLOR.muted);
  textAt(doc, text, PAGE.left, doc.y, CONTENT_WIDTH);
  doc.font(FONT.regular).fillColor(COLOR.text);
  doc.y += 16;
}

export interface Field {
  label: string;
  value: string;
  /** Takes the whole width (long values: period, addresses, filters). */
  wide?: boolean;
}

const FIELD_GAP = 16;
const LABEL_WIDTH = 116;

/** Label/value pairs two to a row (a wide one alone), values wrapped within their column. */
export function drawFields(doc: Doc, fields: readonly Field[]): void {
  const columnWidth = (CONTENT_WIDTH - FIELD_GAP) / 2;
  const rows: Field[][] = [];
  for (const field of fields) {
    const last = rows.at(-1);
    if (!field.wide && last && last.length === 1 && !last[0]!.wide) last.push(field);
    else rows.push([field]);
  }
  doc.fontSize(9);
  for (const row of rows) {
    const width = row[0]!.wide ? CONTENT_WIDTH : columnWidth;
    const valueWidth = width - LABEL_WIDTH;
    doc.font(FONT.regular);
    const height = Math.max(...row.map((field) => wrappedHeight(doc, field.value, valueWidth))) + 3;
    ensureSpace(doc, height);
    const y = doc.y;
    row.forEach((field, column) => {
      const x = PAGE.left + column * (columnWidth + FIELD_GAP);
      doc.font(FONT.bold).fillColor(COLOR.muted);
      textAt(doc, field.label, x, y, LABEL_WIDTH - 6);
      doc.font(FONT.regular).fillColor(COLOR.text);
      paragraphAt(doc, field.value, x + LABEL_WIDTH, y, valueWidth);
    });
    doc.x = PAGE.left;
    doc.y = y + height;
  }
}

export interface PageFurniture {
  /** Right of the running header on pages after the first (e.g. the title and device). */
  runningTitle: string;
  /** "Gerado em … por …" */
  generated: string;
  reportId: string;
  /** What the id names in the footer ("Relatório" unless given, e.g. "Documento" for an invoice). */
  idLabel?: string;
}

/**
 * Stamps the running header (pages 2 on) and the footer (every page) once all pages exist. A long report has
 * hundreds of pages, so the texts go through the raw text writer (text-rows.ts) like table rows.
 */
export function stampPages(doc: Doc, furniture: PageFurniture): void {
  const writer = new TextRowWriter(doc, FONT.regular, FONT.bold, 7.5);
  const muted = rgbOperator(COLOR.muted);
  const brand = rgbOperator(COLOR.brand);
  const text = rgbOperator(COLOR.text);
  const line = (value: string, width: number) => writer.fit(toWinAnsi(value), width);
  const generated = line(furniture.generated, CONTENT_WIDTH - 80);
  const reportId = line(`${furniture.idLabel ?? 'Relatório'} ${furniture.reportId}`, CONTENT_WIDTH - 80);
  const running = line(furniture.runningTitle, CONTENT_WIDTH - 80);
  const footerTop = PAGE.bottom + 22;

  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const number = index - range.start + 1;
    if (number > 1) {
      writer.row(PAGE.top - 32, [
        { x: PAGE.left, text: 'Sentinela', bold: true, color: brand },
        { x: PAGE.right - writer.width(running), text: running, bold: false, color: muted },
      ]);
      horizontalRule(doc, PAGE.top - 20, COLOR.hairline);
    }
    horizontalRule(doc, footerTop - 6, COLOR.hairline);
    const page = pageLine(number, range.count);
    writer.row(footerTop, [
      { x: PAGE.left, text: generated, bold: false, color: muted },
      { x: PAGE.right - writer.width(page, true), text: page, bold: true, color: text },
    ]);
    writer.row(footerTop + 11, [{ x: PAGE.left, text: reportId, bold: false, color: muted }]);
    writer.flush();
  }
}
