/**
 * RFC 3161 time-stamp protocol, the parts a signer and a validator need (ADR 79): the request (TimeStampReq), the
 * checks of the answer (status, nonce, message imprint), and reading a token (TimeStampToken, a CMS SignedData over
 * a TSTInfo): its time, its authority, what it stamps, and whether its own signature holds.
 *
 * ASN.1 is read and written with node-forge (already the reports' CMS library); certificates and signature
 * verification use Node's crypto (any key type OpenSSL knows). Tokens are kept as the exact bytes the TSA sent.
 */
import { createHash, randomBytes, verify as verifySignature, X509Certificate } from 'node:crypto';
import forge from 'node-forge';

const asn1 = forge.asn1;
type Asn1 = forge.asn1.Asn1;

export const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
/** id-aa-timeStampToken: the unsigned attribute of a SignerInfo that holds a signature timestamp (RFC 3161 App. A). */
export const OID_TIMESTAMP_TOKEN_ATTRIBUTE = '1.2.840.113549.1.9.16.2.14';

/** Hash algorithms a token may use for its imprint and its own signature, by OID. */
const HASHES: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.3.14.3.2.26': 'sha1',
};

/** A TSA answer that cannot be used; `message` says why (for the server's log). */
export class TimestampError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimestampError';
  }
}

const der = (node: Asn1): Buffer => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const bytesOf = (node: Asn1): Buffer => Buffer.from(node.value as string, 'binary');
/** Parses DER strictly, keeping BIT STRINGs as bytes so that writing the tree back gives the same bytes. */
export const parseDer = (data: Buffer): Asn1 =>
  // The typings know only the old boolean `strict` argument; forge 1.x takes these options.
  asn1.fromDer(forge.util.createBuffer(data.toString('binary')), { strict: true, decodeBitStrings: false } as unknown as boolean);
const children = (node: Asn1 | undefined): Asn1[] => (node && Array.isArray(node.value) ? (node.value as Asn1[]) : []);
const isUniversal = (node: Asn1 | undefined, type: number) => node?.tagClass === asn1.Class.UNIVERSAL && node.type === type;
const isContext = (node: Asn1 | undefined, tag: number) => node?.tagClass === asn1.Class.CONTEXT_SPECIFIC && node.type === tag;
const oidOf = (node: Asn1 | undefined): string | null => (isUniversal(node, asn1.Type.OID) ? asn1.derToOid(node!.value as string) : null);
/** An INTEGER's content bytes without the sign-padding zero, to compare two encodings of one number. */
const integerBytes = (node: Asn1 | undefined): Buffer | null => {
  if (!isUniversal(node, asn1.Type.INTEGER)) return null;
  const b = bytesOf(node!);
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
};

/** A fresh nonce: 64 random bits, positive (a DER INTEGER with its high bit clear). */
export function newNonce(): Buffer {
  const nonce = randomBytes(8);
  nonce[0] = nonce[0]! & 0x7f || 1;
  return nonce;
}

/** TimeStampReq (RFC 3161 §2.4.1) for SHA-256 of `data`: version 1, the imprint, the nonce, certReq TRUE. */
export function timeStampRequest(imprint: Buffer, nonce: Buffer): Buffer {
  return der(
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(1).getBytes()),
      messageImprint(imprint),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, nonce.toString('binary')),
      // The TSA's certificate inside the token: the validator names the authority and checks the signature with it.
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BOOLEAN, false, String.fromCharCode(0xff)),
    ]),
  );
}

function messageImprint(imprint: Buffer): Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(OID_SHA256).getBytes()),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, imprint.toString('binary')),
  ]);
}

/**
 * The token of a TimeStampResp (RFC 3161 §2.4.2), after checking everything a requester must: status granted (0)
 * or granted with modifications (1), a token whose TSTInfo stamps `imprint` with SHA-256 and repeats `nonce`, and
 * whose signature holds with the certificate it carries. Throws `TimestampError` otherwise.
 */
export function tokenFromResponse(response: Buffer, expected: { imprint: Buffer; nonce: Buffer }): { token: Buffer; info: TimestampInfo } {
  let root: Asn1;
  try {
    root = parseDer(response);
  } catch {
    throw new TimestampError('the answer is not DER');
  }
  const [statusInfo, tokenNode] = children(root);
  const status = integerBytes(children(statusInfo)[0]);
  if (!status) throw new TimestampError('the answer has no PKIStatusInfo');
  const code = status.length === 1 ? status[0]! : -1;
  if (code !== 0 && code !== 1) throw new TimestampError(`the TSA refused the request (status ${code})`);
  if (!tokenNode) throw new TimestampError('the answer has no token');
  const token = der(tokenNode);
  const info = readTimestampToken(token);
  if (!info.signatureValid) throw new TimestampError("the token's signature does not verify with its certificate");
  if (info.imprintAlgorithm !== 'sha256' || !info.imprint.equals(expected.imprint)) throw new TimestampError('the token stamps another message imprint');
  // newNonce() never starts with a zero byte: its bytes are the INTEGER's minimal content.
  if (!info.nonce || !info.nonce.equals(expected.nonce)) throw new TimestampError('the token does not repeat the nonce');
  return { token, info };
}

