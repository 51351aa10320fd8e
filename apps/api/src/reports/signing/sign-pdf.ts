/**
 * Signs a rendered PDF (R6): an incremental update adds an invisible signature field whose /Contents holds a
 * detached CMS (PKCS#7) signature over every byte of the file except that /Contents itself (/ByteRange). Any
 * standard tool (pdfsig, Acrobat) checks it; a change to any signed byte breaks the digest.
 */
import { createHash } from 'node:crypto';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SignPdf, Signer } from '@signpdf/signpdf';
import type { SigningIdentity } from './certificate';
import { CmsSigner } from './cms-signer';
import { asDocumentTimestamp } from './document-timestamp';
import { openP12 } from './p12';
import type { TimestampInfo } from './timestamp-token';
import type { Timestamper } from './tsa-client';

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

/** Room for a timestamp token in a signature's placeholder: the TSA's certificate (and chain), TSTInfo, signature. */
const TIMESTAMP_ROOM = 16 * 1024;

/** Whether a signature carries a timestamp: off (no TSA set), in the signature (B-T), or missing (the TSA failed). */
export type TimestampOutcome = { status: 'off' } | { status: 'signature'; info: TimestampInfo } | { status: 'missing'; error: unknown };

const outcomeOf = (info: TimestampInfo | null, error: unknown): TimestampOutcome => (info ? { status: 'signature', info } : { status: 'missing', error });

export interface SignedPdf {
  data: Buffer;
  timestamp: TimestampOutcome;
}

/** Signs a PDF without a timestamp (tests, tools); the application signs with `signPdfWithTimestamp`. */
export async function signPdf(pdf: Buffer, identity: SigningIdentity, info: SignatureInfo): Promise<Buffer> {
  return (await signPdfWithTimestamp(pdf, identity, info, undefined)).data;
}

/**
 * Signs a PDF; with a `timestamper` (REPORT_TSA_URL set) the signature carries an RFC 3161 signature timestamp
 * (PAdES B-T, ADR 79). A TSA that fails leaves the PDF signed without one: `timestamp.status` says so, and the
 * caller decides what to do (the reports add a document timestamp later).
 */
export async function signPdfWithTimestamp(pdf: Buffer, identity: SigningIdentity, info: SignatureInfo, timestamper: Timestamper | undefined): Promise<SignedPdf> {
  // The CMS embeds the certificates of the P12: a configured certificate with its chain needs more than the
  // library's 8 KiB default; the P12 (key + certificates) bounds what they take.
  const signatureLength = Math.max(8192, identity.p12.length + SIGNATURE_OVERHEAD) + (timestamper ? TIMESTAMP_ROOM : 0);
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: info.reason,
    location: info.location,
    contactInfo: info.contactInfo ?? '',
    name: info.name,
    signingTime: info.signingTime,
    signatureLength,
    appName: 'Sentinela',
  });
  if (!timestamper) return { data: await new SignPdf().sign(withStartXrefAtXref(withPlaceholder), signerFor(identity), info.signingTime), timestamp: { status: 'off' } };
  const signer = new TimestampingSigner(signerFor(identity), timestamper, signatureLength);
  const data = await new SignPdf().sign(withStartXrefAtXref(withPlaceholder), signer, info.signingTime);
  return { data, timestamp: signer.outcome };
}

/** One signature with a timestamp: the CMS signer of the identity, the TSA, and what came of asking it. */
class TimestampingSigner extends Signer {
  outcome: TimestampOutcome = { status: 'missing', error: new Error('not signed yet') };

  constructor(
    private readonly signer: CmsSigner,
    private readonly timestamper: Timestamper,
    private readonly maxBytes: number,
  ) {
    super();
  }

  override async sign(data: Buffer, signingTime?: Date): Promise<Buffer> {
    const { cms, timestamp, error } = await this.signer.signWithTimestamp(data, signingTime, this.timestamper, this.maxBytes);
    this.outcome = outcomeOf(timestamp, error);
    return cms;
  }
}

/**
 * Adds a document timestamp (ISO 32000-2 §12.8.5, PAdES: `/Type /DocTimeStamp`, `/SubFilter /ETSI.RFC3161`) to a
 * signed PDF in an incremental update: the /Contents is the TSA's token over the bytes of the whole new revision. The
 * earlier signature's bytes are untouched, so it stays valid; the token proves the file (signature included) existed
 * at its time. What a report signed while the TSA was down gets later (ADR 79). Throws when the TSA fails.
 */
export async function addDocumentTimestamp(pdf: Buffer, timestamper: Timestamper): Promise<{ data: Buffer; info: TimestampInfo }> {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: '',
    location: '',
    contactInfo: '',
    name: '',
    subFilter: 'ETSI.RFC3161',
    signatureLength: TIMESTAMP_ROOM,
  });
  const signer = new DocumentTimestampSigner(timestamper);
  const data = await new SignPdf().sign(withStartXrefAtXref(asDocumentTimestamp(withPlaceholder)), signer);
  return { data, info: signer.info! };
}

/** The "signer" of a document timestamp: the TSA's token over the signed bytes is the whole /Contents. */
class DocumentTimestampSigner extends Signer {
  info: TimestampInfo | null = null;

  constructor(private readonly timestamper: Timestamper) {
    super();
  }

  override async sign(data: Buffer): Promise<Buffer> {
    const { token, info } = await this.timestamper(data);
    this.info = info;
    return token;
  }
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

/**
 * The same detached signature with, when a `timestamper` is given (REPORT_TSA_URL set), an RFC 3161 signature
 * timestamp in its unsigned attributes (CAdES-T; ADR 79's B-T for a file that is not a PDF). A TSA that fails leaves
 * the signature without one, as for a PDF: `timestamp.status` says so.
 */
export async function signDetachedWithTimestamp(
  data: Buffer,
  identity: SigningIdentity,
  signingTime: Date | undefined,
  timestamper: Timestamper | undefined,
): Promise<{ cms: Buffer; timestamp: TimestampOutcome }> {
  if (!timestamper) return { cms: await signDetached(data, identity, signingTime), timestamp: { status: 'off' } };
  const { cms, timestamp, error } = await signerFor(identity).signWithTimestamp(data, signingTime, timestamper, Number.POSITIVE_INFINITY);
  return { cms, timestamp: outcomeOf(timestamp, error) };
}
