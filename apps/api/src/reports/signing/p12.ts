/** Opening a PKCS#12 file with node-forge: its private key and the certificate that goes with it. */
import forge from 'node-forge';

export interface OpenedP12 {
  privateKey: forge.pki.rsa.PrivateKey;
  /** The certificate of the private key. */
  certificate: forge.pki.Certificate;
  /** Every certificate in the file (the signer's and its chain), to embed in signatures. */
  certificates: forge.pki.Certificate[];
  /** The signer's certificate as DER. */
  certificateDer: Buffer;
}

/** Decrypts the P12 (a wrong password throws) and finds the certificate whose public key matches the private key. */
export function openP12(p12: Buffer, password: string): OpenedP12 {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, password);
  } catch (error) {
    throw new Error(`Certificado de assinatura ilegível ou senha incorreta: ${(error as Error).message}`);
  }
  const keyOid = forge.pki.oids.pkcs8ShroudedKeyBag!;
  const certOid = forge.pki.oids.certBag!;
  const privateKey = parsed.getBags({ bagType: keyOid })[keyOid]?.[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!privateKey) throw new Error('Certificado de assinatura sem chave privada (RSA).');
  const certificates = (parsed.getBags({ bagType: certOid })[certOid] ?? []).flatMap((bag) => (bag.cert ? [bag.cert] : []));
  const certificate = certificates.find((cert) => {
    const publicKey = cert.publicKey as forge.pki.rsa.PublicKey;
    return publicKey.n.compareTo(privateKey.n) === 0 && publicKey.e.compareTo(privateKey.e) === 0;
  });
  if (!certificate) throw new Error('Certificado de assinatura sem o certificado da chave privada.');
  const certificateDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
  return { privateKey, certificate, certificates, certificateDer };
}
