import { parseArgs } from 'node:util';
import { passwordSchema, Profile } from '@sentinela/contract';
import { loadConfig } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { hashPassword } from '../modules/auth/service';

/**
 * Creates the first super admin of a production installation (run with DEMO=0):
 *   npm run admin:create -- --username ana --name "Ana Lima" --email ana@example.com
 * The password comes from SENTINELA_ADMIN_PASSWORD, so it never lands in shell history.
 */
async function main() {
  const { values } = parseArgs({ options: { username: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } } });
  const password = process.env.SENTINELA_ADMIN_PASSWORD ?? '';
  if (!values.username || !values.name || !values.email) throw new Error('Informe --username, --name e --email.');
  const checked = passwordSchema().safeParse(password);
  if (!checked.success) throw new Error(`SENTINELA_ADMIN_PASSWORD: ${checked.error.issues[0]?.message}`);

  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    await database.db
      .insertInto('users')
      .values({ name: values.name, username: values.username, email: values.email, phone: null, password_hash: await hashPassword(password), profile_id: Profile.SuperAdmin, enterprise_id: null, telegram_chat_id: null, verified: true })
      .execute();
    console.log(`Super administrador ${values.username} criado.`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
