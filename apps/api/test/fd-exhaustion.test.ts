import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect as connectTcp, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverArgs } from '../../../scripts/lib/server-process.mjs';
import { copyOfTemplate } from './context';

/**
 * The server process itself under a connection flood (issue 21, ADR 51), started as `npm start` starts it but with its
 * open-files limit lowered to FILE_LIMIT (prlimit). First line: with a per-address cap, four flooding addresses leave
 * room for another one's /api/health. Second line: flooded from enough addresses (HTTP and MQTT) to run out of file
 * descriptors (EMFILE), it keeps running — an overload check that read /proc used to throw there and end it — and
 * answers again once the flood ends.
 */
const FILE_LIMIT = 768;
const PER_ADDRESS = 40;
const root = path.resolve(import.meta.dirname, '../../..');
const POLL = { timeout: 60_000, interval: 200 };

let child: ChildProcess;
let output = '';
let dataDir: string;
let httpPort: number;
let mqttPort: number;
const flood: Socket[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function health(from: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ port: httpPort, host: '127.0.0.1', path: '/api/health', localAddress: from, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** `n` idle connections from `from`; resolves with how many the server closed (or refused) within the wait. */
async function openFlood(port: number, from: string, n: number): Promise<{ closed: () => number }> {
  let closed = 0;
  await Promise.all(
    Array.from({ length: n }, () => {
      const socket = connectTcp({ port, host: '127.0.0.1', localAddress: from });
      flood.push(socket);
      socket.on('error', () => {});
      return new Promise<void>((resolve) => {
        socket.once('connect', () => resolve());
        socket.once('close', () => {
          closed++;
          resolve();
        });
      });
    }),
  );
  return { closed: () => closed };
}

const openFiles = () => readdirSync(`/proc/${child.pid}/fd`).length;
const alive = () => child.exitCode === null && child.signalCode === null;

beforeAll(async () => {
  [httpPort, mqttPort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(path.join(tmpdir(), 'sentinela-fd-'));
  const databaseUrl = await copyOfTemplate();
  child = spawn('prlimit', [`--nofile=${FILE_LIMIT}:${FILE_LIMIT}`, process.execPath, ...serverArgs(root)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env, NODE_ENV: 'production', PORT: String(httpPort), HOST: '127.0.0.1', MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1',
      DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', DEMO: '0', PUBLIC_URL: `http://127.0.0.1:${httpPort}`, LOG_LEVEL: 'warn', NO_DATA_CHECK_SECONDS: '0', ROLLUP_INTERVAL_SECONDS: '0',
      CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      // Far above what the descriptors allow: the second line must be reached.
      CONNECTIONS_MAX: '100000',
      OVERLOAD_EVENT_LOOP_DELAY_MS: '250',
    },
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  // Migrations (PostgreSQL) or a whole embedded database's creation (PGlite) first: minutes on a busy machine.
  await vi.waitFor(async () => {
    if (!alive()) throw new Error(`the server exited: ${output}`);
    expect(await health('127.0.0.1')).toBe(200);
  }, { timeout: 240_000, interval: 1000 });
}, 300_000);

afterAll(async () => {
  for (const s of flood) s.destroy();
  if (child && alive()) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process under a connection flood, its open-files limit lowered', () => {
  it('first line: four flooding addresses get PER_ADDRESS connections each, and another address gets /api/health', async () => {
    const attempts = PER_ADDRESS + 20;
    const floods = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((from) => openFlood(httpPort, from, attempts)));
    await vi.waitFor(() => expect(floods.map((f) => f.closed())).toEqual([20, 20, 20, 20]), POLL);
    expect(await health('127.0.0.9')).toBe(200);
    expect(openFiles()).toBeLessThan(FILE_LIMIT);
    for (const s of flood.splice(0)) s.destroy();
  }, 120_000);

  it('second line: flooded past its file descriptors on HTTP and MQTT, it keeps running and answers once the flood ends', async () => {
    // 30 addresses on HTTP and 10 on MQTT, each within its cap: together far more than the descriptors left.
    const froms = (third: number, n: number) => Array.from({ length: n }, (_, i) => `127.0.${third}.${i + 1}`);
    await Promise.all([
      ...froms(2, 30).map((from) => openFlood(httpPort, from, PER_ADDRESS)),
      ...froms(3, 10).map((from) => openFlood(mqttPort, from, PER_ADDRESS)),
    ]);
    // Out of descriptors (libuv accepts and closes what it cannot keep: the table stays full).
    await vi.waitFor(() => expect(openFiles()).toBeGreaterThanOrEqual(FILE_LIMIT - 8), POLL);
    // The flood lasts: the load sampler runs every second and the MQTT connections' timers fire meanwhile, new
    // connections keep coming and are dropped, a request that needs the database may fail — the process stays up.
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      await openFlood(httpPort, '127.0.4.1', 5);
      expect(alive()).toBe(true);
    }
    expect(alive()).toBe(true);

    for (const s of flood.splice(0)) s.destroy();
    await vi.waitFor(async () => expect(await health('127.0.0.9')).toBe(200), POLL);
    // MQTT answers too: an unknown key is looked up in the database and refused with CONNACK 4.
    await expect(connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: 'gateway', password: 'sgw_nao_existe', reconnectPeriod: 0 })).rejects.toThrow(/Bad username or password/i);
    expect(alive()).toBe(true);
    expect(output).not.toMatch(/EMFILE.*uv_resident_set_memory|Uncaught|ERR_UNHANDLED/i);
  }, 240_000);
});
