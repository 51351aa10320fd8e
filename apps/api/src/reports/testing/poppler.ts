/**
 * The poppler tools (Debian poppler-utils: pdfsig, pdftotext, pdftoppm, pdfinfo) as the report tests use them:
 * an independent reader of what the renderers and the signer produce.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** pdfsig's report. It exits 0 whether or not the signature holds: read "Signature Validation: …". */
export async function pdfsig(file: string): Promise<string> {
  const { stdout } = await run('pdfsig', [file]);
  return stdout;
}

/** The signature validation line of pdfsig's report, e.g. "Signature is Valid." or "Digest Mismatch.". */
export function signatureValidation(report: string): string | null {
  return /Signature Validation: (.*)/.exec(report)?.[1]?.trim() ?? null;
}

/** Text of pages `first`–`last` in reading order (UTF-8). */
export async function pdftotext(file: string, first = 1, last = first): Promise<string> {
  const { stdout } = await run('pdftotext', ['-f', String(first), '-l', String(last), '-enc', 'UTF-8', '-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export async function pageCount(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  return Number(/Pages:\s+(\d+)/.exec(stdout)?.[1]);
}

export interface GrayImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black … 255 white. */
  pixels: Uint8Array;
}

/** Page `page` rasterised in grey at `dpi` (pdftoppm's binary PGM, trivially parsed). */
export async function renderGray(file: string, page = 1, dpi = 30): Promise<GrayImage> {
  const { stdout } = await run('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), file], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  // "P5\n<width> <height>\n<max>\n" then the bytes (255 as max: one byte each).
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(stdout.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not produce a PGM image');
  const [text, width, height] = [header[0], Number(header[1]), Number(header[2])];
  return { width, height, pixels: new Uint8Array(stdout.subarray(text.length, text.length + width * height)) };
}

/** Share of pixels darker than near-white. */
export function inkCoverage(image: GrayImage): number {
  let ink = 0;
  for (const value of image.pixels) if (value < 200) ink++;
  return ink / image.pixels.length;
}
