import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config';
import { BackupError, createBackup } from '../ops/backup';

/**
 *   npm run backup -- --out ARQUIVO.tar.gz
 * Writes one .tar.gz with the database (PostgreSQL through pg_dump, or the embedded one through PGlite's dump, server
 * stopped) and the files beside it (reports, signing certificate, firmware, secrets, outbox). docs/operations.md.
 */
async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out) throw new BackupError('Uso: npm run backup -- --out ARQUIVO.tar.gz');
  await createBackup(loadConfig(), values.out, (line) => console.log(line));
}

main().catch((err) => {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
});
