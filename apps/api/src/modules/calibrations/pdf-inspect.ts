import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';

/** What a file turned out to be: a PDF with its page count, or not a PDF (and why, for the log). */
export type PdfCheck = { pdf: true; pages: number } | { pdf: false; reason: string };

/** ISO 32000-1 (7.5.2, implementation note): readers find the header within the first 1024 bytes. */
const HEADER_WINDOW = 1024;
const HEADER = Buffer.from('%PDF-');

/**
 * Whether the file is a PDF by its content, never by its name or declared type: the `%PDF-` header, then a parse of
 * its cross-reference and object graph (pdf-lib) down to a catalog with at least one page. Encrypted certificates
 * (permissions passwords are common on laboratory PDFs) are parsed without being decrypted: only the bytes are kept.
 */
export async function inspectPdf(path: string): Promise<PdfCheck> {
  const bytes = await readFile(path);
  if (bytes.subarray(0, HEADER_WINDOW).indexOf(HEADER) < 0) return { pdf: false, reason: 'no %PDF- header' };
  try {
    const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true });
    const pages = document.getPageCount();
    return pages > 0 ? { pdf: true, pages } : { pdf: false, reason: 'no pages' };
  } catch (error) {
    return { pdf: false, reason: error instanceof Error ? error.message.slice(0, 200) : 'unparseable' };
  }
}
