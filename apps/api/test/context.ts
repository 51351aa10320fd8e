import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import pg from 'pg';
import { inject } from 'vitest';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { CLIENT_VERSION } from '@sentinela/contract';
import { buildApp } from '../src/app';
import type { AppConfig } from '../src/config/config';
import { openDatabase, type DatabaseHandle } from '../src/db/database';
import { ManualClock } from '../src/lib/clock';
import { DEMO_PASSWORD, READING_EVERY_MS, seedDemoData } from '../src/seed/demo';
import { withDatabase } from './global-setup';

/**
 * One signing identity for the whole test run (made by the first app that needs it): creating a key pair per test
 * file would only slow the suite. Each file still writes its report files to a fresh folder.
 */
const TEST_SIGNING_DIR = path.join(tmpdir(), 'sentinela-test-signing');

export const testConfig = (overrides: Partial<AppConfig> = {}): AppConfig => ({
  env: 'test',
  port: 0,
  host: '127.0.0.1',
  databaseUrl: undefined,
  dataDir: 'memory://',
  demo: false,
  // Off: a test that wants the live demo turns it on and drives its ticks itself (live-demo.test.ts).
  demoLive: false,
  demoLiveIntervalSeconds: 15,
  logLevel: 'silent',
  trustProxy: false,
  webDist: undefined,
  bodyLimitBytes: 1024 * 1024,
  loginMaxPerMinute: 10,
  // Whole files of requests and socket messages come from one address and a few users within a minute: the abuse
  // limits are tested where a test sets them low (http-limits, realtime-limits).
  loginFailuresPerAddressPerMinute: 1000,
  loginFailuresPerUsernamePerHour: 1000,
  loginSlowdownSeconds: 1,
  userMaxRequestsPerMinute: 100_000,
  // Tests block the event loop at will (slow machines, fake timers): shedding only where a test asks for it.
  overloadEventLoopDelayMs: 0,
  overloadRetryAfterSeconds: 5,
  socketSubscribesPerMinute: 100_000,
  socketsPerAddress: 100,
  // Far above the default (120): test files reconnect often from one address; the limit has its own test.
  socketConnectsPerAddressPerMinute: 100_000,
  socketMaxMessageBytes: 16 * 1024,
  // Far above the default (256): test files open many connections from 127.0.0.1; the cap has its own test.
  connectionsPerAddress: 10_000,
  connectionsMax: 0,
  httpHeadersTimeoutSeconds: 10,
  httpRequestTimeoutSeconds: 120,
  httpKeepAliveTimeoutSeconds: 10,
  dbPoolSize: 5,
  mqttEnabled: false,
  mqttPort: 0,
  mqttHost: '127.0.0.1',
  mqttUrl: undefined,
  mqttGatewayKey: undefined,
  mqttClientId: 'sentinela-test',
  mqttShareGroup: undefined,
  mqttSubscriberConnections: 1,
  mqttMaxPacketBytes: 1024 * 1024,
  mqttConnectMaxBytes: 16_384,
  mqttConnectTimeoutSeconds: 10,
  mqttIdleTimeoutSeconds: 300,
  mqttTls: undefined,
  ingestBodyLimitBytes: 16 * 1024 * 1024,
  // Off: test files send tens of thousands of readings through one demo key within seconds; the quota has its own
  // tests (ingest-quota.test.ts), as has the shedding of the heaviest gateways.
  ingestReadingsPerSecond: 0,
  ingestBytesPerSecond: 0,
  ingestBurstSeconds: 2,
  ingestShedEventLoopDelayMs: 0,
  ingestParseThreads: 1,
  noDataCheckSeconds: 0,
  // Tests run the roll-up job themselves, under their clock (reading-rollups.test.ts).
  rollupIntervalSeconds: 0,
  rollupDelayMinutes: 180,
  localizatorMaxPerMinute: 30,
  travelLinkDaysAfterEnd: 7,
  monitorLookupsPerMinute: 30,
  redisUrl: undefined,
  // A fresh folder for the report files of each app (removed by the context's close), unless one is given.
  reportsDir: overrides.reportsDir ?? mkdtempSync(path.join(tmpdir(), 'sentinela-reports-')),
  reportWorkers: 2,
  reportSigningDir: TEST_SIGNING_DIR,
  reportSigningP12: undefined,
  reportSigningP12Password: undefined,
  reportTimeZone: 'America/Sao_Paulo',
  reportMaxReadings: 500_000,
  reportLinkMinutes: 60,
  reportTsaUrl: undefined,
  reportTsaTimeoutMs: 10_000,
  reportTsaRetrySeconds: 1,
  reportValidateMaxPerMinute: 30,
  reportExcelMaxBytes: 5 * 1024 * 1024,
  reportExcelMaxInflatedBytes: 50 * 1024 * 1024,
  reportExcelMaxEntries: 1000,
  reportExcelThreads: 1,
  reportExcelThreadMemoryMb: 128,
  // Above the default (10): test files upload dozens of times in a minute; the limit has its own test.
  reportUploadMaxPerMinute: 100,
  reportQueueMaxPerUser: 1000,
  reportQueueMaxPerEnterprise: 3000,
  // A fresh folder for the firmware files of each app (removed by close), unless one is given.
  firmwareDir: overrides.firmwareDir ?? mkdtempSync(path.join(tmpdir(), 'sentinela-firmware-')),
  firmwareMaxBytes: 64 * 1024 * 1024,
  // A fresh folder for the calibration certificates of each app (removed by close), unless one is given.
  calibrationsDir: overrides.calibrationsDir ?? mkdtempSync(path.join(tmpdir(), 'sentinela-calibrations-')),
  // Tests look for due certificates themselves, under their clock.
  calibrationCheckMinutes: 0,
  publicUrl: 'http://sentinela.test',
  publicUrlFromListen: false,
  smtpUrl: undefined,
  mailFrom: 'Sentinela <nao-responda@sentinela.test>',
  // A fresh outbox per app (removed by close), unless a test gives one or an SMTP server.
  mailOutboxDir: overrides.mailOutboxDir ?? mkdtempSync(path.join(tmpdir(), 'sentinela-outbox-')),
  emailConfirmationHours: 48,
  passwordResetMinutes: 15,
  passwordResetMaxAttempts: 5,
  passwordResetMaxPerEmailHour: 5,
  accountRequestsMaxPerHour: 1000,
  emailAvailableMaxPerMinute: 1000,
  emailAvailableMaxPerHour: 1000,
  accountChecksPerTargetPerHour: 1000,
  takenAnswersPerHour: 1000,
  telegramBotToken: undefined,
  telegramApiRoot: 'http://127.0.0.1:9',
  telegramWebhookUrl: undefined,
  telegramWebhookSecret: undefined,
  telegramLinkMinutes: 15,
  // No SMS or WhatsApp provider unless a test starts its local one.
  smsApiUrl: 'http://127.0.0.1:9',
  smsAccountSid: undefined,
  smsAuthToken: undefined,
  smsFrom: undefined,
  smsTimeoutMs: 2000,
  whatsappApiUrl: 'http://127.0.0.1:9',
  whatsappApiVersion: 'v22.0',
  whatsappPhoneNumberId: undefined,
  whatsappAccessToken: undefined,
  whatsappTemplateOpened: 'sentinela_alarme_aberto',
  whatsappTemplateEnded: 'sentinela_alarme_encerrado',
  whatsappTemplateLanguage: 'pt_BR',
  whatsappTimeoutMs: 2000,
  alarmFlapMinutes: 15,
  // The VAPID key pair is made once for the run under the temporary folder, as a server without keys does.
  vapidPublicKey: undefined,
  vapidPrivateKey: undefined,
  vapidKeysFile: path.join(tmpdir(), 'sentinela-test-vapid', 'vapid.json'),
  vapidSubject: 'mailto:contato@sentinela.test',
  // Tests' push endpoints are local HTTP servers on 127.0.0.1.
  pushAllowHttpEndpoints: true,
  // Far above the default (600): test files make many requests with one token; the limit has its own test.
  apiTokenMaxRequestsPerMinute: 100_000,
  // Tests' webhook receivers are local HTTP servers on 127.0.0.1.
  webhookAllowPrivate: true,
  webhookTimeoutSeconds: 2,
  // Tests' fake services (push, webhooks…) listen on 127.0.0.1 ports; the guard has its own tests (outgoing.test.ts).
  outgoingAllowedPorts: [443],
  outgoingAllowPrivate: true,
  // No geocoder unless a test starts its local one.
  geocoderUrl: undefined,
  geocoderTimeoutMs: 2000,
  geocoderMaxPerMinute: 60,
  geocoderUserMaxPerMinute: 20,
  contactEmail: 'contato@sentinela.test',
  contactMaxPerHour: 1000,
  contactChallengeSecret: 'test-contact-challenge-secret',
  contactChallengeSecretFile: '/nonexistent/contact-challenge.key',
  contactChallengeMinutes: 10,
  // Small work: tests solve challenges for real, on a busy machine.
  contactChallengeCost: 10,
  contactChallengeMaxCounter: 200,
  // Nothing outside: tests that look up postal codes start a local ViaCEP-compatible server and set this.
  cepLookupUrl: 'http://127.0.0.1:9/ws',
  cepLookupTimeoutMs: 2000,
  // No PIX key nor webhook token unless a test sets them (billing.test.ts).
  pixKey: undefined,
  pixReceiverName: 'Sentinela',
  pixReceiverCity: 'Sao Paulo',
  pixWebhookToken: undefined,
  billingGraceDays: 10,
  billingDueDays: 5,
  billingIssueDaysBefore: 7,
  // Tests run the billing cycle themselves, under their clock.
  billingCycleMinutes: 0,
  // Tests run the retention themselves, under their clock.
  retentionCheckMinutes: 0,
  // Tests run the seal job themselves, under their clock (seals.test.ts), but for the start-up test.
  sealCheckMinutes: 0,
  // No receiving bank account unless a test sets one (financial.test.ts).
  bankAccount: null,
  // No card provider unless a test starts its local Pagar.me (cards.test.ts).
  cardProvider: undefined,
  // No /metrics unless a test sets a token or a port (metrics.test.ts).
  metrics: undefined,
  shutdownTimeoutSeconds: 25,
  ...overrides,
});

