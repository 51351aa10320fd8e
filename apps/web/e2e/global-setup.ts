import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startRoutingServer, startTileServer } from './fake-map-services';
import { startMailServer } from './fake-mail-server';
import { startFakeTelegram } from '../../api/test/fake-telegram';
import { startCepServer } from './fake-cep-service';
import { startFakeSmsProvider } from '../../api/test/fake-sms-provider';
import { startFakeWhatsApp } from '../../api/test/fake-whatsapp';
import { startFakePagarme } from '../../api/test/fake-pagarme';
import type { E2eEnvironment } from './environment';
import { E2E_WORKERS } from './workers';

const PIX_KEY = 'financeiro@sentinela.example';
const PIX_WEBHOOK_TOKEN = `e2e-webhook-${randomUUID()}`;

const root = path.resolve(import.meta.dirname, '../../..');

// Each worker's server migrates its database and seeds the demo data at start, all of them at the same time.
async function waitForHealth(url: string, server: ChildProcess, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy');
}

/**
 * Starts the product as `npm start` would (built web app, demo data), once per e2e worker: each on its own fresh
 * database, data folder and local fakes, so files running at the same time share nothing (ADR 50).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stopPostgres: (() => void) | undefined;
  if (!adminUrl) {
    // @ts-expect-error plain ESM helpers shared with the test runner script
    const { startPostgres } = await import('../../../scripts/lib/postgres.mjs');
    const server = await startPostgres();
    adminUrl = server.url as string;
    stopPostgres = server.stop;
  }
  // One after the other: servers starting together on a loaded 2-core machine can each miss Fastify's 10 s plugin
  // timeout while migrating and seeding.
  const started: PromiseSettledResult<Awaited<ReturnType<typeof startEnvironment>>>[] = [];
  for (let i = 0; i < E2E_WORKERS; i++) {
    const [result] = await Promise.allSettled([startEnvironment(adminUrl)]);
    started.push(result!);
    if (result!.status === 'rejected') break;
  }
  const stops = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop] : []));
  const stopAll = async () => {
    await Promise.all(stops.map((stop) => stop()));
    stopPostgres?.();
  };
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await stopAll();
    throw failure.reason;
  }
  project.provide(
    'e2eEnvironments',
    started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.environment] : [])),
  );
  return stopAll;
}

/** One server with its database, data folder and fakes; `stop` ends them all. */
async function startEnvironment(adminUrl: string): Promise<{ environment: E2eEnvironment; stop: () => Promise<void> }> {
  // @ts-expect-error plain ESM helpers shared with the test runner script
  const { freePort } = await import('../../../scripts/lib/postgres.mjs');
  // Shared with `npm start` and the benchmarks (typed by server-process.d.mts).
  const { serverArgs } = await import('../../../scripts/lib/server-process.mjs');
  const dbName = `e2e_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();

  const tiles = await startTileServer();
  const routing = await startRoutingServer();
  const mail = await startMailServer();
  const telegram = await startFakeTelegram();
  const cep = await startCepServer();
  const sms = await startFakeSmsProvider();
  const whatsapp = await startFakeWhatsApp();
  const pagarme = await startFakePagarme();
  const webRuntimeConfig = { tileUrl: `${tiles.url}/{z}/{x}/{y}.png`, tileAttribution: 'Mapa de teste', routingUrl: routing.url };

  // Report files, firmware, the signing certificate and the VAPID keys of this server alone.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sentinela-e2e-data-'));
  const port = (await freePort()) as number;
  const mqttPort = (await freePort()) as number;
  const server = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      DEMO: '1',
      // The e2e specs post their own readings: no demo beacons reporting behind their backs.
      DEMO_LIVE: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(root, 'apps/web/dist'),
      // integrations.e2e.ts receives webhooks on a local HTTP server.
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEB_RUNTIME_CONFIG: JSON.stringify(webRuntimeConfig),
      // The specs sign the same demo users in many times a minute, from one address; the login limit itself
      // (10 a minute) is checked by the API tests.
      LOGIN_MAX_PER_MINUTE: '100',
      SMTP_URL: mail.smtpUrl,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      CEP_LOOKUP_URL: cep.url,
      CONTACT_EMAIL: 'contato@sentinela.example',
      SMS_API_URL: sms.url,
      SMS_ACCOUNT_SID: sms.accountSid,
      SMS_AUTH_TOKEN: sms.authToken,
      SMS_FROM: sms.from,
      WHATSAPP_API_URL: whatsapp.url,
      WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: whatsapp.accessToken,
      PIX_KEY,
      PIX_RECEIVER_NAME: 'Sentinela Tecnologia',
      PIX_RECEIVER_CITY: 'Sao Paulo',
      PIX_WEBHOOK_TOKEN,
      PLATFORM_BANK_NAME: 'Banco do Brasil',
      PLATFORM_BANK_AGENCY: '1234-5',
      PLATFORM_BANK_ACCOUNT: '98765-4',
      PLATFORM_BANK_HOLDER: 'Sentinela Tecnologia Ltda',
      CARD_PROVIDER: 'pagarme',
      PAGARME_PUBLIC_KEY: pagarme.publicKey,
      PAGARME_SECRET_KEY: pagarme.secretKey,
      PAGARME_API_URL: pagarme.apiUrl,
    },
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await Promise.all([tiles.close(), routing.close(), mail.close(), telegram.close(), cep.close()]);
    await Promise.all([sms.close(), whatsapp.close()]);
    await pagarme.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseURL, server);
  } catch (error) {
    await stop();
    throw error;
  }
  const environment: E2eEnvironment = {
    baseURL,
    databaseUrl,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    tileURL: tiles.url,
    routingURL: routing.url,
    mailboxURL: mail.mailboxUrl,
    telegramURL: telegram.apiRoot,
    smsURL: sms.url,
    whatsappURL: whatsapp.url,
    pixKey: PIX_KEY,
    pixWebhookToken: PIX_WEBHOOK_TOKEN,
    pagarmeURL: pagarme.apiUrl,
  };
  return { environment, stop };
}
