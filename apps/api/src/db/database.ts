import { mkdirSync } from 'node:fs';
import { PGlite, types as liteTypes, type PGliteOptions } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { auditedDialect } from './audit-driver';
import { enableCopyIn, markCopyCapable } from './copy-in';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/**
 * How the job queue (pg-boss) reaches the same database as a Kysely instance. On PostgreSQL it opens its own small
 * pool from the URL (it needs a session of its own for LISTEN); on PGlite it must share the one embedded instance,
 * whose multi-statement scripts only `exec` runs — Kysely's PGlite driver cannot (ADR 9).
 */
export type JobConnection = { kind: 'postgres'; connectionString: string } | { kind: 'pglite'; pglite: PGlite };

const jobConnections = new WeakMap<Db, JobConnection>();

/** The job-queue connection of a database opened by `openDatabase` (buildApp receives only the Kysely instance). */
export function jobConnectionOf(db: Db): JobConnection | undefined {
  return jobConnections.get(db);
}

const INT8 = 20;
const NUMERIC = 1700;

// pg returns bigint and numeric as strings; both fit a JS number in this product (counts, money).
pg.types.setTypeParser(INT8, (value) => Number(value));
pg.types.setTypeParser(NUMERIC, (value) => Number(value));

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /**
   * Tests only: the embedded database starts as a copy of a dump (`loadDataDir`, made by `PGlite.dumpDataDir`)
   * instead of running initdb and every migration again, from WebAssembly compiled once per process.
   */
  embedded?: Pick<PGliteOptions, 'loadDataDir' | 'pgliteWasmModule' | 'fsBundle'>;
  poolSize?: number;
  /** Told when an idle pooled connection fails (logged by the app); the process carries on either way. */
  onIdleError?: (err: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection the server drops (restart, failover, idle timeout) is reported here; without a listener
    // pg's 'error' event would crash the process. The pool replaces the connection; queries on it fail and retry.
    pool.on('error', (err) => options.onIdleError?.(err));
    // Ingestion stores readings with COPY inside its transactions (ADR 42).
    pool.on('connect', enableCopyIn);
    // Every write carries the audit context to the triggers that write the audit trail (ADR 0060).
    const db = new Kysely<Database>({ dialect: auditedDialect(new PostgresDialect({ pool })) });
    markCopyCapable(db);
    jobConnections.set(db, { kind: 'postgres', connectionString: options.databaseUrl });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
  const lite = await PGlite.create(options.dataDir, {
    ...options.embedded,
    parsers: { [liteTypes.INT8]: (v: string) => Number(v), [liteTypes.NUMERIC]: (v: string) => Number(v) },
  });
  const db = new Kysely<Database>({ dialect: auditedDialect(new PGliteDialect({ pglite: lite })) });
  jobConnections.set(db, { kind: 'pglite', pglite: lite });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
