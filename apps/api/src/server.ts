import { loadConfig } from './config/config';
import { adoptListenAddress } from './config/public-url';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { buildApp } from './app';
import { listenWarm } from './listen';
import { exitCleanlyOnSignals } from './shutdown';
import { systemClock } from './lib/clock';
import { createLogger } from './lib/log-redaction';
import { DEMO_GATEWAY_KEY, DEMO_PASSWORD, isDatabaseEmpty, seedDemoData } from './seed/demo';

/** The process: configuration, database, migrations, demo data, listen, graceful close. */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize,
    onIdleError: (err) => logger.warn({ err }, 'idle database connection lost; the pool opens another'),
  });
  logger.info({ database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined }, 'database opened');
  await migrateToLatest(database.db);

  const seeded = config.demo && (await isDatabaseEmpty(database.db));
  if (seeded) {
    logger.info('empty database: seeding demo data');
    await seedDemoData(database.db, systemClock);
  }

  const { app } = await buildApp({ config, db: database.db, logger });
  exitCleanlyOnSignals({ app, closeDatabase: () => database.close(), logger, timeoutMs: config.shutdownTimeoutSeconds * 1000 });

  await listenWarm(app, { port: config.port, host: config.host });
  const url = adoptListenAddress(config, app.server.address());
  if (config.publicUrlFromListen) {
    logger.warn({ publicUrl: url }, 'PUBLIC_URL is not set: links in e-mails, monitor links and gateway instructions use the listen address');
  }
  const lines = [`Sentinela em ${url}`];
  if (config.publicUrlFromListen) lines.push(`PUBLIC_URL não definido: links enviados usam ${url} (defina PUBLIC_URL com o endereço que usuários e gateways alcançam)`);
  if (config.demo) {
    lines.push(
      `Logins de demonstração (senha ${DEMO_PASSWORD}): admin · aurora.adm · joao.silva · vida.adm · maria.souza`,
      `Chave do gateway de demonstração: ${DEMO_GATEWAY_KEY}`,
    );
  }
  console.log(`\n${lines.join('\n')}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
