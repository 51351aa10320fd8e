import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from './database';

/**
 * `COPY … FROM STDIN` through Kysely, inside its transactions (ADR 42). Kysely hands a statement and its parameters to
 * the pooled pg client's `query`; a client prepared by `enableCopyIn` recognises a COPY whose only parameter is a
 * CopyInData and streams that data with pg-copy-streams on the same connection, so a COPY joins whatever transaction
 * that connection is in. Only pooled PostgreSQL connections can: PGlite (the embedded default) has no COPY FROM STDIN
 * through its driver, and `supportsCopyIn` tells the callers which path to take.
 */
class CopyInData {
  constructor(readonly data: Buffer) {}
}

interface CopyResult {
  command: 'COPY';
  rowCount: number;
  rows: { rowCount: number }[];
}

const prepared = new WeakSet<pg.ClientBase>();
const copyCapable = new WeakSet<Db>();

/** For a pool's 'connect' event: lets this connection run COPY statements sent through Kysely. */
export function enableCopyIn(client: pg.ClientBase): void {
  if (prepared.has(client)) return;
  prepared.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length === 1 && values[0] instanceof CopyInData) {
      return runCopy(query, text, values[0].data);
    }
    return query(...args);
  };
}

function runCopy(query: (...args: unknown[]) => unknown, statement: string, data: Buffer): Promise<CopyResult> {
  return new Promise<CopyResult>((resolve, reject) => {
    const stream = query(copyFrom(statement)) as ReturnType<typeof copyFrom>;
    // 'finish' comes after the server's CommandComplete and ReadyForQuery; an error (a duplicate key, say) comes instead.
    stream.on('error', reject);
    stream.on('finish', () => resolve({ command: 'COPY', rowCount: stream.rowCount, rows: [{ rowCount: stream.rowCount }] }));
    stream.end(data);
  });
}

/** Marks a database whose every pooled connection was prepared by enableCopyIn. */
export function markCopyCapable(db: Db): void {
  copyCapable.add(db);
}

export function supportsCopyIn(db: Db): boolean {
  return copyCapable.has(db);
}

/**
 * Runs `statement` (a `COPY … FROM STDIN`) with `data` on `db`'s connection, which may be a transaction's; resolves
 * with the number of rows copied. Only for a database `supportsCopyIn` accepts (or a transaction of one).
 */
export async function copyIn(db: Db, statement: string, data: Buffer): Promise<number> {
  const result = await db.executeQuery<{ rowCount: number }>(CompiledQuery.raw(statement, [new CopyInData(data)]));
  const row = result.rows[0];
  if (!row) throw new Error('COPY ran on a connection that cannot copy in (enableCopyIn missing)');
  return row.rowCount;
}
