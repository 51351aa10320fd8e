import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDeviceReportPdf } from '../pdf/device-report';
import { pdfsig, signatureValidation } from '../testing/poppler';
import { sampleDeviceReport } from '../testing/sample-input';
import { identityFromP12 } from './certificate';
import { DEFAULT_SIGNATURE_INFO, signPdf, withStartXrefAtXref } from './sign-pdf';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-sign-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function rsaKeys() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

const utf8 = (shortName: string, value: string) => ({ shortName, value, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class });

/** A configured certificate as a CA would issue it: a leaf signed by a CA with an accented UTF-8 name, chain in the P12. */
function issuedP12(password: string): Buffer {
  const ca = rsaKeys();
  const leaf = rsaKeys();
  const caName = [utf8('C', 'BR'), utf8('O', 'Autoridade Certificadora de Testes'), utf8('CN', 'AC Testes São Paulo')];
  const caCertificate = forge.pki.createCertificate();
  caCertificate.publicKey = ca.publicKey;
  caCertificate.serialNumber = `01${randomBytes(8).toString('hex')}`;
  caCertificate.validity.notBefore = new Date(Date.now() - 86_400_000);
  caCertificate.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  caCertificate.setSubject(caName);
  caCertificate.setIssuer(caName);
  caCertificate.setExtensions([{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, critical: true }]);
  caCertificate.sign(ca.key, forge.md.sha256.create());

  const certificate = forge.pki.createCertificate();
  certificate.publicKey = leaf.publicKey;
  certificate.serialNumber = `02${randomBytes(8).toString('hex')}`;
  certificate.validity.notBefore = caCertificate.validity.notBefore;
  certificate.validity.notAfter = caCertificate.validity.notAfter;
  certificate.setSubject([utf8('C', 'BR'), utf8('O', 'Farmácia São João Ltda.'), utf8('CN', 'JOSÉ CONCEIÇÃO:12345678900')]);
  certificate.setIssuer(caName);
  certificate.setExtensions([{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true }, { name: 'extKeyUsage', emailProtection: true }]);
  certificate.sign(ca.key, forge.md.sha256.create());

  const p12 = forge.pkcs12.toPkcs12Asn1(leaf.key, [certificate, caCertificate], password, { algorithm: 'aes256' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

describe('signPdf', () => {
  it('signs with a configured certificate issued under an accented UTF-8 name, chain included', async () => {
    // node-forge re-encodes such names when it writes the signer's issuer (see cms-signer.ts): this is the case
    // that @signpdf/signer-p12 gets wrong.
    const identity = identityFromP12(issuedP12('segredo'), 'segredo');
    expect(identity.subject).toBe('CN=JOSÉ CONCEIÇÃO:12345678900, O=Farmácia São João Ltda., C=BR');
    const pdf = await renderDeviceReportPdf(sampleDeviceReport({ readings: 50 }));
    const file = path.join(dir, 'configured.pdf');
    await writeFile(file, await signPdf(pdf, identity, { reason: 'Relatório gerado pela plataforma Sentinela', location: 'Brasil', name: 'Sentinela', contactInfo: 'suporte@sentinela.example' }));
    const report = await pdfsig(file);
    expect(signatureValidation(report)).toBe('Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: JOSÉ CONCEIÇÃO:12345678900');
  });

  it('records the reason, location and signing time it is given', async () => {
    const identity = identityFromP12(issuedP12('x'), 'x');
    const pdf = await renderDeviceReportPdf(sampleDeviceReport({ readings: 5 }));
    const signed = await signPdf(pdf, identity, { reason: 'Relatório gerado pela plataforma Sentinela', location: 'Brasil', name: 'Sentinela', signingTime: new Date('2026-03-10T13:45:30Z') });
    const file = path.join(dir, 'info.pdf');
    await writeFile(file, signed);
    const report = await pdfsig(file);
    expect(signatureValidation(report)).toBe('Signature is Valid.');
    expect(report).toContain('Signing Time: Mar 10 2026 13:45:30');
    // The signed file starts with the unsigned one: the signature is an incremental update.
    expect(signed.subarray(0, pdf.length - 10).equals(pdf.subarray(0, pdf.length - 10))).toBe(true);
    expect(signed.toString('latin1')).toMatch(/\/Location \(Brasil\)/);
  });

  it('points the startxref and /Prev of every revision at an xref keyword (the library wrote it one byte early)', async () => {
    const identity = identityFromP12(issuedP12('x'), 'x');
    const signed = await signPdf(await renderDeviceReportPdf(sampleDeviceReport({ readings: 5 })), identity, DEFAULT_SIGNATURE_INFO);
    const text = signed.toString('latin1');
    const offsets = [...text.matchAll(/startxref\n(\d+)\n/g)].map((m) => Number(m[1]));
    // pdfkit's own revision and the signature's incremental update.
    expect(offsets).toHaveLength(2);
    for (const offset of offsets) expect(text.slice(offset, offset + 5), `offset ${offset}`).toBe('xref\n');
    // The update's trailer chains to the first revision's table, and its last startxref is the file's last one.
    expect(Number(/\/Prev (\d+)/.exec(text.slice(offsets[1]!))?.[1])).toBe(offsets[0]);
    expect(text.trimEnd().endsWith(`startxref\n${offsets[1]}\n%%EOF`)).toBe(true);
  });

  it('leaves a startxref that is already right as it is', () => {
    const body = '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n';
    const at = (offset: number) => Buffer.from(`${body}xref\n0 1\n0000000000 65535 f \ntrailer\n<<>>\nstartxref\n${offset}\n%%EOF`, 'latin1');
    const right = at(body.length);
    expect(withStartXrefAtXref(right).equals(right)).toBe(true);
    expect(withStartXrefAtXref(at(body.length - 1)).equals(right)).toBe(true);
  });
});
