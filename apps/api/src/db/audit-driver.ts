import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { auditSetting, currentAuditContext, SYSTEM_DEFAULT } from '../lib/audit-context';

/**
 * The one place where the audit context (lib/audit-context.ts) reaches the database (ADR 0060): every Kysely query of
 * the app passes through this driver, which, before a statement that may write, makes sure the connection carries the
 * context of the code running now in the setting `sentinela.audit`, read by the audit triggers.
 *
 * - Inside a transaction: `set_config(…, true)`, local to the transaction, sent only when the transaction does not
 *   carry that context yet (its first write, or a write under another context).
 * - Outside a transaction: a connection is its caller's alone until released (a pooled PostgreSQL client; PGlite's one
 *   session behind Kysely's connection mutex), so the setting is made for the session (`false`) and remembered: a
 *   connection that keeps serving the same actor is never stamped again.
 *
 * Reads pay nothing, and neither do writes of the unaudited tables written on hot paths (sessions, access log,
 * readings). What counts as a write: INSERT, UPDATE, DELETE, MERGE (also inside WITH), and a raw statement whose text
 * writes a table (or calls audit_record).
 */
export function auditedDialect(dialect: Dialect): Dialect {
  return {
    createDriver: () => new AuditDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/**
 * Tables written on hot paths (every request, every ingested batch) that no audit trigger watches: a statement that
 * writes only these needs no context. A test checks that none of them is audited (audit-trail.test.ts).
 */
export const UNAUDITED_HOT_TABLES: ReadonlySet<string> = new Set([
  'sessions', 'access_log', 'readings', 'reading_rollups', 'reading_rollup_marks', 'reading_rollup_state', 'domain_events',
  // Late readings' marks for the seals (ADR 0080), written with the roll-up marks.
  'seal_marks',
  'ingest_rejections', 'discovered_devices', 'alarm_excursions', 'alarm_deliveries', 'device_events', 'spent_challenges',
  // Rate-limit counters (ADR 54): written by logins, lookups and the per-user budget's sync.
  'rate_limits',
]);

// The tables a raw statement writes ("FOR UPDATE" locks, it does not write).
const WRITE_TARGETS = /\b(?:insert\s+into|(?<!\bfor\s+)(?<!\bfor\s+no\s+key\s+)update|delete\s+from|merge\s+into|copy)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)/gi;
const OTHER_WRITES = /\baudit_record\b|\bset_config\b/i;

function rawMayWrite(text: string): boolean {
  if (OTHER_WRITES.test(text)) return true;
  let writes = false;
  for (const match of text.matchAll(WRITE_TARGETS)) {
    writes = true;
    if (!UNAUDITED_HOT_TABLES.has(match[1]!.toLowerCase())) return true;
  }
  // A statement that writes only unaudited tables; or one whose targets could not be read: treated as a write.
  return writes ? false : /\b(insert|update|delete|merge)\b/i.test(text.replace(/\bfor\s+(no\s+key\s+)?update\b/gi, ''));
}

interface TableNode { kind: 'TableNode'; table: { identifier: { name: string } } }
type Node = { kind: string; [key: string]: unknown };

function tableOf(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (n?.kind === 'TableNode') return (n as unknown as TableNode).table.identifier.name;
  if (n?.kind === 'AliasNode') return tableOf((n as unknown as { node: unknown }).node);
  return undefined;
}

function builtTargets(node: Node): (string | undefined)[] {
  switch (node.kind) {
    case 'InsertQueryNode':
      return [tableOf(node.into)];
    case 'UpdateQueryNode':
      return [tableOf(node.table)];
    case 'DeleteQueryNode':
      return ((node.from as { froms: unknown[] } | undefined)?.froms ?? [undefined]).map(tableOf);
    default:
      return [undefined];
  }
}

/** True when `query` may change a row an audit trigger watches (and so needs the audit context). */
export function mayWrite(query: CompiledQuery): boolean {
  const node = query.query as (Node & { with?: { expressions: readonly { expression: Node }[] } }) | undefined;
  if (!node || node.kind === 'RawNode') return rawMayWrite(query.sql);
  const writes: Node[] = [...(node.with?.expressions.map((cte) => cte.expression) ?? []), node].filter((n) =>
    ['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode'].includes(n.kind),
  );
  return writes.some((n) => builtTargets(n).some((table) => table === undefined || !UNAUDITED_HOT_TABLES.has(table)));
}

const stampStatement = (setting: string, local: boolean) =>
  CompiledQuery.raw(`SELECT set_config('sentinela.audit', $1, ${local ? 'true' : 'false'})`, [setting]);

class AuditedConnection implements DatabaseConnection {
  /** The setting the session carries (PostgreSQL only: made outside transactions). */
  sessionSetting: string | undefined;
  /** The setting the open transaction carries, if it made one. */
  transactionSetting: string | undefined;
  inTransaction = false;

  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!mayWrite(query)) return this.inner.executeQuery<R>(query);
    const setting = auditSetting(currentAuditContext() ?? SYSTEM_DEFAULT);
    if (this.inTransaction) {
      if ((this.transactionSetting ?? this.sessionSetting) !== setting) {
        await this.inner.executeQuery(stampStatement(setting, true));
        this.transactionSetting = setting;
      }
      return this.inner.executeQuery<R>(query);
    }
    if (this.sessionSetting !== setting) {
      // Cleared first: if the stamp fails half-way, the next write stamps again.
      this.sessionSetting = undefined;
      await this.inner.executeQuery(stampStatement(setting, false));
      this.sessionSetting = setting;
    }
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class AuditDriver implements Driver {
  readonly #connections = new WeakMap<DatabaseConnection, AuditedConnection>();

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let audited = this.#connections.get(connection);
    if (!audited) {
      audited = new AuditedConnection(connection);
      this.#connections.set(connection, audited);
    }
    return audited;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const audited = connection as AuditedConnection;
    await this.inner.beginTransaction(audited.inner, settings);
    audited.inTransaction = true;
    audited.transactionSetting = undefined;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const audited = connection as AuditedConnection;
    try {
      await this.inner.commitTransaction(audited.inner);
    } finally {
      audited.inTransaction = false;
      audited.transactionSetting = undefined;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const audited = connection as AuditedConnection;
    try {
      await this.inner.rollbackTransaction(audited.inner);
    } finally {
      audited.inTransaction = false;
      audited.transactionSetting = undefined;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.((connection as AuditedConnection).inner, name, compileQuery);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    const audited = connection as AuditedConnection;
    await this.inner.rollbackToSavepoint?.(audited.inner, name, compileQuery);
    // A setting made after the savepoint is undone with it.
    audited.transactionSetting = undefined;
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.((connection as AuditedConnection).inner, name, compileQuery);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as AuditedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
