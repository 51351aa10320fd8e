// The machine's own programs that the tests and benchmarks start (PostgreSQL, Mosquitto, Redis, Chromium, poppler):
// found where Debian puts them, installed with apt when missing (as root; otherwise the error names the package).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

export const isRoot = process.getuid?.() === 0;

/**
 * The path `find()` gives, after installing `pkg` when it gives none. `label` prefixes the log line.
 * apt's package lists may be missing or stale on a fresh machine: a failed install updates them and retries.
 */
export function ensureDebianPackage({ pkg, find, label }) {
  const found = find();
  if (found) return found;
  if (!isRoot) throw new Error(`${pkg} not found; install Debian's "${pkg}" package (apt-get install ${pkg}).`);
  console.log(`[${label}] installing ${pkg} from Debian packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env });
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env });
  }
  const installed = find();
  if (!installed) throw new Error(`${pkg} installed but its program was not found`);
  return installed;
}

/** The first of these paths that exists. */
export const firstExisting = (paths) => () => paths.find((p) => existsSync(p));

/** Resolves once something listens on 127.0.0.1:port. */
export function waitForPort(port, timeoutMs, name) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${name} did not open port ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** poppler-utils: pdfsig, pdftoppm and pdftotext check the generated reports the way an auditor's tools would. */
export function ensurePoppler() {
  return ensureDebianPackage({ pkg: 'poppler-utils', find: firstExisting(['/usr/bin/pdfsig']), label: 'pdf' });
}
