// Starts a throwaway Redis (Debian's redis-server, installed with apt when missing) on a free loopback port,
// without persistence, for the tests and the benchmark of Socket.IO across several API processes.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './postgres.mjs';

const isRoot = process.getuid?.() === 0;
const CANDIDATES = ['/usr/bin/redis-server', '/usr/sbin/redis-server'];

function findRedis() {
  return CANDIDATES.find((p) => existsSync(p));
}

function installRedis() {
  if (!isRoot) throw new Error('redis-server not found; install the "redis-server" package (apt-get install redis-server).');
  console.log('[redis] installing redis-server from Debian packages…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server'], { stdio: 'inherit', env });
  }
}

function waitForPort(port, timeoutMs) {
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
        if (Date.now() > deadline) reject(new Error(`redis-server did not open port ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Starts a server; returns its URL and `stop()`. */
export async function startRedis() {
  let bin = findRedis();
  if (!bin) {
    installRedis();
    bin = findRedis();
    if (!bin) throw new Error('redis-server installed but its binary was not found');
  }
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([waitForPort(port, 10_000), exited.then((code) => Promise.reject(new Error(`redis-server exited (${code}): ${stderr}`)))]);
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
