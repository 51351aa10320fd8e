// Starts a throwaway Redis (Debian's redis-server, installed with apt when missing) on a free loopback port,
// without persistence, for the tests and the benchmark of Socket.IO across several API processes.
import { spawn } from 'node:child_process';
import { ensureDebianPackage, firstExisting, waitForPort } from './debian-packages.mjs';
import { freePort } from './postgres.mjs';

const findRedis = firstExisting(['/usr/bin/redis-server', '/usr/sbin/redis-server']);

/** Starts a server; returns its URL and `stop()`. */
export async function startRedis() {
  const bin = ensureDebianPackage({ pkg: 'redis-server', find: findRedis, label: 'redis' });
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([waitForPort(port, 10_000, 'redis-server'), exited.then((code) => Promise.reject(new Error(`redis-server exited (${code}): ${stderr}`)))]);
  console.log(`[redis] redis-server (${bin}) on 127.0.0.1:${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
