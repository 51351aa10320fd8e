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
  return new SignPdf().sign(withPlaceholder, signerFor(identity), info.signingTime);
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
