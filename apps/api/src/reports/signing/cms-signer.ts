/**
 * The CMS (PKCS#7) signer of the reports, written in place of @signpdf/signer-p12's P12Signer (no longer a dependency), which it follows closely
 * (same structure and signed attributes: content type, signing time, message digest; SHA-256; detached) except:
 *
 * - The issuer name of the SignerInfo is written as it is in the certificate. node-forge keeps a parsed UTF8String
 *   name as raw UTF-8 bytes and encodes it again when writing it, so with P12Signer a certificate named with an
 *   accent ("Assinatura de relatórios", or a configured "JOSÉ …" certificate) yields a SignerInfo naming an issuer
 *   no certificate has: pdfsig answers "Unknown Validation Failure", OpenSSL "signer certificate not found".
 * - The P12 is opened once per identity rather than on every signature (it is PBKDF2-protected: tens of ms in JS).
 * - The RSA operation runs in OpenSSL (Node's crypto) rather than forge's JavaScript big integers.
 */
import { createPrivateKey, type KeyObject, privateEncrypt, constants } from 'node:crypto';
import { Signer } from '@signpdf/signpdf';
import forge from 'node-forge';
import type { OpenedP12 } from './p12';
import { signatureValueOf, withTimestampToken } from './timestamp-token';
import type { Timestamper } from './tsa-client';

/** DER prefix of a SHA-256 DigestInfo (RFC 8017 §9.2): RSASSA-PKCS1-v1_5 signs this followed by the digest. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

export class CmsSigner extends Signer {
  private readonly key: KeyObject;
  private readonly issuer: forge.pki.CertificateField[];

  constructor(private readonly opened: OpenedP12) {
    super();
    this.key = createPrivateKey(forge.pki.privateKeyToPem(opened.privateKey));
    this.issuer = opened.certificate.issuer.attributes.map((attribute) =>
      attribute.valueTagClass === (forge.asn1.Type.UTF8 as unknown) && typeof attribute.value === 'string'
        ? { ...attribute, value: forge.util.decodeUtf8(attribute.value) }
        : attribute,
    );
  }

  /**
   * Signs, then asks `timestamper` for a token over the SignerInfo's signature value and adds it as the unsigned
   * attribute id-aa-timeStampToken (RFC 3161 App. A; PAdES B-T). A token that cannot be had or that would not fit in
   * `maxBytes` leaves the signature without one: `timestamp` null and the reason in `error` — never a lost signature.
   */
  async signWithTimestamp(
    data: Buffer,
    signingTime: Date | undefined,
    timestamper: Timestamper,
    maxBytes: number,
  ): Promise<{ cms: Buffer; timestamp: Awaited<ReturnType<Timestamper>>['info'] | null; error: unknown }> {
    const cms = await this.sign(data, signingTime);
    try {
      const { token, info } = await timestamper(signatureValueOf(cms));
      const stamped = withTimestampToken(cms, token);
      if (stamped.length > maxBytes) return { cms, timestamp: null, error: new Error(`the timestamped signature (${stamped.length} bytes) exceeds the ${maxBytes} reserved`) };
      return { cms: stamped, timestamp: info, error: null };
    } catch (error) {
      return { cms, timestamp: null, error };
    }
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString('binary'));
    for (const certificate of this.opened.certificates) p7.addCertificate(certificate);
    const key = this.key;
    // forge calls key.sign(md, scheme) with the digest of the signed attributes.
    const rsaKey = {
      sign: (md: forge.md.MessageDigest) =>
        privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')])).toString('binary'),
    };
    p7.addSigner({
      key: rsaKey as unknown as forge.pki.rsa.PrivateKey,
      issuer: this.issuer,
      serialNumber: this.opened.certificate.serialNumber,
      digestAlgorithm: forge.pki.oids.sha256!,
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType!, value: forge.pki.oids.data },
        { type: forge.pki.oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest! },
      ],
    } as unknown as Parameters<typeof p7.addSigner>[0]);
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}
