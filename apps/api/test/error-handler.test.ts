import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@sentinela/contract';
import type { DatabaseHandle } from '../src/db/database';
import errorHandler from '../src/plugins/error-handler';
import { openTestDatabase } from './context';

/**
 * The error handler's last line of defence: a value that a schema let through and the database refused is the
 * client's 400 in pt-BR (not a 500), and an error-level log line that names the defect. Every request schema
 * refuses these values first, so no route of the app reaches this; here routes run the failing SQL directly,
 * on the database of the run (pg's and PGlite's errors alike).
 */
let handle: DatabaseHandle;
let app: FastifyInstance;
const logs: Array<{ level: number; msg: string; sqlState?: string; dbMessage?: string; params?: unknown }> = [];

const failing: Record<string, string> = {
  // class 22: data exceptions
  '22P02': `SELECT 'not-a-uuid'::uuid`,
  '22003': `SELECT 1e-50::float8::real`,
  '22008': `SELECT '294277-01-01'::timestamptz + interval '1000000 years'`,
  '22021': `SELECT convert_from('\\x00'::bytea, 'UTF8')`,
  '22012': `SELECT 1 / 0`,
  // class 23 the request can cause
  '23503': `INSERT INTO device_users (device_id, user_id) VALUES (gen_random_uuid(), gen_random_uuid())`,
  '23514': `INSERT INTO travels (code, status, origin_address, destiny_address) VALUES ('X', 9, 'a', 'b')`,
  '23502': `INSERT INTO enterprises (name) VALUES (NULL)`,
};

beforeAll(async () => {
  handle = await openTestDatabase();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  app = Fastify({ loggerInstance: pino({ level: 'info' }, stream) as FastifyBaseLogger });
  await app.register(errorHandler);
  app.get<{ Params: { code: string } }>('/fail/:code', async (request) => {
    await sql.raw(failing[request.params.code] ?? 'SELECT 1').execute(handle.db);
    return { ok: true };
  });
  app.get('/param', async () => {
    await sql`SELECT ${'a\u0000b'}::text`.execute(handle.db);
    return { ok: true };
  });
  app.get('/other', async () => {
    await sql`SELECT * FROM no_such_table`.execute(handle.db);
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await handle.close();
});

describe('database value errors', () => {
  it.each(Object.keys(failing))('SQLSTATE %s answers 400 in pt-BR and is logged as a defect', async (code) => {
    logs.length = 0;
    const res = await app.inject({ method: 'GET', url: `/fail/${code}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION',
      error: code.startsWith('22') ? MSG.valueNotStorable : MSG.referenceNotFound,
    });
    const line = logs.find((l) => l.sqlState !== undefined);
    expect(line).toMatchObject({ level: 50, sqlState: code, msg: expect.stringContaining('request schema') });
  });

  it('keeps the values of the query out of the log', async () => {
    logs.length = 0;
    const res = await app.inject({ method: 'GET', url: '/param' });
    expect(res.statusCode).toBe(400);
    const line = logs.find((l) => l.sqlState === '22021');
    expect(line).toBeDefined();
    expect(JSON.stringify(line)).not.toContain('a\\u0000b');
    expect(line).not.toHaveProperty('params');
  });

  it('any other database failure stays a hidden 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/other' });
    expect(res.statusCode).toBe(500);
    expect(res.json().error).toBe(MSG.internalError);
  });
});