/** What a token says. */
export interface TimestampInfo {
  /** genTime: when the TSA stamped. */
  time: Date;
  /** The subject of the certificate that signed the token (the TSA), e.g. "CN=Carimbo, O=AC, C=BR". */
  authority: string;
  imprintAlgorithm: string | null;
  imprint: Buffer;
  nonce: Buffer | null;
  /** The token's CMS signature holds with the certificate it names (not a judgement on that certificate's trust). */
  signatureValid: boolean;
}

/** Whether a CMS SignedData encapsulates a TSTInfo (a token, e.g. a document timestamp's /Contents) rather than a signature's content. */
export function isTimestampToken(cms: Buffer): boolean {
  try {
    const signedData = children(children(children(parseDer(cms))[1])[0]);
    const encap = signedData.find((n, i) => i > 1 && isUniversal(n, asn1.Type.SEQUENCE));
    return oidOf(children(encap)[0]) === OID_TST_INFO;
  } catch {
    return false;
  }
}

/** Reads a TimeStampToken (DER ContentInfo). Throws `TimestampError` when it is not one. */
export function readTimestampToken(token: Buffer): TimestampInfo {
  let root: Asn1;
  try {
    root = parseDer(token);
  } catch {
    throw new TimestampError('the token is not DER');
  }
  const [contentType, explicit] = children(root);
  if (oidOf(contentType) !== OID_SIGNED_DATA || !isContext(explicit, 0)) throw new TimestampError('the token is not a CMS SignedData');
  const signedData = children(children(explicit)[0]);
  const encap = signedData.find((n, i) => i > 1 && isUniversal(n, asn1.Type.SEQUENCE));
  if (!encap || oidOf(children(encap)[0]) !== OID_TST_INFO) throw new TimestampError('the token does not carry a TSTInfo');
  const content = children(children(encap)[1])[0];
  if (!content) throw new TimestampError('the token has no TSTInfo');
  // The eContent OCTET STRING may be constructed (BER) in some tokens: its pieces joined.
  const tstInfoDer = isUniversal(content, asn1.Type.OCTETSTRING) && Array.isArray(content.value) ? Buffer.concat(children(content).map(bytesOf)) : bytesOf(content);
  const tstInfo = children(parseDer(tstInfoDer));
  // TSTInfo: version, policy, messageImprint, serialNumber, genTime, accuracy?, ordering?, nonce?, tsa [0]?, extensions [1]?
  const [algorithm, hashed] = children(tstInfo[2]);
  const genTime = tstInfo[4];
  if (!isUniversal(genTime, asn1.Type.GENERALIZEDTIME) || !hashed) throw new TimestampError('the TSTInfo is malformed');
  const time = asn1.generalizedTimeToDate(genTime!.value as string);
  const nonceNode = tstInfo.slice(5).find((n) => isUniversal(n, asn1.Type.INTEGER));

  const certificates = children(signedData.find((n) => isContext(n, 0))).filter((n) => isUniversal(n, asn1.Type.SEQUENCE)).map((n) => der(n));
  const signerInfo = children(signedData[signedData.length - 1])[0];
  const signer = verifySigner(signerInfo, certificates, tstInfoDer);
  return {
    time,
    authority: signer.certificate ? subjectLine(signer.certificate) : 'Autoridade não identificada',
    imprintAlgorithm: HASHES[oidOf(children(algorithm)[0]) ?? ''] ?? null,
    imprint: bytesOf(hashed),
    nonce: nonceNode ? integerBytes(nonceNode) : null,
    signatureValid: signer.valid,
  };
}

/**
 * Checks the token's SignerInfo: its message digest attribute is the hash of the TSTInfo, and its signature over the
 * signed attributes (re-tagged as a SET, RFC 5652 §5.4) holds with one of the token's certificates.
 */
