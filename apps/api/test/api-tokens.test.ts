import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_TOKEN_IN_TEXT, API_TOKEN_SCOPES, TOKEN_SCOPES_OF_PERMISSION, type ApiToken, type ApiTokenScope, type CreatedApiToken } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { walkableRoutes } from './route-walk';
import { CODES, MACS, travelId, userId } from './travel-helpers';

/**
 * X13 API tokens (ADR 64): made by an enterprise administrator, shown once, kept as a hash, sent as a Bearer token on
 * the routes of a session, acting within the enterprise narrowed by scopes, never on routes only a person uses,
 * revoked at once, logged as the token, limited per token. Tokens of Aurora try Vida Farma's ids.
 */
let ctx: TestContext;
let aurora: string;
let vida: string;
let joao: string;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());
// Tests move the clock: fresh sessions once the 5-minute window may have closed (logins are limited per minute).
let signedInAt = -Infinity;
beforeEach(async () => {
  if (ctx.clock.now().getTime() - signedInAt < 3 * 60_000) return;
  signedInAt = ctx.clock.now().getTime();
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
  joao = (await ctx.login('joao.silva')).token;
  admin = (await ctx.login('admin')).token;
});

async function createToken(session: string, scopes: readonly ApiTokenScope[], extra: Record<string, unknown> = {}): Promise<CreatedApiToken> {
  const res = await ctx.request('POST', '/api/api-tokens', session, { name: `ERP ${scopes.length === 1 ? scopes[0] : `${scopes.length} escopos`}`, scopes, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const ALL: ApiTokenScope[] = [...API_TOKEN_SCOPES];

describe('X13 creating and listing tokens', () => {
  it('answers the token once, keeps only its hash, and lists it without the value', async () => {
    const created = await createToken(aurora, ['devices:read', 'readings:read'], { expires_at: at(ctx, 30 * 86_400) });
    expect(created).toMatchObject({ name: 'ERP 2 escopos', scopes: ['devices:read', 'readings:read'] });
    expect(created.token).toMatch(/^stk_[A-Za-z0-9_-]{43}$/);
    // The prefix is what log redaction and secret scanners look for.
    expect(`Authorization: Bearer ${created.token}`.match(API_TOKEN_IN_TEXT)).toEqual([created.token]);
    const stored = await ctx.db.selectFrom('api_tokens').selectAll().where('id', '=', created._id).executeTakeFirstOrThrow();
    expect(stored.token_hash.length).toBe(32);
    expect(JSON.stringify(stored)).not.toContain(created.token.slice(4));

    const list = await ctx.request('GET', '/api/api-tokens', aurora);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    const listed = (list.json() as ApiToken[]).find((t) => t._id === created._id)!;
    expect(listed).toMatchObject({ status: 'active', token_prefix: created.token.slice(0, 8), last_used_at: null, revoked_at: null, created_by: { name: expect.any(String) } });
    // Vida Farma never sees Aurora's tokens.
    expect((await ctx.request('GET', '/api/api-tokens', vida)).json()).not.toContainEqual(expect.objectContaining({ _id: created._id }));
  });

  it('is for enterprise administrators only (a user and the super admin are refused)', async () => {
    for (const session of [joao, admin]) {
      const res = await ctx.request('POST', '/api/api-tokens', session, { name: 'x', scopes: ['devices:read'] });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Você não tem permissão para acessar este recurso.');
    }
    expect((await ctx.request('GET', '/api/api-tokens')).statusCode).toBe(401);
  });

  it('refuses unknown or repeated scopes, no scope, a past expiry, a bad name: pt-BR 400, nothing stored', async () => {
    const before = await ctx.db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const cases: [unknown, string][] = [
      [{ name: 'x', scopes: ['devices:write'] }, 'Escopo desconhecido. Escopos válidos: devices:read, readings:read, alarms:read, alarms:write, travels:read, travels:write, reports:read.'],
      [{ name: 'x', scopes: [] }, 'Escolha ao menos um escopo.'],
      [{ name: 'x', scopes: ['devices:read', 'devices:read'] }, 'Escopo repetido.'],
      [{ name: 'x', scopes: 'devices:read' }, 'Escolha ao menos um escopo.'],
      [{ name: 'x', scopes: ['devices:read'], expires_at: at(ctx, -60) }, 'A validade deve ser uma data futura.'],
      [{ name: 'x', scopes: ['devices:read'], expires_at: '3000-01-01T00:00:00Z' }, 'A validade não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).'],
      [{ name: 'x', scopes: ['devices:read'], expires_at: '2030-01-01' }, 'A validade não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).'],
      [{ name: ' ', scopes: ['devices:read'] }, 'Informe o nome do token.'],
      [{ name: 'a\u0000b', scopes: ['devices:read'] }, 'O nome contém caracteres inválidos.'],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.request('POST', '/api/api-tokens', aurora, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      // The message of the field (the error line adds which field it was).
      expect(res.json().issues?.[0]?.message ?? res.json().error, JSON.stringify(body)).toBe(message);
    }
    const after = await ctx.db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('X13 a token at work', () => {
  it('reads what its scopes allow, within its enterprise, and gets 403 outside its scopes', async () => {
    const { token } = await createToken(aurora, ['devices:read']);
    const devices = await ctx.request('GET', '/api/beacon-device/all', token);
    expect(devices.statusCode, devices.body).toBe(200);
    const macs = (devices.json() as { mac: string }[]).map((d) => d.mac).sort();
    expect(macs).toEqual([MACS.truck1, MACS.truck2, MACS.chamber, MACS.freezer].sort());

    const outside = await ctx.request('GET', '/api/travels', token);
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'FORBIDDEN', error: 'Este token de API não tem o escopo necessário (travels:read).' });
    const history = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck1}`, token);
    expect(history.statusCode).toBe(403);
    expect(history.json().error).toBe('Este token de API não tem o escopo necessário (readings:read).');
  });

  it('never calls what only a person at the screen does: profile, password, sign-out, users, billing, tokens, webhooks', async () => {
    const { token } = await createToken(aurora, ALL);
    const refused: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', '/api/profile'],
      ['POST', '/api/me/change-password', { current_password: 'Sentinela@2026', password: 'Outra@Senha2027', password_confirmation: 'Outra@Senha2027' }],
      ['POST', '/api/logout'],
      ['POST', '/api/session/presence'],
      ['GET', '/api/me/config/notification-channel'],
      ['GET', '/api/users-by-client/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/invoices'],
      ['GET', '/api/gateways'],
      ['GET', '/api/api-tokens'],
      ['POST', '/api/api-tokens', { name: 'outro', scopes: ['devices:read'] }],
      ['GET', '/api/webhooks'],
    ];
    for (const [method, url, body] of refused) {
      const res = await ctx.request(method, url, token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error, `${method} ${url}`).toBe('Esta operação não aceita tokens de API; use uma sessão.');
    }
    // A public route answers a token as anyone (it is no person's session).
    expect((await ctx.request('GET', `/api/travels/localizator/${CODES.auroraInProgress}`, token)).statusCode).toBe(200);
  });

  it('maps every permission of every route through the one table (a route a token may call needs its scopes)', () => {
    const permissions = new Set(walkableRoutes(ctx.routes).map((r) => (r.options.config as { permission?: string }).permission));
    for (const permission of permissions) {
      if (!permission || permission === 'public' || permission === 'public-or-signed-in') continue;
      expect(permission in TOKEN_SCOPES_OF_PERMISSION, permission).toBe(true);
    }
  });

  it('acknowledges an alarm with alarms:write, attributed to its creator and logged as the token', async () => {
    ctx.clock.advance(60_000);
    await postReadings(ctx, [{ mac: MACS.truck2, ts: at(ctx, -10), temperature: 12 }]);
    const alarm = await ctx.db
      .selectFrom('alarms as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .select('a.id')
      .where('d.mac', '=', MACS.truck2)
      .where('a.active', '=', true)
      .executeTakeFirstOrThrow();
    const reader = await createToken(aurora, ['alarms:read']);
    expect((await ctx.request('POST', `/api/alarms/${alarm.id}/acknowledge`, reader.token, { message: 'ERP' })).statusCode).toBe(403);
    expect((await ctx.request('GET', `/api/beacon-device/${MACS.truck2}/notifications`, reader.token)).statusCode).toBe(200);

    const writer = await createToken(aurora, ['alarms:write']);
    const res = await ctx.request('POST', `/api/alarms/${alarm.id}/acknowledge`, writer.token, { message: 'Reconhecido pelo ERP' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().acknowledge).toMatchObject({ message: 'Reconhecido pelo ERP', user: { _id: await userId(ctx, 'aurora.adm') } });

    await ctx.services.accessLog.flush();
    const logged = await ctx.db.selectFrom('access_log').selectAll().where('api_token_id', '=', writer._id).execute();
    expect(logged.map((r) => r.message)).toEqual(['Reconheceu um alarme — pelo token de API «ERP alarms:write»']);
    // The administrator's own log (M7) shows it, read as they read every other line.
    const log = await ctx.request('GET', `/api/access-log?user_id=${await userId(ctx, 'aurora.adm')}`, aurora);
    expect((log.json() as { message: string }[]).map((e) => e.message)).toContain('Reconheceu um alarme — pelo token de API «ERP alarms:write»');
    expect(logged[0]!.user_id).toBe(await userId(ctx, 'aurora.adm'));
    // The audit trail names the token as the actor of the change, not its creator (ADR 0060).
    const entries = await ctx.db
      .selectFrom('audit_trail')
      .select(['actor_type', 'actor_id', 'actor_name', 'action'])
      .where('entity', '=', 'alarm')
      .where('entity_id', '=', alarm.id)
      .where('action', '=', 'update')
      .execute();
    expect(entries).toEqual([{ actor_type: 'api_token', actor_id: writer._id, actor_name: 'ERP alarms:write', action: 'update' }]);
  });

  it('writes travels with travels:write only', async () => {
    const id = await travelId(ctx, CODES.auroraNotStarted);
    const reader = await createToken(aurora, ['travels:read']);
    expect((await ctx.request('GET', `/api/travels/${id}`, reader.token)).statusCode).toBe(200);
    expect((await ctx.request('POST', `/api/travels/${id}/status`, reader.token, { status: 1 })).statusCode).toBe(403);
    const writer = await createToken(aurora, ['travels:write', 'travels:read']);
    const started = await ctx.request('POST', `/api/travels/${id}/status`, writer.token, { status: 1 });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().status).toBe(1);
  });

  it('keeps last_used_at to the minute without a write per request', async () => {
    const { _id, token } = await createToken(aurora, ['devices:read']);
    for (let i = 0; i < 5; i++) expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(200);
    // Nothing written yet: uses are gathered in memory.
    expect((await ctx.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', _id).executeTakeFirstOrThrow()).last_used_at).toBeNull();
    const firstUse = ctx.clock.now();
    await ctx.services.apiTokens.flushUsage();
    expect((await ctx.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', _id).executeTakeFirstOrThrow()).last_used_at).toEqual(firstUse);
    // Within the minute: not written again; a minute later: written.
    ctx.clock.advance(20_000);
    await ctx.request('GET', '/api/beacon-device/all', token);
    await ctx.services.apiTokens.flushUsage();
    expect((await ctx.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', _id).executeTakeFirstOrThrow()).last_used_at).toEqual(firstUse);
    ctx.clock.advance(61_000);
    await ctx.request('GET', '/api/beacon-device/all', token);
    await ctx.services.apiTokens.flushUsage();
    const listed = ((await ctx.request('GET', '/api/api-tokens', aurora)).json() as ApiToken[]).find((t) => t._id === _id)!;
    expect(listed.last_used_at).toBe(ctx.clock.now().toISOString());
  });
});

describe('X13 a token stops', () => {
  it('at once when revoked (another enterprise cannot revoke it), recorded in the audit trail', async () => {
    const { _id, token } = await createToken(aurora, ['devices:read']);
    expect((await ctx.request('DELETE', `/api/api-tokens/${_id}`, vida)).statusCode).toBe(404);
    expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(200);
    const revoked = await ctx.request('DELETE', `/api/api-tokens/${_id}`, aurora);
    expect(revoked.statusCode).toBe(200);
    const after = await ctx.request('GET', '/api/beacon-device/all', token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('Token de API inválido, expirado ou revogado.');
    expect(((await ctx.request('GET', '/api/api-tokens', aurora)).json() as ApiToken[]).find((t) => t._id === _id)!.status).toBe('revoked');
    expect((await ctx.request('DELETE', '/api/api-tokens/not-an-id', aurora)).statusCode).toBe(400);
    const trail = await ctx.db.selectFrom('audit_trail').select(['action', 'actor_type', 'after']).where('entity', '=', 'api_token').where('entity_id', '=', _id).orderBy('seq').execute();
    expect(trail.map((e) => [e.action, e.actor_type])).toEqual([['create', 'user'], ['update', 'user']]);
    expect(JSON.stringify(trail)).not.toContain(token.slice(4, 20));
  });

  it('when it expires, with no sliding window', async () => {
    const { _id, token } = await createToken(aurora, ['devices:read'], { expires_at: at(ctx, 3600) });
    ctx.clock.advance(59 * 60_000);
    expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(200);
    ctx.clock.advance(60_000);
    expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(401);
    aurora = (await ctx.login('aurora.adm')).token;
    expect(((await ctx.request('GET', '/api/api-tokens', aurora)).json() as ApiToken[]).find((t) => t._id === _id)!.status).toBe('expired');
  });

  it('when its creator is no longer an active administrator of the enterprise', async () => {
    // A second administrator of Aurora creates a token, then is deactivated by aurora.adm.
    const created = await ctx.request('POST', '/api/user/create', aurora, {
      name: 'Segundo Admin', username: 'segundo.adm', email: 'segundo.adm@aurora.test', phone: '(11) 98888-7777', profile: { _id: 2 },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const secondId = await userId(ctx, 'segundo.adm');
    // The new administrator would choose a password from an e-mailed code (ADR 17); here they take the demo's.
    const demoHash = (await ctx.db.selectFrom('users').select('password_hash').where('username', '=', 'aurora.adm').executeTakeFirstOrThrow()).password_hash;
    await ctx.db.updateTable('users').set({ password_hash: demoHash, verified: true }).where('id', '=', secondId).execute();
    const second = (await ctx.login('segundo.adm')).token;
    const { _id, token } = await createToken(second, ['devices:read']);
    expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(200);
    const off = await ctx.request('POST', '/api/client-active-inactive', aurora, { user_id: secondId, status: true });
    expect(off.statusCode, off.body).toBe(200);
    expect((await ctx.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(401);
    expect(((await ctx.request('GET', '/api/api-tokens', aurora)).json() as ApiToken[]).find((t) => t._id === _id)!.status).toBe('creator_inactive');
  });

  it('at its own request budget, apart from its creator’s', async () => {
    const limited = await createTestContext({ demo: true, config: { apiTokenMaxRequestsPerMinute: 3 } });
    try {
      const session = (await limited.login('aurora.adm')).token;
      const res = await limited.request('POST', '/api/api-tokens', session, { name: 'loop', scopes: ['devices:read'] });
      const { token } = res.json() as CreatedApiToken;
      for (let i = 0; i < 3; i++) expect((await limited.request('GET', '/api/beacon-device/all', token)).statusCode).toBe(200);
      const over = await limited.request('GET', '/api/beacon-device/all', token);
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBeDefined();
      expect(over.json().error).toBe('Muitas requisições. Aguarde um instante e tente novamente.');
      // The administrator's own session is not held back by the token's loop.
      expect((await limited.request('GET', '/api/beacon-device/all', session)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('a bearer that looks like a token but is none answers 401, never a 500', async () => {
    for (const bearer of [`stk_${'A'.repeat(43)}`, 'stk_short', `stk_${'A'.repeat(42)}\u00e9`]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/beacon-device/all', headers: { authorization: `Bearer ${bearer}` } });
      expect(res.statusCode, bearer).toBe(401);
    }
  });
});

describe('X13 tenant walls: a token of Aurora on Vida Farma’s ids', () => {
  it('answers 404 for another enterprise’s device, travel, alarm and report, as for ids that do not exist', async () => {
    const { token } = await createToken(aurora, ALL);
    // A Vida Farma alarm and report, made through Vida Farma's own session.
    ctx.clock.advance(60_000);
    await postReadings(ctx, [{ mac: MACS.vaccines, ts: at(ctx, -5), temperature: 30 }]);
    const vidaAlarm = await ctx.db
      .selectFrom('alarms as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .select('a.id')
      .where('d.mac', '=', MACS.vaccines)
      .executeTakeFirstOrThrow();
    const report = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.vaccines}/pdf`, vida);
    expect(report.statusCode, report.body).toBe(200);
    const reportId = (report.json() as { _id: string })._id;
    const vidaTravel = await travelId(ctx, CODES.vidaInProgress);
    const vidaDevice = (await ctx.db.selectFrom('devices').select('id').where('mac', '=', MACS.vaccines).executeTakeFirstOrThrow()).id;

    const attempts: ['GET' | 'POST' | 'PUT', string, unknown?][] = [
      ['GET', `/api/show-beacon-device/${vidaDevice}`],
      ['GET', `/api/beacon-device/history/mac/${MACS.vaccines}`],
      ['GET', `/api/beacon-device/${MACS.vaccines}/notifications`],
      ['GET', `/api/readings?mac=${encodeURIComponent(MACS.vaccines)}`],
      ['GET', `/api/travels/${vidaTravel}`],
      ['POST', `/api/travels/${vidaTravel}/status`, { status: 3 }],
      ['POST', `/api/alarms/${vidaAlarm.id}/acknowledge`, { message: 'não é meu' }],
      ['GET', `/api/alarms/${vidaAlarm.id}/deliveries`],
      ['GET', `/api/reports/${reportId}`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await ctx.request(method, url, token, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    // And lists hold none of Vida Farma's.
    const travels = (await ctx.request('GET', '/api/travels?paginate=false', token)).json() as { data: { data: { code: string }[] } };
    expect(travels.data.data.map((t) => t.code).filter((c) => c.startsWith('AUR')).length).toBeGreaterThan(0);
    expect(travels.data.data.map((t) => t.code).filter((c) => c.startsWith('VDF'))).toEqual([]);
    const reports = (await ctx.request('GET', '/api/reports', token)).json() as { _id: string }[];
    expect(reports.map((r) => r._id)).not.toContain(reportId);
    // Vida Farma's alarm is still unacknowledged.
    expect((await ctx.db.selectFrom('alarms').select('acknowledged_at').where('id', '=', vidaAlarm.id).executeTakeFirstOrThrow()).acknowledged_at).toBeNull();
  });
});
