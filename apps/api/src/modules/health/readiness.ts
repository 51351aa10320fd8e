import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { pendingMigrations } from '../../db/migrate';

/** What each readiness check found: `ok`, `disabled` (not part of this process), or why it fails. */
export type CheckResult = 'ok' | 'disabled' | string;

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult; ingestion: CheckResult };
}

/** MQTT ingestion as readiness sees it: off, or whether it is up now. */
export type IngestionState = { kind: 'off' } | { kind: 'embedded' | 'external'; up: boolean };

/**
 * Whether this process should receive traffic (X14, ADR 67): the database answers, it has run every migration of this
 * release (a new process started against an old database must not be sent requests its queries would fail), and MQTT
 * ingestion is up — the embedded broker listening, or every session with the external broker connected. HTTP ingestion
 * is the process itself. /api/health stays the liveness answer: a process that is alive but not ready is left to
 * recover, not restarted.
 */
export async function checkReadiness(db: Db, ingestion: IngestionState, log: { warn(obj: unknown, msg: string): void }): Promise<Readiness> {
  let database: CheckResult = 'ok';
  let migrations: CheckResult = 'ok';
  try {
    await sql`select 1`.execute(db);
    const pending = await pendingMigrations(db);
    if (pending.length > 0) migrations = `pending: ${pending.join(', ')}`;
  } catch (err) {
    // The answer is public: the error (addresses, user names) goes to the log only.
    log.warn({ err }, 'readiness: database unreachable');
    database = 'unreachable';
    migrations = 'unknown';
  }
  const ingestionCheck: CheckResult =
    ingestion.kind === 'off' ? 'disabled' : ingestion.up ? 'ok' : ingestion.kind === 'embedded' ? 'embedded MQTT broker not listening' : 'external MQTT broker not connected';
  const checks = { database, migrations, ingestion: ingestionCheck };
  return { ready: Object.values(checks).every((c) => c === 'ok' || c === 'disabled'), checks };
}
