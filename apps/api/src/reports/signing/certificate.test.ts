import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelfSignedP12, loadOrCreateSigningIdentity, PLATFORM_P12, PLATFORM_PASSWORD } from './certificate';
import { openP12 } from './p12';

const run = promisify(execFile);
const repositoryRoot = path.resolve(import.meta.dirname, '../../../../..');

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sentinela-certificate-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadOrCreateSigningIdentity', () => {
  it('creates a self-signed platform certificate once, private to the process user, and keeps it', async () => {
    const dir = path.join(root, 'once');
    const identity = await loadOrCreateSigningIdentity({ dir });
    expect(identity.subject).toBe('CN=Sentinela - Assinatura de relatórios, O=Sentinela, C=BR');
    expect(identity.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    for (const name of [PLATFORM_P12, PLATFORM_PASSWORD]) expect((await stat(path.join(dir, name))).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(dir, PLATFORM_PASSWORD), 'utf8')).trim()).toBe(identity.password);

    const again = await loadOrCreateSigningIdentity({ dir });
    expect(again.fingerprintSha256).toBe(identity.fingerprintSha256);
    expect(again.p12.equals(identity.p12)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual([PLATFORM_P12, PLATFORM_PASSWORD]);
  });

  it('makes a certificate for signing documents: RSA-2048, ten years, digital signature and non-repudiation', async () => {
    const identity = await loadOrCreateSigningIdentity({ dir: path.join(root, 'fields') });
    const certificate = new X509Certificate(openP12(identity.p12, identity.password).certificateDer);
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const years = (Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(9.99);
    expect(years).toBeLessThan(10.01);
    expect(certificate.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.4', '1.3.6.1.5.5.7.3.36'])); // emailProtection, documentSigning
    expect(certificate.verify(certificate.publicKey)).toBe(true); // self-signed
    expect(certificate.fingerprint256.replaceAll(':', '').toLowerCase()).toBe(identity.fingerprintSha256);
  });

  it('creates one certificate when several callers start at once', async () => {
    const dir = path.join(root, 'parallel');
    const identities = await Promise.all(Array.from({ length: 4 }, () => loadOrCreateSigningIdentity({ dir })));
    expect(new Set(identities.map((identity) => identity.fingerprintSha256)).size).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([PLATFORM_P12, PLATFORM_PASSWORD]);
  });

  it('creates one certificate when two processes start at once', async () => {
    const dir = path.join(root, 'processes');
    const script = path.join(root, 'load-identity.mts');
    await writeFile(
      script,
      `import { loadOrCreateSigningIdentity } from ${JSON.stringify(path.join(import.meta.dirname, 'certificate.ts'))};\n` +
        `console.log((await loadOrCreateSigningIdentity({ dir: ${JSON.stringify(dir)} })).fingerprintSha256);\n`,
    );
    const start = () => run(process.execPath, ['--import', 'tsx', script], { cwd: repositoryRoot }).then(({ stdout }) => stdout.trim());
    const [first, second] = await Promise.all([start(), start()]);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    expect((await loadOrCreateSigningIdentity({ dir })).fingerprintSha256).toBe(first);
  });

  it('takes over a lock left by a process that died while creating the certificate', async () => {
    const dir = path.join(root, 'stale');
    await mkdir(dir, { recursive: true });
    const lock = path.join(dir, 'platform.p12.lock');
    await writeFile(lock, '99999\n');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(lock, twoMinutesAgo, twoMinutesAgo);
    const identity = await loadOrCreateSigningIdentity({ dir });
    expect(identity.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await readdir(dir)).sort()).toEqual([PLATFORM_P12, PLATFORM_PASSWORD]);
  });

  it('uses a configured P12 instead, and refuses a wrong password', async () => {
    const file = path.join(root, 'configured.p12');
    await writeFile(file, createSelfSignedP12('s3nh4 configurada'));
    const identity = await loadOrCreateSigningIdentity({ dir: path.join(root, 'not-used'), p12Path: file, p12Password: 's3nh4 configurada' });
    expect(identity.password).toBe('s3nh4 configurada');
    expect(identity.p12.equals(await readFile(file))).toBe(true);
    await expect(readdir(path.join(root, 'not-used'))).rejects.toThrow(/ENOENT/);
    await expect(loadOrCreateSigningIdentity({ dir: root, p12Path: file, p12Password: 'errada' })).rejects.toThrow('Certificado de assinatura ilegível ou senha incorreta');
  });
});
