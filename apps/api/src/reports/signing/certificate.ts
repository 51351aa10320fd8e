/**
 * The certificate reports are signed with (R6, ADR 10): a P12 the operator configures (e.g. an ICP-Brasil
 * certificate), or else a self-signed platform certificate created at first start and kept in the data directory.
 *
 * Several API processes may start at once on a fresh data directory: only one may create the certificate, or
 * reports signed by one process would carry a certificate that another process overwrote. The creator holds a lock
 * file (created exclusively), writes the password and then the P12 each to a temporary file renamed into place —
 * the P12 last, so that a P12 on disk always has its password next to it — and everyone reads the files back.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import forge from 'node-forge';
import { openP12 } from './p12';

export interface SigningIdentity {
  /** PKCS#12 (DER) holding the private key and the certificate (and its chain, for a configured one). */
  p12: Buffer;
  password: string;
  /** The signing certificate's subject, e.g. "CN=Sentinela - Assinatura de relatórios, O=Sentinela, C=BR". */
  subject: string;
  /** SHA-256 of the signing certificate (DER), lowercase hex. */
  fingerprintSha256: string;
}

export interface SigningIdentityOptions {
  /** Where the platform certificate lives (created when missing). */
  dir: string;
  /** A configured P12 to use instead of the platform certificate. */
  p12Path?: string;
  p12Password?: string;
}

export const PLATFORM_P12 = 'platform.p12';
export const PLATFORM_PASSWORD = 'platform.p12.password';
const LOCK = 'platform.p12.lock';
/** A lock older than this was left by a process that died while creating the certificate. */
const STALE_LOCK_MS = 60_000;
const WAIT_LIMIT_MS = 90_000;
const VALIDITY_YEARS = 10;

/** In X.500 order, country first (subject: "CN=Sentinela - Assinatura de relatórios, O=Sentinela, C=BR"). */
export const PLATFORM_SUBJECT = [
  { shortName: 'C', value: 'BR' },
  { shortName: 'O', value: 'Sentinela' },
  { shortName: 'CN', value: 'Sentinela - Assinatura de relatórios' },
];

