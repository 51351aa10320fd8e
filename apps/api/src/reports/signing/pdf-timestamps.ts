/**
 * The RFC 3161 timestamps a signed PDF carries (ADR 79), as the validator reads them from the uploaded bytes: the
 * signature timestamps inside each signature's CMS (id-aa-timeStampToken, over the signature value) and the document
 * timestamps (/DocTimeStamp, /Contents is a token over the revision's bytes). Each one is checked: its own signature
 * holds with its certificate, and it stamps exactly what it should.
 */
import { createHash } from 'node:crypto';
import { isTimestampToken, readTimestampToken, signatureTimestamps, trimDerPadding, TimestampError, type TimestampInfo } from './timestamp-token';

export interface PdfTimestamp {
  kind: 'signature' | 'document';
  time: Date;
  authority: string;
  /** The token's signature holds and its imprint is the SHA-256 (or other hash it names) of what it stamps. */
  valid: boolean;
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

export function pdfTimestamps(pdf: Buffer): PdfTimestamp[] {
  const text = pdf.toString('latin1');
  const found: PdfTimestamp[] = [];
  for (const match of text.matchAll(BYTE_RANGE)) {
    const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number];
    if (a !== 0 || b < 1 || c <= b || c + d > pdf.length || pdf[b] !== 0x3c || pdf[c - 1] !== 0x3e) continue;
    const contents = trimDerPadding(Buffer.from(pdf.toString('latin1', b + 1, c - 1), 'hex'));
    if (contents.length < 16) continue;
    try {
      if (isTimestampToken(contents)) {
        const info = readTimestampToken(contents);
        const signed = Buffer.concat([pdf.subarray(a, b), pdf.subarray(c, c + d)]);
        found.push(stamp('document', info, signed));
      } else {
        for (const { token, signatureValue } of signatureTimestamps(contents)) found.push(stamp('signature', readTimestampToken(token), signatureValue));
      }
    } catch (error) {
      if (!(error instanceof TimestampError)) throw error;
      // A signature whose contents are no CMS we can read carries no timestamp we can show.
    }
  }
  return found;
}

function stamp(kind: PdfTimestamp['kind'], info: TimestampInfo, stamped: Buffer): PdfTimestamp {
  const imprintOk = info.imprintAlgorithm !== null && createHash(info.imprintAlgorithm).update(stamped).digest().equals(info.imprint);
  return { kind, time: info.time, authority: info.authority, valid: info.signatureValid && imprintOk };
}
