import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../apps/api/src/db/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
// @ts-expect-error plain ESM helper shared with the test runner
import { startPostgres } from '../../scripts/lib/postgres.mjs';

export interface BenchDatabase {
  /** The migrated database, opened with a pool of 10. */
  database: DatabaseHandle;
  /** Its URL, for a server process started on it. */
  url: string;
  /** Closes it, and stops the PostgreSQL server when this helper started one. */
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for a benchmark: on the server of DATABASE_URL (or `adminUrl`, `npm run bench` passes
 * its own), else on a throwaway PostgreSQL started here. Named `<prefix>_<random>` so runs never share data.
 */
export async function openBenchDatabase(prefix: string, adminUrl: string | undefined = process.env.DATABASE_URL): Promise<BenchDatabase> {
  let stop: (() => void) | undefined;
  if (!adminUrl) {
    const server = await startPostgres();
    adminUrl = server.url as string;
    stop = server.stop as () => void;
  }
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 10 });
  await migrateToLatest(database.db);
  return {
    database,
    url: url.toString(),
    async close() {
      await database.close();
      stop?.();
    },
  };
}
