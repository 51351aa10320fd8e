import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import type { AppConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { MIGRATION_NAMES } from '../db/migrate';
import { findPostgresProgram } from './postgres-tools';

const run = promisify(execFile);

/** The archive's description, `manifest.json` at its root. */
export interface BackupManifest {
  format: 'sentinela-backup';
  version: 1;
  created_at: string;
  database: 'postgres' | 'pglite';
  /** The migrations the database had run (this release's list when it was up to date). */
  migrations: string[];
  /** The PostgreSQL server's major version (PostgreSQL backups). */
  server_major?: number;
  /** Folders (and the signing certificate file) in the archive under files/, by name. */
  files: string[];
}

/** A refusal the operator can act on: printed as it is, without a stack. */
export class BackupError extends Error {}

/**
 * What lives beside the database and must travel with it (X14, ADR 67): report files (their SHA-256 are in the
 * database: a report is only "Válido!" with its file), the platform's signing certificate and key (reports signed
 * before the backup keep validating, and new ones are signed by the same certificate), firmware files, the secrets made
 * once (VAPID keys: browsers' push subscriptions are bound to the public key; the contact form's HMAC key), and the
 * e-mail outbox. Each by its setting, so folders moved out of DATA_DIR are found too.
 */
function fileFolders(config: AppConfig): { name: string; target: string }[] {
  return [
    { name: 'reports', target: config.reportsDir },
    { name: 'signing', target: config.reportSigningDir },
    { name: 'firmware', target: config.firmwareDir },
    { name: 'calibrations', target: config.calibrationsDir },
    { name: 'secrets', target: path.dirname(config.vapidKeysFile) },
    { name: 'outbox', target: config.mailOutboxDir },
  ];
}

const hasEntries = (dir: string) => existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length > 0;

/** pg_dump and pg_restore take the password from the environment, never from their command line (`ps` shows it). */
function connectionOf(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function serverMajor(databaseUrl: string): Promise<number> {
  const database = await openDatabase({ databaseUrl, dataDir: '', poolSize: 1 });
  try {
    const row = await sql<{ v: string }>`show server_version_num`.execute(database.db);
    return Math.floor(Number(row.rows[0]!.v) / 10000);
  } finally {
    await database.close();
  }
}

async function ranMigrations(config: AppConfig, lite?: PGlite): Promise<string[]> {
  if (lite) {
    const found = await lite.query<{ name: string }>(`select name from kysely_migration order by name`).catch(() => ({ rows: [] as { name: string }[] }));
    return found.rows.map((r) => r.name);
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: '', poolSize: 1 });
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    return rows.rows.map((r) => r.name);
  } finally {
    await database.close();
  }
}

/**
 * `npm run backup -- --out FILE`: one .tar.gz holding the database and the files beside it. PostgreSQL through the
 * machine's pg_dump (custom format, a consistent snapshot while the server runs); the embedded database through
 * PGlite's own dump, which needs the server stopped (one process owns an embedded database). The database first, then
 * the files: a report row in the dump always finds its file in the archive.
 */
