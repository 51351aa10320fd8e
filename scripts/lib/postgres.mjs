// Starts a throwaway PostgreSQL server for the tests, from this machine's binaries (installed with apt when
// missing). PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage, isRoot } from './debian-packages.mjs';


function findBinDir() {
  const candidates = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch { /* not on PATH */ }
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))) {
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
    }
  }
  return candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')));
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function asPostgresUser(bin, args) {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(bin)} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/**
 * Starts a server; returns its URL and a stop function. Durability is off (tests need no fsync) unless
 * `durable` is set: the benchmark measures with both.
 */
export async function startPostgres({ durable = false } = {}) {
  const binDir = ensureDebianPackage({ pkg: 'postgresql', find: findBinDir, label: 'pg' });
  const dir = mkdtempSync(path.join(tmpdir(), 'sentinela-pg-'));
  chmodSync(dir, 0o777);
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  asPostgresUser(path.join(binDir, 'initdb'), ['-D', dataDir, '-U', 'sentinela', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  const options = [
    `-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1",
    ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=300', '-c shared_buffers=256MB',
  ].join(' ');
  asPostgresUser(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  const url = `postgres://sentinela@127.0.0.1:${port}/postgres`;
  console.log(`[pg] PostgreSQL (${binDir}) on 127.0.0.1:${port}`);
  const stop = () => {
    try {
      asPostgresUser(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch { /* already down */ }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, port, stop };
}
