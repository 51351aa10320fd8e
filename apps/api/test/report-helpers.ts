import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { LightMyRequestResponse } from 'fastify';
import { CLIENT_VERSION, type Report } from '@sentinela/contract';
import type { TestContext } from './context';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Polls a report every 50 ms until it leaves status 1 (queued), or fails the test after `timeoutMs`. */
export async function waitForReport(ctx: TestContext, token: string, id: string, timeoutMs = 30_000): Promise<Report> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await ctx.request('GET', `/api/reports/${id}`, token);
    if (res.statusCode !== 200) throw new Error(`GET /api/reports/${id}: ${res.statusCode} ${res.body}`);
    const report = res.json() as Report;
    if (report.status.id !== 1) return report;
    if (Date.now() > deadline) throw new Error(`report ${id} still queued after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface UploadPart {
  field?: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body, as a browser sends a file input. */
export function multipart(parts: UploadPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----sentinela-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field ?? 'file'}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType}\r\n\r\n`),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs files as multipart (signed in or anonymous). */
export function upload(ctx: TestContext, url: string, parts: UploadPart[], token?: string): Promise<LightMyRequestResponse> {
  const body = multipart(parts);
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      client: 'web',
      clientversion: CLIENT_VERSION,
      clientos: 'linux',
      'content-type': body.contentType,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: body.payload,
  });
}

export const pdfPart = (data: Buffer, filename = 'relatorio.pdf'): UploadPart => ({ filename, contentType: 'application/pdf', data });
export const xlsxPart = (data: Buffer, filename = 'relatorios.xlsx'): UploadPart => ({ filename, contentType: XLSX_TYPE, data });

/** A PDF made elsewhere: well-formed, but never generated (nor signed) by the platform. */
export function foreignPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.text('Relatório de temperatura — Sentinela');
    doc.end();
  });
}

/** An .xlsx with a header and the given rows (cells as they are: Date, text, null…). */
export async function xlsxWith(rows: unknown[][], header: readonly string[] = ['MAC', 'Data/Hora Início', 'Data/Hora Fim', 'Tipo (PDF ou EXCEL)']): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Relatórios');
  sheet.addRow([...header]);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Reads an .xlsx answer back. */
export async function readXlsx(data: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  return workbook;
}

/** A wall-clock time in São Paulo as Excel keeps it (UTC fields), from an instant. São Paulo is UTC−3 all year. */
export function saoPauloExcelDate(instant: Date): Date {
  const d = new Date(instant.getTime() - 3 * 3600_000);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()));
}

/** "DD/MM/YYYY HH:mm" in São Paulo of an instant (minutes precision). */
export function saoPauloText(instant: Date): string {
  const d = saoPauloExcelDate(instant);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/** The instant a São Paulo wall-clock minute means, truncated like the sheet keeps it. */
export function minuteOf(instant: Date): string {
  return new Date(Math.floor(instant.getTime() / 60_000) * 60_000).toISOString();
}
