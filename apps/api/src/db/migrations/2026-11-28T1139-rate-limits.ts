import { sql, type Kysely } from 'kysely';

/**
 * Shared rate limits (ADR 54): the counters of rate-limiter-flexible's PostgreSQL store, one row per limit and key
 * (`<limit>:<key>`), so every API process on this database counts against the same budget. The columns are the
 * library's own (it would create the table itself; it is created here so that a migration owns the schema).
 * `expire` is milliseconds since the epoch; rows an hour past it are deleted by the app (lib/rate-limits).
 * UNLOGGED: counters of the last minutes are not worth a WAL record per request, and a crash that empties them
 * only forgives the attempts of the window that was running.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`.execute(db);
  await sql`CREATE INDEX rate_limits_expire ON rate_limits (expire)`.execute(db);
}