function verifySigner(signerInfo: Asn1 | undefined, certificates: Buffer[], content: Buffer): { valid: boolean; certificate: X509Certificate | null } {
  const parts = children(signerInfo);
  const digestAlgorithm = HASHES[oidOf(children(parts[2])[0]) ?? ''];
  const signedAttrs = parts.find((n) => isContext(n, 0));
  const signature = parts.find((n) => isUniversal(n, asn1.Type.OCTETSTRING));
  const parsed = certificates.flatMap((c) => {
    try {
      return [new X509Certificate(c)];
    } catch {
      return [];
    }
  });
  if (!digestAlgorithm || !signedAttrs || !signature) return { valid: false, certificate: parsed[0] ?? null };
  const attribute = (oid: string) => children(signedAttrs).find((a) => oidOf(children(a)[0]) === oid);
  const digest = children(children(attribute(OID_MESSAGE_DIGEST))[1])[0];
  const contentTypeOk = oidOf(children(children(attribute(OID_CONTENT_TYPE))[1])[0]) === OID_TST_INFO;
  const digestOk = !!digest && bytesOf(digest).equals(createHash(digestAlgorithm).update(content).digest());
  const signedBytes = der(signedAttrs);
  signedBytes[0] = 0x31; // [0] IMPLICIT → SET OF, as signed
  for (const certificate of parsed) {
    let holds = false;
    try {
      holds = verifySignature(digestAlgorithm, signedBytes, certificate.publicKey, bytesOf(signature));
    } catch {
      holds = false;
    }
    if (holds) return { valid: digestOk && contentTypeOk, certificate };
  }
  return { valid: false, certificate: parsed[0] ?? null };
}

/** "CN=…, O=…, C=BR": the certificate's subject, most specific first, as people read it. */
function subjectLine(certificate: X509Certificate): string {
  return certificate.subject.split('\n').filter(Boolean).reverse().join(', ');
}

/**
 * The timestamp tokens of a CMS SignedData (a PDF signature's /Contents): the id-aa-timeStampToken unsigned
 * attributes of its SignerInfos, with the signature value each one should stamp.
 */
export function signatureTimestamps(cms: Buffer): Array<{ token: Buffer; signatureValue: Buffer }> {
  let root: Asn1;
  try {
    root = parseDer(trimDerPadding(cms));
  } catch {
    return [];
  }
  const signedData = children(children(children(root)[1])[0]);
  const signerInfos = children(signedData[signedData.length - 1]);
  return signerInfos.flatMap((signerInfo) => {
    const parts = children(signerInfo);
    const signature = parts.find((n) => isUniversal(n, asn1.Type.OCTETSTRING));
    const unsigned = parts.find((n) => isContext(n, 1));
    if (!signature || !unsigned) return [];
    return children(unsigned)
      .filter((a) => oidOf(children(a)[0]) === OID_TIMESTAMP_TOKEN_ATTRIBUTE)
      .flatMap((a) => children(children(a)[1]).map((t) => ({ token: der(t), signatureValue: bytesOf(signature) })));
  });
}

/** The DER of a PDF's /Contents is followed by the placeholder's zero padding: only the outer TLV's own length counts. */
export function trimDerPadding(data: Buffer): Buffer {
  if (data.length < 2) return data;
  const first = data[1]!;
  if (first < 0x80) return data.subarray(0, 2 + first);
  const size = first & 0x7f;
  let length = 0;
  for (let i = 0; i < size; i++) length = length * 256 + data[2 + i]!;
  return data.subarray(0, 2 + size + length);
}

/**
 * Adds a token as the id-aa-timeStampToken unsigned attribute of a CMS's (only) SignerInfo. The CMS is re-written
 * from its parsed tree; DER in, the same DER out for every untouched part (checked: otherwise the original signature
 * bytes could change).
 */
export function withTimestampToken(cms: Buffer, token: Buffer): Buffer {
  const root = parseDer(cms);
  if (!der(root).equals(cms)) throw new TimestampError('the CMS does not re-encode to the same bytes');
  const tokenNode = parseDer(token);
  if (!der(tokenNode).equals(token)) throw new TimestampError('the token does not re-encode to the same bytes');
  const signedData = children(children(children(root)[1])[0]);
  const signerInfo = children(signedData[signedData.length - 1])[0];
  if (!signerInfo) throw new TimestampError('the CMS has no SignerInfo');
  (signerInfo.value as Asn1[]).push(
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(OID_TIMESTAMP_TOKEN_ATTRIBUTE).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [tokenNode]),
      ]),
    ]),
  );
  return der(root);
}

/** The signature value (SignerInfo.signature) of a CMS with one signer: what a signature timestamp stamps. */
export function signatureValueOf(cms: Buffer): Buffer {
  const signedData = children(children(children(parseDer(cms))[1])[0]);
  const signature = children(children(signedData[signedData.length - 1])[0]).find((n) => isUniversal(n, asn1.Type.OCTETSTRING));
  if (!signature) throw new TimestampError('the CMS has no signature value');
  return bytesOf(signature);
}
