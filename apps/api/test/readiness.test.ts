import { createServer, type AddressInfo, type Server } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Aedes } from 'aedes';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { MIGRATION_NAMES } from '../src/db/migrate';
import { DEMO_GATEWAY_KEY, seedDemoData } from '../src/seed/demo';
import { ManualClock } from '../src/lib/clock';
import { createTestContext, openTestDatabase, testConfig, type TestContext } from './context';

/**
 * X14 Operations, readiness (ADR 67): GET /api/ready answers 200 only when the database answers, every migration of
 * this release has run and MQTT ingestion is up; 503 with what fails otherwise. /api/health stays the liveness answer.
 */
interface ReadyAnswer {
  status: 'ready' | 'not_ready';
  checks: { database: string; migrations: string; ingestion: string };
}

async function ready(ctx: Pick<TestContext, 'app'>): Promise<{ statusCode: number; body: ReadyAnswer }> {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
  return { statusCode: res.statusCode, body: res.json() as ReadyAnswer };
}

async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A local MQTT broker (Aedes) standing for an external one, which the test can stop and start again on its port. */
async function startBroker(port = 0): Promise<{ port: number; stop(): Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
});

describe('X14 readiness', () => {
  it('is ready with the database migrated and MQTT off, and says which checks it ran', async () => {
    const ctx = await createTestContext();
    contexts.push(ctx);
    const res = await ready(ctx);
    expect(res.statusCode).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', ingestion: 'disabled' } });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers 503 while a migration of this release has not run, naming it', async () => {
    const ctx = await createTestContext();
    contexts.push(ctx);
    const last = MIGRATION_NAMES.at(-1)!;
    const row = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${last}`.execute(ctx.db);
    expect(row.rows).toHaveLength(1);
    await sql`delete from kysely_migration where name = ${last}`.execute(ctx.db);
    const res = await ready(ctx);
    expect(res.statusCode).toBe(503);
    expect(res.body.status).toBe('not_ready');
    expect(res.body.checks).toEqual({ database: 'ok', migrations: `pending: ${last}`, ingestion: 'disabled' });
    // Liveness is another question: the process is alive.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await sql`insert into kysely_migration (name, timestamp) values (${last}, ${row.rows[0]!.timestamp})`.execute(ctx.db);
    expect((await ready(ctx)).statusCode).toBe(200);
  });

  it('answers 503 when the database does not answer, without telling where it is', async () => {
    const database = await openTestDatabase();
    const { app } = await buildApp({ config: testConfig(), db: database.db, clock: new ManualClock(new Date()), logger: false });
    await app.ready();
    try {
      expect((await ready({ app })).statusCode).toBe(200);
      await database.close();
      const res = await ready({ app });
      expect(res.statusCode).toBe(503);
      expect(res.body).toEqual({ status: 'not_ready', checks: { database: 'unreachable', migrations: 'unknown', ingestion: 'disabled' } });
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('follows the embedded MQTT broker', async () => {
    const ctx = await createTestContext({ config: { mqttEnabled: true, mqttPort: 0 } });
    contexts.push(ctx);
    await ctx.app.mqtt!.ready();
    const res = await ready(ctx);
    expect(res.statusCode).toBe(200);
    expect(res.body.checks.ingestion).toBe('ok');
  });

  it('answers 503 while the external MQTT broker is unreachable, and 200 again once it is back', async () => {
    let broker = await startBroker();
    const port = broker.port;
    const database = await openTestDatabase();
    const clock = new ManualClock(new Date());
    await seedDemoData(database.db, clock);
    const config = testConfig({ mqttEnabled: true, mqttUrl: `mqtt://127.0.0.1:${port}`, mqttGatewayKey: DEMO_GATEWAY_KEY, mqttClientId: `ready-${randomUUID()}` });
    const { app } = await buildApp({ config, db: database.db, clock, logger: false });
    await app.ready();
    try {
      await app.mqtt!.ready();
      expect((await ready({ app })).statusCode).toBe(200);

      await broker.stop();
      const down = await eventually(() => ready({ app }), (r) => r.statusCode === 503, 'not ready without the broker');
      expect(down.body.checks).toEqual({ database: 'ok', migrations: 'ok', ingestion: 'external MQTT broker not connected' });

      broker = await startBroker(port);
      const back = await eventually(() => ready({ app }), (r) => r.statusCode === 200, 'ready once the broker is back');
      expect(back.body.checks.ingestion).toBe('ok');
    } finally {
      await app.close();
      await database.close();
      await broker.stop();
    }
  });
});
