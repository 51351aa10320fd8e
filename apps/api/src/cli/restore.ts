import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config';
import { BackupError, restoreBackup } from '../ops/backup';

/**
 *   npm run restore -- --in ARQUIVO.tar.gz
 * Restores a backup of `npm run backup` into an empty DATA_DIR and, with DATABASE_URL, an empty database; refuses a
 * target that holds anything. docs/operations.md.
 */
async function main() {
  const { values } = parseArgs({ options: { in: { type: 'string' } } });
  if (!values.in) throw new BackupError('Uso: npm run restore -- --in ARQUIVO.tar.gz');
  await restoreBackup(loadConfig(), values.in, (line) => console.log(line));
}

main().catch((err) => {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
});