// The tsconfig's libraries declare WebAssembly's types but not its global object, which Node has.
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } };

let compiledPglite: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;

/** PGlite's WebAssembly, compiled once per test process (several test files run in one) instead of once per database. */
function pgliteAssets() {
  compiledPglite ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasmBytes, bundle] = await Promise.all([readFile(path.join(dist, 'pglite.wasm')), readFile(path.join(dist, 'pglite.data'))]);
    return { pgliteWasmModule: await wasm.compile(wasmBytes), fsBundle: new Blob([bundle]) };
  })();
  return compiledPglite;
}

let dumpBlob: { file: string; blob: Blob } | undefined;

/**
 * The migrated dump (about 45 MB), read once per test process: a Blob is immutable and PGlite only reads it, so every
 * file's database loads from the same one instead of reading and copying the file again (a tenth of a PGlite file's
 * set-up, and as much again in garbage collection).
 */
function migratedDump(file: string): Blob {
  if (dumpBlob?.file !== file) dumpBlob = { file, blob: new Blob([readFileSync(file)]) };
  return dumpBlob.blob;
}

/** A fresh database for one test file: a copy of the migrated template, or an in-memory PGlite loaded from its dump. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const postgres = inject('postgres');
  if (!postgres) {
    const dump = inject('pgliteDump');
    if (!dump) throw new Error('the global setup made no migrated PGlite database');
    return openDatabase({ dataDir: 'memory://', embedded: { ...(await pgliteAssets()), loadDataDir: migratedDump(dump) } });
  }
  return openDatabase({ databaseUrl: (await copyOfTemplate())!, dataDir: '', poolSize: 5 });
}

/** On PostgreSQL, the URL of a fresh copy of the migrated template (for a server process a test starts); null on PGlite. */
export async function copyOfTemplate(): Promise<string | null> {
  const postgres = inject('postgres');
  if (!postgres) return null;
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres.template}`);
  } finally {
    await admin.end();
  }
  return withDatabase(postgres.url, name);
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/**
 * Where a test's clock starts: now, or a minute later if now is less than a minute past the demo's last reading. The
 * ingestion evaluates only readings newer than a device's last one, and tests post theirs up to a minute before the
 * clock (`at(ctx, -N)`): started within seconds after a 5-minute mark, those fell before the demo's reading on that
 * mark and opened no alarm (a CI flake). The demo's last reading stays on the last mark before the clock, so windows
 * such as "the last two days" still hold every one of their marks.
 */
function testClockStart(): Date {
  const now = Date.now();
  const lastDemoReading = Math.floor(now / READING_EVERY_MS) * READING_EVERY_MS;
  // Moved by a whole minute, not onto the mark's 61st second: the start keeps its own milliseconds, so readings a test
  // spaces by whole seconds from it do not land on the demo's marks either.
  return new Date(now - lastDemoReading < 61_000 ? now + 61_000 : now);
}

/** The real app on a fresh database, with a clock the test moves, optionally with the demo data. */
export async function createTestContext(options: { demo?: boolean; config?: Partial<AppConfig> } = {}) {
  const database = await openTestDatabase();
  const clock = new ManualClock(testClockStart());
  if (options.demo) await seedDemoData(database.db, clock);
  const config = testConfig(options.config);
  const routes: RouteOptions[] = [];
  const { app, services } = await buildApp({ config, db: database.db, clock, logger: false, onRoute: (route) => void routes.push(route) });
  await app.ready();

  const headers = { client: 'web', clientversion: CLIENT_VERSION, clientos: 'linux' };

  async function login(username: string, password = DEMO_PASSWORD) {
    const res = await app.inject({ method: 'POST', url: '/api/authenticate', headers, payload: { username, password } });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    const body = res.json() as { token: { token: string }; user: { _id: string; enterprise: { _id: string } | null } };
    return { token: body.token.token, user: body.user };
  }

  /** A request as a signed-in user (token) or anonymous. */
  function request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown): Promise<LightMyRequestResponse> {
    return app.inject({
      method,
      url,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** A solved sign-up challenge (the `altcha` of POST /api/client), solved for real as the browser's widget does. */
  async function humanCheck(): Promise<string> {
    const challenge = (await app.inject({ method: 'GET', url: '/api/client/challenge', headers })).json() as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

  /** A sign-up body with its solved challenge. */
  async function withHumanCheck<T extends object>(body: T): Promise<T & { altcha: string }> {
    return { ...body, altcha: await humanCheck() };
  }

  return {
    app,
    services,
    humanCheck,
    withHumanCheck,
    /** Every route the app registered, as registered (method, url, schema, config). */
    routes,
    db: database.db,
    clock,
    login,
    request,
    async close() {
      await app.close();
      await database.close();
      rmSync(config.reportsDir, { recursive: true, force: true });
      rmSync(config.mailOutboxDir, { recursive: true, force: true });
      rmSync(config.firmwareDir, { recursive: true, force: true });
      rmSync(config.calibrationsDir, { recursive: true, force: true });
    },
  };
}
