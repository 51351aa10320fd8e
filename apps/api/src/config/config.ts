import path from 'node:path';
import { z } from 'zod';

/** The environment, parsed once. Everything configurable lives here and is documented in the README. */
const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DEMO: z.enum(['0', '1']).default('1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  WEB_DIST: z.string().optional(),
  // Settings the built web app reads at run time from GET /config.json (map tiles and routing server), as JSON.
  WEB_RUNTIME_CONFIG: z
    .string()
    .optional()
    .refine((text) => !text || isJsonObject(text), 'must be a JSON object, e.g. {"tileUrl":"…","routingUrl":"…"}'),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOGIN_MAX_PER_MINUTE: z.coerce.number().int().positive().default(10),
  DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
  // Ingestion (D5): an embedded MQTT broker by default; with MQTT_URL, a subscriber to that broker instead.
  MQTT_ENABLED: z.enum(['0', '1']).default('1'),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_HOST: z.string().optional(),
  MQTT_URL: z.string().optional(),
  MQTT_GATEWAY_KEY: z.string().optional(),
  MQTT_CLIENT_ID: z.string().default('sentinela-ingest'),
  INGEST_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(16 * 1024 * 1024),
  NO_DATA_CHECK_SECONDS: z.coerce.number().int().min(0).default(60),
  // Travels: lookups by tracking code per address and minute; Redis for live updates across several servers.
  LOCALIZATOR_MAX_PER_MINUTE: z.coerce.number().int().positive().default(30),
  REDIS_URL: z.string().optional(),
  // Reports (R1–R6): where files go, how many are generated at once, the signing certificate, the time zone of
  // the printed times, the largest report, and validator uploads per address and minute.
  REPORTS_DIR: z.string().optional(),
  REPORT_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  REPORT_SIGNING_P12: z.string().optional(),
  REPORT_SIGNING_P12_PASSWORD: z.string().optional(),
  REPORT_TIME_ZONE: z.string().default('America/Sao_Paulo').refine(isTimeZone, 'must be an IANA time zone, e.g. America/Sao_Paulo'),
  REPORT_MAX_READINGS: z.coerce.number().int().positive().default(500_000),
  REPORT_VALIDATE_MAX_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // Accounts and e-mail (A1–A14): links in e-mails point at PUBLIC_URL; without SMTP_URL messages go to files.
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Sentinela <nao-responda@sentinela.local>'),
  MAIL_OUTBOX_DIR: z.string().optional(),
  EMAIL_CONFIRMATION_HOURS: z.coerce.number().int().positive().default(48),
  PASSWORD_RESET_MINUTES: z.coerce.number().int().positive().default(15),
  PASSWORD_RESET_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  PASSWORD_RESET_MAX_PER_EMAIL_HOUR: z.coerce.number().int().positive().default(5),
  ACCOUNT_REQUESTS_MAX_PER_HOUR: z.coerce.number().int().positive().default(20),
  EMAIL_AVAILABLE_MAX_PER_MINUTE: z.coerce.number().int().positive().default(20),
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  demo: boolean;
  logLevel: string;
  trustProxy: boolean;
  /** Folder of the built web app, served at the site root; absent in API-only tests. */
  webDist: string | undefined;
  /** Served as /config.json to the web app (tile and routing servers); absent: the build's own defaults. */
  webRuntimeConfig?: Record<string, unknown>;
  bodyLimitBytes: number;
  loginMaxPerMinute: number;
  dbPoolSize: number;
  /** MQTT ingestion on or off (tests build the app without it unless they ask). */
  mqttEnabled: boolean;
  /** Port and address of the embedded broker (0: any free port). */
  mqttPort: number;
  mqttHost: string;
  /** An external broker to subscribe to instead of running the embedded one. */
  mqttUrl: string | undefined;
  /** The gateway key that readings arriving through the external broker are attributed to. */
  mqttGatewayKey: string | undefined;
  mqttClientId: string;
  ingestBodyLimitBytes: number;
  /** How often the "no data" alarm check runs; 0 turns it off. */
  noDataCheckSeconds: number;
  /** Tracking-code lookups (HTTP and Socket.IO) allowed per address and minute: codes must not be guessed. */
  localizatorMaxPerMinute: number;
  /** With several API processes, Socket.IO rooms are shared through this Redis; in-process without it. */
  redisUrl: string | undefined;
  /** Generated report files (default `<DATA_DIR>/reports`). */
  reportsDir: string;
  /** Reports generated at once by this process (job concurrency and render threads); 0: this process only queues. */
  reportWorkers: number;
  /** The platform's signing certificate: a P12 file and its password; unset, one is created once under `<DATA_DIR>/signing`. */
  reportSigningDir: string;
  reportSigningP12: string | undefined;
  reportSigningP12Password: string | undefined;
  /** IANA zone the reports print times in and the Excel upload reads its dates in. */
  reportTimeZone: string;
  /** Readings one report may hold; a longer period is refused with a request for a shorter one. */
  reportMaxReadings: number;
  /** Report validator uploads per address and minute (a public route). */
  reportValidateMaxPerMinute: number;
  /** Where the web app is reached: the base of links sent by e-mail (confirmation, set password). */
  publicUrl: string;
  /** SMTP relay (smtp://user:pass@host:587, smtps://…); unset: messages are written to `mailOutboxDir` instead. */
  smtpUrl: string | undefined;
  /** Sender of every message. */
  mailFrom: string;
  /** Without SMTP_URL, each message is an .eml file here (default `<DATA_DIR>/outbox`). */
  mailOutboxDir: string;
  /** How long an e-mail confirmation link works. */
  emailConfirmationHours: number;
  /** How long a password recovery code works, and how many wrong tries it takes before it is spent. */
  passwordResetMinutes: number;
  passwordResetMaxAttempts: number;
  /** Recovery codes sent to one e-mail per hour; beyond it, requests are answered the same but send nothing. */
  passwordResetMaxPerEmailHour: number;
  /** Sign-ups, recovery requests and confirmation resends per client address and hour. */
  accountRequestsMaxPerHour: number;
  /** E-mail availability checks per client address and minute (each one tells whether an account exists). */
  emailAvailableMaxPerMinute: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  if (e.REPORT_SIGNING_P12 && e.REPORT_SIGNING_P12_PASSWORD === undefined) {
    throw new Error('Invalid configuration:\n  REPORT_SIGNING_P12_PASSWORD: required with REPORT_SIGNING_P12 (the password of the certificate file)');
  }
  if (e.MQTT_URL && !e.MQTT_GATEWAY_KEY) {
    throw new Error('Invalid configuration:\n  MQTT_GATEWAY_KEY: required with MQTT_URL (the gateway the subscribed readings belong to)');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: path.resolve(e.DATA_DIR),
    demo: e.DEMO === '1',
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === '1',
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    webRuntimeConfig: e.WEB_RUNTIME_CONFIG ? (JSON.parse(e.WEB_RUNTIME_CONFIG) as Record<string, unknown>) : undefined,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    loginMaxPerMinute: e.LOGIN_MAX_PER_MINUTE,
    dbPoolSize: e.DB_POOL_SIZE,
    mqttEnabled: e.MQTT_ENABLED === '1',
    mqttPort: e.MQTT_PORT,
    mqttHost: e.MQTT_HOST ?? e.HOST,
    mqttUrl: e.MQTT_URL || undefined,
    mqttGatewayKey: e.MQTT_GATEWAY_KEY || undefined,
    mqttClientId: e.MQTT_CLIENT_ID,
    ingestBodyLimitBytes: e.INGEST_BODY_LIMIT_BYTES,
    noDataCheckSeconds: e.NO_DATA_CHECK_SECONDS,
    localizatorMaxPerMinute: e.LOCALIZATOR_MAX_PER_MINUTE,
    redisUrl: e.REDIS_URL || undefined,
    reportsDir: path.resolve(e.REPORTS_DIR || path.join(e.DATA_DIR, 'reports')),
    reportWorkers: e.REPORT_WORKERS,
    reportSigningDir: path.resolve(e.DATA_DIR, 'signing'),
    reportSigningP12: e.REPORT_SIGNING_P12 ? path.resolve(e.REPORT_SIGNING_P12) : undefined,
    reportSigningP12Password: e.REPORT_SIGNING_P12_PASSWORD,
    reportTimeZone: e.REPORT_TIME_ZONE,
    reportMaxReadings: e.REPORT_MAX_READINGS,
    reportValidateMaxPerMinute: e.REPORT_VALIDATE_MAX_PER_MINUTE,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    mailOutboxDir: path.resolve(e.MAIL_OUTBOX_DIR || path.join(e.DATA_DIR, 'outbox')),
    emailConfirmationHours: e.EMAIL_CONFIRMATION_HOURS,
    passwordResetMinutes: e.PASSWORD_RESET_MINUTES,
    passwordResetMaxAttempts: e.PASSWORD_RESET_MAX_ATTEMPTS,
    passwordResetMaxPerEmailHour: e.PASSWORD_RESET_MAX_PER_EMAIL_HOUR,
    accountRequestsMaxPerHour: e.ACCOUNT_REQUESTS_MAX_PER_HOUR,
    emailAvailableMaxPerMinute: e.EMAIL_AVAILABLE_MAX_PER_MINUTE,
  };
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return !!value && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