export async function createBackup(config: AppConfig, out: string, log: (line: string) => void = () => {}): Promise<BackupManifest> {
  const target = path.resolve(out);
  if (existsSync(target)) throw new BackupError(`Backup recusado: ${target} já existe (escolha outro arquivo; nada é sobrescrito).`);
  const staging = mkdtempSync(path.join(tmpdir(), 'sentinela-backup-'));
  try {
    let manifest: BackupManifest;
    if (config.databaseUrl) {
      const pgDump = findPostgresProgram('pg_dump');
      if (!pgDump) throw new BackupError('pg_dump não encontrado: instale o cliente do PostgreSQL (apt-get install postgresql-client).');
      const major = await serverMajor(config.databaseUrl);
      if (pgDump.major < major) {
        throw new BackupError(`pg_dump ${pgDump.major} não copia um servidor PostgreSQL ${major}: instale postgresql-client-${major}.`);
      }
      const { url, env } = connectionOf(config.databaseUrl);
      log(`Copiando o banco PostgreSQL ${major} com ${pgDump.path}…`);
      await run(pgDump.path, ['--format=custom', '--no-owner', '--no-privileges', `--file=${path.join(staging, 'database.pgdump')}`, `--dbname=${url}`], { env, maxBuffer: 16 * 1024 * 1024 });
      manifest = { format: 'sentinela-backup', version: 1, created_at: new Date().toISOString(), database: 'postgres', migrations: await ranMigrations(config), server_major: major, files: [] };
    } else {
      if (!existsSync(path.join(config.dataDir, 'PG_VERSION'))) throw new BackupError(`Nenhum banco embutido em ${config.dataDir} (DATA_DIR).`);
      log(`Copiando o banco embutido de ${config.dataDir} (o servidor deve estar parado)…`);
      const lite = await PGlite.create(config.dataDir);
      try {
        const migrations = await ranMigrations(config, lite);
        const dump = await lite.dumpDataDir('gzip');
        writeFileSync(path.join(staging, 'database.pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
        manifest = { format: 'sentinela-backup', version: 1, created_at: new Date().toISOString(), database: 'pglite', migrations, files: [] };
      } finally {
        await lite.close();
      }
    }

    for (const { name, target: dir } of fileFolders(config)) {
      if (!hasEntries(dir)) continue;
      cpSync(dir, path.join(staging, 'files', name), { recursive: true });
      manifest.files.push(name);
    }
    if (config.reportSigningP12 && existsSync(config.reportSigningP12)) {
      cpSync(config.reportSigningP12, path.join(staging, 'files', 'signing-p12', path.basename(config.reportSigningP12)));
      manifest.files.push('signing-p12');
    }
    writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(path.dirname(target), { recursive: true });
    await run('tar', ['-czf', target, '-C', staging, '.']);
    log(`Backup gravado em ${target} (${manifest.database}, ${manifest.migrations.length} migrações, arquivos: ${manifest.files.join(', ') || 'nenhum'}).`);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * `npm run restore -- --in FILE`: into an empty target only — DATA_DIR (the embedded database lives there) and, with
 * DATABASE_URL, an empty database (e.g. just made with createdb). Anything there already is refused, never merged or
 * overwritten. The server then starts on it as usual (and runs the migrations of a newer release, if any).
 */
export async function restoreBackup(config: AppConfig, input: string, log: (line: string) => void = () => {}): Promise<BackupManifest> {
  const source = path.resolve(input);
  if (!existsSync(source)) throw new BackupError(`Arquivo de backup não encontrado: ${source}`);
  const staging = mkdtempSync(path.join(tmpdir(), 'sentinela-restore-'));
  try {
    await run('tar', ['-xzf', source, '-C', staging]).catch(() => {
      throw new BackupError(`${source} não é um backup do Sentinela (não é um .tar.gz legível).`);
    });
    const manifestFile = path.join(staging, 'manifest.json');
    const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest) : null;
    if (manifest?.format !== 'sentinela-backup' || manifest.version !== 1) throw new BackupError(`${source} não é um backup do Sentinela (manifest.json ausente ou de outro formato).`);
    const unknown = manifest.migrations.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) {
      throw new BackupError(`O backup é de uma versão mais nova do Sentinela (migrações ${unknown.join(', ')}): atualize o Sentinela antes de restaurar.`);
    }
    if (manifest.database === 'postgres' && !config.databaseUrl) throw new BackupError('Este backup é de um PostgreSQL: defina DATABASE_URL com um banco vazio para restaurá-lo.');
    if (manifest.database === 'pglite' && config.databaseUrl) throw new BackupError('Este backup é do banco embutido: restaure-o sem DATABASE_URL, em um DATA_DIR vazio.');

    // Empty targets only: the database, DATA_DIR (embedded) and each folder the files go to.
    const occupied: string[] = [];
    if (config.databaseUrl) {
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: '', poolSize: 1 });
      try {
        const tables = await sql<{ n: number }>`select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
          where c.relkind in ('r', 'p') and s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg_toast%'`.execute(database.db);
        if (tables.rows[0]!.n > 0) occupied.push(`o banco de DATABASE_URL tem ${tables.rows[0]!.n} tabelas`);
      } finally {
        await database.close();
      }
    } else if (hasEntries(config.dataDir)) occupied.push(`DATA_DIR ${config.dataDir} não está vazio`);
    for (const { target } of fileFolders(config)) if (hasEntries(target) && !occupied.some((o) => o.includes(config.dataDir))) occupied.push(`${target} não está vazio`);
    if (occupied.length > 0) {
      throw new BackupError(`Restauração recusada: o destino não está vazio (${occupied.join('; ')}). Restaure em um DATA_DIR vazio e, com DATABASE_URL, em um banco de dados vazio; nada foi alterado.`);
    }

    if (manifest.database === 'postgres') {
      const pgRestore = findPostgresProgram('pg_restore');
      if (!pgRestore) throw new BackupError('pg_restore não encontrado: instale o cliente do PostgreSQL (apt-get install postgresql-client).');
      const { url, env } = connectionOf(config.databaseUrl!);
      log(`Restaurando o banco PostgreSQL com ${pgRestore.path}…`);
      await run(pgRestore.path, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, path.join(staging, 'database.pgdump')], { env, maxBuffer: 16 * 1024 * 1024 }).catch(
        (err: { stderr?: string }) => {
          throw new BackupError(`pg_restore falhou: ${(err.stderr ?? String(err)).trim()}`);
        },
      );
    } else {
      log(`Restaurando o banco embutido em ${config.dataDir}…`);
      mkdirSync(config.dataDir, { recursive: true });
      const dump = readFileSync(path.join(staging, 'database.pglite.tar.gz'));
      const lite = await PGlite.create(config.dataDir, { loadDataDir: new Blob([dump]) });
      await lite.query('select 1');
      await lite.close();
    }

    for (const { name, target } of fileFolders(config)) {
      if (!manifest.files.includes(name)) continue;
      cpSync(path.join(staging, 'files', name), target, { recursive: true });
    }
    if (manifest.files.includes('signing-p12') && config.reportSigningP12 && !existsSync(config.reportSigningP12)) {
      const [file] = readdirSync(path.join(staging, 'files', 'signing-p12'));
      if (file) cpSync(path.join(staging, 'files', 'signing-p12', file), config.reportSigningP12);
    }
    log(`Backup de ${manifest.created_at} restaurado (${manifest.database}, arquivos: ${manifest.files.join(', ') || 'nenhum'}). Inicie o servidor normalmente.`);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
