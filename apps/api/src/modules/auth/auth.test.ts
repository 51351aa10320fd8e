import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SESSION_WINDOW_MS } from '@sentinela/contract';
import { createTestContext, type TestContext } from '../../../test/context';
import { sha256 } from '../../lib/tokens';
import { SESSION_RENEW_STEP_MS } from './session-service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
});
afterAll(() => ctx.close());

describe('POST /api/authenticate', () => {
  it('answers the token and the user as the documents give them', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 'aurora.adm', password: 'Sentinela@2026' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token.token).toMatch(/^[\w-]{40,}$/);
    expect(body.user).toMatchObject({ username: 'aurora.adm', profile: { _id: 2 }, isOwner: true, enterprise: { name: 'Aurora Alimentos' } });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/);
  });

  it('accepts the username in any case', async () => {
    const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 'Joao.Silva', password: 'Sentinela@2026' });
    expect(res.statusCode).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown username', async () => {
    const wrong = await ctx.request('POST', '/api/authenticate', undefined, { username: 'vida.adm', password: 'Errada@123' });
    const unknown = await ctx.request('POST', '/api/authenticate', undefined, { username: 'ninguem', password: 'Errada@123' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error).toBe(MSG.invalidCredentials);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers a disabled user, or a user of a disabled enterprise, with the right password exactly like a wrong password', async () => {
    const wrong = await ctx.request('POST', '/api/authenticate', undefined, { username: 'maria.souza', password: 'Errada@123' });
    await ctx.db.updateTable('users').set({ disabled: true }).where('username', '=', 'maria.souza').execute();
    const disabled = await ctx.request('POST', '/api/authenticate', undefined, { username: 'maria.souza', password: 'Sentinela@2026' });
    await ctx.db.updateTable('users').set({ disabled: false }).where('username', '=', 'maria.souza').execute();
    await ctx.db.updateTable('enterprises').set({ disabled: true }).where('name', '=', 'Vida Farma').execute();
    const enterpriseDisabled = await ctx.request('POST', '/api/authenticate', undefined, { username: 'maria.souza', password: 'Sentinela@2026' });
    await ctx.db.updateTable('enterprises').set({ disabled: false }).where('name', '=', 'Vida Farma').execute();

    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(MSG.invalidCredentials);
    for (const res of [disabled, enterpriseDisabled]) {
      expect(res.statusCode).toBe(wrong.statusCode);
      expect(res.json()).toEqual(wrong.json());
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const sessions = await ctx.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select('sessions.id').where('users.username', '=', 'maria.souza').execute();
    expect(sessions).toEqual([]);
  });

  it('rate-limits repeated attempts on one username from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await ctx.request('POST', '/api/authenticate', undefined, { username: 'intruso', password: `Errada@${i}00` });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await ctx.request('POST', '/api/authenticate', undefined, { username: 'INTRUSO', password: 'Sentinela@2026' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe(MSG.tooManyLoginAttempts);
    // Other usernames from the same address are not locked out.
    expect((await ctx.request('POST', '/api/authenticate', undefined, { username: 'admin', password: 'Sentinela@2026' })).statusCode).toBe(200);
  });
});

describe('sessions on the server (P2)', () => {
  it('slide by 5 minutes with each authorised request and expire after 5 idle minutes', async () => {
    const { token } = await ctx.login('joao.silva');
    ctx.clock.advance(SESSION_WINDOW_MS - 60_000);
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(200);
    // Renewed above: 4 more minutes are still inside the new window.
    ctx.clock.advance(SESSION_WINDOW_MS - 60_000);
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(200);
    ctx.clock.advance(SESSION_WINDOW_MS + 1_000);
    const expired = await ctx.request('GET', '/api/me', token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe(MSG.sessionExpired);
  });

  it('stay alive while a live screen reports presence, and end 5 minutes after it stops', async () => {
    const { token } = await ctx.login('joao.silva');
    // Twelve minutes watching a travel: the page reports presence once a minute and makes no other call.
    for (let minute = 0; minute < 12; minute++) {
      ctx.clock.advance(60_000);
      expect((await ctx.request('POST', '/api/session/presence', token)).json()).toEqual({ success: true });
    }
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(200);
    // The tab is hidden: no more presence, and the window closes as usual.
    ctx.clock.advance(SESSION_WINDOW_MS + 1_000);
    const expired = await ctx.request('POST', '/api/session/presence', token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe(MSG.sessionExpired);
    expect((await ctx.request('POST', '/api/session/presence')).statusCode).toBe(401);
  });

  it('renew at most once per step, so a burst of requests does not queue on the session row', async () => {
    const { token } = await ctx.login('joao.silva');
    const stored = () => ctx.db.selectFrom('sessions').select('expires_at').where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    const atLogin = (await stored()).expires_at;
    ctx.clock.advance(SESSION_RENEW_STEP_MS - 1_000);
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(200);
    expect((await stored()).expires_at).toEqual(atLogin);
    ctx.clock.advance(2_000);
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(200);
    expect((await stored()).expires_at).toEqual(new Date(ctx.clock.now().getTime() + SESSION_WINDOW_MS));
  });

  it('end when the user’s enterprise is disabled', async () => {
    const { token, user } = await ctx.login('vida.adm');
    await ctx.db.updateTable('enterprises').set({ disabled: true }).where('id', '=', user.enterprise!._id).execute();
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(401);
    await ctx.db.updateTable('enterprises').set({ disabled: false }).where('id', '=', user.enterprise!._id).execute();
  });

  it('end at logout', async () => {
    const { token } = await ctx.login('vida.adm');
    expect((await ctx.request('POST', '/api/logout', token)).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(401);
  });

  it('end when the user is disabled', async () => {
    const { token } = await ctx.login('maria.souza');
    await ctx.db.updateTable('users').set({ disabled: true }).where('username', '=', 'maria.souza').execute();
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(401);
    await ctx.db.updateTable('users').set({ disabled: false }).where('username', '=', 'maria.souza').execute();
  });

  it('are required by protected routes', async () => {
    const none = await ctx.request('GET', '/api/me');
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe(MSG.unauthenticated);
    const forged = await ctx.request('GET', '/api/me', 'not-a-real-token');
    expect(forged.statusCode).toBe(401);
  });
});

describe('GET /api/user-client-id/{userId}', () => {
  it('answers the enterprise of the user', async () => {
    const { token, user } = await ctx.login('joao.silva');
    const res = await ctx.request('GET', `/api/user-client-id/${user._id}`, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: user.enterprise?._id, name: 'Aurora Alimentos' });
  });

  it('answers nulls for the super admin, who has no enterprise', async () => {
    const { token, user } = await ctx.login('admin');
    expect((await ctx.request('GET', `/api/user-client-id/${user._id}`, token)).json()).toEqual({ _id: null, name: null });
  });
});
