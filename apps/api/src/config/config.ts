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
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOGIN_MAX_PER_MINUTE: z.coerce.number().int().positive().default(10),
  DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
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
  bodyLimitBytes: number;
  loginMaxPerMinute: number;
  dbPoolSize: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
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
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    loginMaxPerMinute: e.LOGIN_MAX_PER_MINUTE,
    dbPoolSize: e.DB_POOL_SIZE,
  };
}
