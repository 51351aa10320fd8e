import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { CLIENT_VERSION } from '@sentinela/contract';
import type { TestContext } from './context';

/** The add-version form of the firmware screen (M1), as a browser sends it. */
export type FormPart = { name: string; value: string } | { name: string; filename: string; data: Buffer };

/** A multipart/form-data body as the add-version form sends it: fields first, then the file. */
function form(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----firmware-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'value' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    chunks.push(Buffer.from(head), 'value' in part ? Buffer.from(part.value) : part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const headers = { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };
export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** Bytes that are not text: a firmware image as a gateway would flash it. */
export const image = (size: number, seed = 7) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256));

export function postFirmware(ctx: TestContext, token: string | undefined, parts: FormPart[], options: { stream?: boolean } = {}) {
  const body = form(parts);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/firmwares',
    headers: { ...headers, 'content-type': body.contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    // A stream has no declared length: the server must cut it off at the limit as it arrives.
    payload: options.stream ? Readable.from([body.payload.subarray(0, 100), body.payload.subarray(100)]) : body.payload,
  });
}

export const version = (value: string): FormPart => ({ name: 'version', value });
export const notes = (value: string): FormPart => ({ name: 'notes', value });
export const file = (data: Buffer, filename = 'sentinela-gw.bin'): FormPart => ({ name: 'file', filename, data });

