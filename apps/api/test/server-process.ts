import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from './global-setup';

/** The repository's root. */
export const ROOT = path.resolve(__dirname, '../../..');

/**
 * A database for a real server process: on PostgreSQL a fresh copy of the migrated template (DATABASE_URL), on PGlite
 * an empty DATA_DIR (the server migrates it). `dataDir` is always a fresh folder (reports, signing, outbox).
 */
export async function serverDatabase(): Promise<{ env: Record<string, string>; dataDir: string; databaseUrl: string | undefined; dispose(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sentinela-server-'));
  const postgres = inject('postgres');
  if (!postgres) {
    return { env: { DATA_DIR: dataDir }, dataDir, databaseUrl: undefined, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `s_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres.template}`);
  await admin.end();
  const databaseUrl = withDatabase(postgres.url, name);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    dataDir,
    databaseUrl,
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await client.end();
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** The embedded broker's port, when MQTT is on. */
  mqttPort: number | null;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * Starts `apps/api/src/server.ts` as `npm start` does (same Node flags), on free ports, and resolves once it listens
 * (its start-up line) and its MQTT broker too.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 180_000): Promise<ServerProcess> {
  const { serverArgs } = await import('../../../scripts/lib/server-process.mjs');
  const child = spawn(process.execPath, serverArgs(ROOT), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      DEMO: '1',
      DEMO_LIVE: '0',
      LOG_LEVEL: 'info',
      NO_DATA_CHECK_SECONDS: '0',
      ROLLUP_INTERVAL_SECONDS: '0',
      BILLING_CYCLE_MINUTES: '0',
      OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
      REPORT_WORKERS: '1',
      ...env,
    },
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void exited.then(() => (ended = true));
  for (;;) {
    const url = /Sentinela em (http:\/\/\S+)/.exec(text)?.[1];
    const mqtt = /"port":(\d+)[^\n]*"msg":"embedded MQTT broker listening"/.exec(text)?.[1];
    const mqttOff = env.MQTT_ENABLED === '0';
    if (url && (mqtt || mqttOff)) return { child, url, mqttPort: mqtt ? Number(mqtt) : null, output: () => text, exited };
    if (ended || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
