/**
 * Signs a rendered PDF (R6): an incremental update adds an invisible signature field whose /Contents holds a
 * detached CMS (PKCS#7) signature over every byte of the file except that /Contents itself (/ByteRange). Any
 * standard tool (pdfsig, Acrobat) checks it; a change to any signed byte breaks the digest.
 */
import { createHash } from 'node:crypto';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SignPdf } from '@signpdf/signpdf';
import type { SigningIdentity } from './certificate';
import { CmsSigner } from './cms-signer';
import { openP12 } from './p12';

export interface SignatureInfo {
  /** e.g. "Relatório gerado pela plataforma Sentinela" */
  reason: string;
  /** e.g. "Brasil" */
  location: string;
  contactInfo?: string;
  /** Signer's name shown by PDF readers, e.g. "Sentinela". */
  name: string;
  /** Signing time recorded in the signature (now by default). */
  signingTime?: Date;
}

export const DEFAULT_SIGNATURE_INFO: SignatureInfo = {
  reason: 'Relatório gerado pela plataforma Sentinela',
  location: 'Brasil',
  name: 'Sentinela',
};

/** Room reserved for the CMS beyond the certificates it embeds (signature, attributes, structure). */
const SIGNATURE_OVERHEAD = 4096;

export async function signPdf(pdf: Buffer, identity: SigningIdentity, info: SignatureInfo): Promise<Buffer> {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: info.reason,
    location: info.location,
    contactInfo: info.contactInfo ?? '',
    name: info.name,
    signingTime: info.signingTime,
    // The CMS embeds the certificates of the P12: a configured certificate with its chain needs more than the
    // library's 8 KiB default; the P12 (key + certificates) bounds what they take.
    signatureLength: Math.max(8192, identity.p12.length + SIGNATURE_OVERHEAD),
    appName: 'Sentinela',
  });
  return new SignPdf().sign(withStartXrefAtXref(withPlaceholder), signerFor(identity), info.signingTime);
}

const TAIL = /startxref\n(\d+)\n%%EOF\s*$/;

/**
 * @signpdf/placeholder-plain 3.3.0 writes the update's `startxref` as the file's length before the newline it then
 * puts in front of `xref`: one byte early, so strict readers fall back to rebuilding the cross-reference table.
 * Points it at the `xref` keyword (done before signing: the signature covers these bytes). A file whose offset is
 * already right is left as it is, so a fixed library makes this a no-op.
 */
export function withStartXrefAtXref(pdf: Buffer): Buffer {
  const tailStart = Math.max(0, pdf.length - 64);
  const tail = TAIL.exec(pdf.toString('latin1', tailStart));
  if (!tail) return pdf;
  const offset = Number(tail[1]);
  if (pdf.toString('latin1', offset, offset + 4) === 'xref') return pdf;
  if (pdf.toString('latin1', offset, offset + 5) !== '\nxref') return pdf;
  const fixed = `startxref\n${offset + 1}\n%%EOF`;
  return Buffer.concat([pdf.subarray(0, tailStart + tail.index), Buffer.from(fixed, 'latin1')]);
}

/**
 * Opened signers by P12 and password. An identity may reach a worker thread as a structured clone per task, so the
 * cache is keyed by content, not by object; a process uses one or two identities, the bound is a safeguard.
 */
const signers = new Map<string, CmsSigner>();

function signerFor(identity: SigningIdentity): CmsSigner {
  const key = createHash('sha256').update(identity.p12).update('\0').update(identity.password).digest('hex');
  let signer = signers.get(key);
  if (!signer) {
    if (signers.size >= 8) signers.clear();
    signer = new CmsSigner(openP12(identity.p12, identity.password));
    signers.set(key, signer);
  }
  return signer;
}

/**
 * A detached CMS (PKCS#7, DER) signature of any bytes with the reports' certificate: what a file that cannot hold a
 * signature (a CSV) is handed out with, as `<file>.p7s` (`openssl cms -verify -binary -inform DER -content <file>`).
 */
export function signDetached(data: Buffer, identity: SigningIdentity, signingTime?: Date): Promise<Buffer> {
  return signerFor(identity).sign(data, signingTime);
}