export async function loadOrCreateSigningIdentity(options: SigningIdentityOptions): Promise<SigningIdentity> {
  if (options.p12Path) return identityFromP12(await readFile(options.p12Path), options.p12Password ?? '');

  await mkdir(options.dir, { recursive: true });
  const p12Path = path.join(options.dir, PLATFORM_P12);
  const passwordPath = path.join(options.dir, PLATFORM_PASSWORD);
  const lockPath = path.join(options.dir, LOCK);
  const deadline = Date.now() + WAIT_LIMIT_MS;

  for (;;) {
    const existing = await readPlatformFiles(p12Path, passwordPath);
    if (existing) return identityFromP12(existing.p12, existing.password);

    const lock = await tryLock(lockPath);
    if (lock) {
      try {
        // Someone may have finished between our look and our lock.
        const created = (await readPlatformFiles(p12Path, passwordPath)) ?? (await createPlatformFiles(options.dir, p12Path, passwordPath));
        return identityFromP12(created.p12, created.password);
      } finally {
        await lock.close();
        await unlink(lockPath).catch(() => undefined);
      }
    }
    if (Date.now() > deadline) throw new Error(`Certificado de assinatura: ${lockPath} não foi liberado a tempo.`);
    await removeIfStale(lockPath);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readPlatformFiles(p12Path: string, passwordPath: string): Promise<{ p12: Buffer; password: string } | null> {
  let p12: Buffer;
  try {
    p12 = await readFile(p12Path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // Written before the P12, so it is there unless someone removed it.
  const password = (await readFile(passwordPath, 'utf8')).trim();
  return { p12, password };
}

async function tryLock(lockPath: string) {
  try {
    const handle = await open(lockPath, 'wx', 0o600);
    await handle.write(`${process.pid}\n`);
    return handle;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
}

async function removeIfStale(lockPath: string): Promise<void> {
  try {
    const { mtimeMs } = await stat(lockPath);
    if (Date.now() - mtimeMs > STALE_LOCK_MS) await rm(lockPath, { force: true });
  } catch {
    // released meanwhile
  }
}

async function createPlatformFiles(dir: string, p12Path: string, passwordPath: string) {
  const password = randomBytes(24).toString('base64url');
  const p12 = createSelfSignedP12(password);
  await writeAtomically(dir, passwordPath, `${password}\n`);
  await writeAtomically(dir, p12Path, p12);
  return { p12, password };
}

/** Writes a temporary file (mode 0600, as it holds or unlocks the private key) and renames it into place. */
async function writeAtomically(dir: string, target: string, data: string | Buffer): Promise<void> {
  const temporary = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomUUID()}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, target);
}

/**
 * A self-signed RSA-2048 certificate for signing documents, in a P12. The key pair comes from Node's crypto
 * (OpenSSL, milliseconds) rather than node-forge (pure JavaScript, seconds); forge then builds the certificate and
 * the P12 that the signer (`cms-signer.ts`) opens.
 */
export function createSelfSignedP12(password: string, now = new Date()): Buffer {
  const { privateKey: privatePem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privateKey = forge.pki.privateKeyFromPem(privatePem) as forge.pki.rsa.PrivateKey;
  const publicKey = forge.pki.setRsaPublicKey(privateKey.n, privateKey.e);

  const certificate = forge.pki.createCertificate();
  certificate.publicKey = publicKey;
  // 16 random bytes, the first in 0x40–0x7f: a positive DER integer of full length.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x3f) | 0x40;
  certificate.serialNumber = serial.toString('hex');
  certificate.validity.notBefore = new Date(now.getTime() - 60_000);
  certificate.validity.notAfter = new Date(now.getTime());
  certificate.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + VALIDITY_YEARS);
  // UTF8String, so that "relatórios" survives (PrintableString has no accents).
  const subject = PLATFORM_SUBJECT.map((attribute) => ({ ...attribute, valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class }));
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    // emailProtection is what NSS (pdfsig) checks for a signer; 1.3.6.1.5.5.7.3.36 is id-kp-documentSigning (RFC 9336).
    { name: 'extKeyUsage', emailProtection: true, '1.3.6.1.5.5.7.3.36': true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(privateKey, forge.md.sha256.create());

  const p12Asn1 = forge.pkcs12.toPkcs12Asn1(privateKey, [certificate], password, {
    algorithm: 'aes256',
    friendlyName: 'Sentinela',
  });
  return Buffer.from(forge.asn1.toDer(p12Asn1).getBytes(), 'binary');
}

/** Opens the P12 (which checks the password) and names its signing certificate: the one matching the key. */
/**
 * Subject and fingerprint of P12s already opened by this process, by the SHA-256 of their bytes and password. Opening
 * one decrypts it in JavaScript (about 0.1 s of CPU): a process builds its app once, but the API tests build one per
 * test file with the same certificate (a third of `buildApp`'s time, ADR 85). The same bytes with the same password
 * are the same certificate; a failure is never remembered.
 */
const opened = new Map<string, Pick<SigningIdentity, 'subject' | 'fingerprintSha256'>>();

export function identityFromP12(p12: Buffer, password: string): SigningIdentity {
  const key = createHash('sha256').update(p12).update('\0').update(password, 'utf8').digest('hex');
  let names = opened.get(key);
  if (!names) {
    const { certificateDer } = openP12(p12, password);
    // Node prints the subject with its UTF-8 intact, one attribute a line in the certificate's order (country
    // first); read the other way round, as people write names (RFC 4514).
    const x509 = new X509Certificate(certificateDer);
    names = { subject: x509.subject.split('\n').reverse().join(', '), fingerprintSha256: x509.fingerprint256.replaceAll(':', '').toLowerCase() };
    opened.set(key, names);
  }
  return { p12, password, ...names };
}
