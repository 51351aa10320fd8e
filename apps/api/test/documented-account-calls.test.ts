import { ACCOUNT_MESSAGES, CREATE_USER_MESSAGES } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/modules/auth/service';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/**
 * The account calls of the documents' tables (issue 26.1), each as a client written from them makes it: the request as
 * the table shows it, the answer read as the table says it is used (spec 000 §7, spec 001's call table).
 */
let smtp: TestSmtpServer;
let ctx: TestContext;
beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

describe('POST /api/user/email-available | email | truthy or boolean when taken', () => {
  it('is truthy when the e-mail is taken and falsy when it is free', async () => {
    const taken = await ctx.request('POST', '/api/user/email-available', undefined, { email: 'joao.silva@aurora.example' });
    const free = await ctx.request('POST', '/api/user/email-available', undefined, { email: 'ninguem.ainda@example.com' });
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    // As the documented client reads it: `if (answer) "Email já cadastrado no sistema."`.
    expect(Boolean(taken.json())).toBe(true);
    expect(Boolean(free.json())).toBe(false);
    expect(taken.body).toBe('true');
    expect(free.body).toBe('false');
  });
});

describe('GET /api/verify-email/{token} | none | confirmed boolean', () => {
  it('carries confirmed: true for a good link, and confirmed: false for an unknown, a spent or an expired one', async () => {
    const signUp = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({
      name: 'Rita Campos', username: 'rita.campos', email: 'rita@campos.example', phone: '(11) 98765-4321', password: 'Cofre#Azul7134', client: { name: 'Campos Gelados' },
    }));
    expect(signUp.statusCode, signUp.body).toBe(200);
    const token = /\/confirmation\/([A-Za-z0-9_-]+)/.exec((await smtp.waitForMail('rita@campos.example', /Confirme/)).text ?? '')![1]!;

    const unknown = await ctx.request('GET', '/api/verify-email/nao-existe');
    expect(unknown.json().confirmed).toBe(false);
    expect(unknown.json().error).toBe(ACCOUNT_MESSAGES.userNotFound);

    ctx.clock.advance(49 * 60 * 60 * 1000);
    try {
      expect((await ctx.request('GET', `/api/verify-email/${token}`)).json().confirmed).toBe(false);
    } finally {
      ctx.clock.advance(-49 * 60 * 60 * 1000);
    }
    const good = await ctx.request('GET', `/api/verify-email/${token}`);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({ confirmed: true, message: ACCOUNT_MESSAGES.emailConfirmed });
    expect((await ctx.request('GET', `/api/verify-email/${token}`)).json().confirmed).toBe(false);
  });
});

describe('POST /api/user/create | name, username, email, phone, password, profile {_id}, available_devices [] | success', () => {
  it('honours the password sent: the new user signs in with it, and confirms the e-mail by a link', async () => {
    const { token } = await ctx.login('aurora.adm');
    const res = await ctx.request('POST', '/api/user/create', token, {
      name: 'Paulo Reis', username: 'paulo.reis', email: 'paulo.reis@aurora.example', phone: '(11) 97777-3333', password: 'Trilho#Verde4821', profile: { _id: 3 }, available_devices: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: CREATE_USER_MESSAGES.created });
    const { user } = await ctx.login('paulo.reis', 'Trilho#Verde4821');
    expect(user).toMatchObject({ username: 'paulo.reis', verified: false, profile: { _id: 3 } });
    const mail = await smtp.waitForMail('paulo.reis@aurora.example', 'Sua conta no Sentinela foi criada');
    expect(mail.text).toContain('com o usuário “paulo.reis” e uma senha que ele lhe informará');
    // No recovery code: the account already has its password.
    expect(mail.text).not.toMatch(/^\s+\d{6}$/m);
    const link = /\/confirmation\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
    expect((await ctx.request('GET', `/api/verify-email/${link}`)).json().confirmed).toBe(true);
  });

  it('refuses a password against the documents’ rule with its message, creating nothing', async () => {
    const { token } = await ctx.login('aurora.adm');
    const res = await ctx.request('POST', '/api/user/create', token, {
      name: 'Lia Reis', username: 'lia.reis', email: 'lia.reis@aurora.example', phone: '(11) 97777-4444', password: 'curta', profile: { _id: 3 }, available_devices: [],
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('A senha deve ter no mínimo 8 caracteres');
    expect(await ctx.db.selectFrom('users').select('id').where('username', '=', 'lia.reis').executeTakeFirst()).toBeUndefined();
  });
});

describe('POST api/password/reset | email, password, code | success', () => {
  /** A live code with a leading zero, as the server could have drawn it. */
  async function codeFor(username: string, code: string) {
    const user = await ctx.db.selectFrom('users').select(['id', 'email']).where('username', '=', username).executeTakeFirstOrThrow();
    const now = ctx.clock.now();
    await ctx.db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    await ctx.db
      .insertInto('password_resets')
      .values({ user_id: user.id, code_hash: await hashPassword(code), expires_at: new Date(now.getTime() + 15 * 60_000), used_at: null, created_at: now })
      .execute();
    return user.email;
  }

  it('reads a code sent as a JSON number as the same six digits, leading zeros included', async () => {
    const email = await codeFor('maria.souza', '012345');
    const res = await ctx.request('POST', '/api/password/reset', undefined, { email, password: 'Farol#Norte5520', code: 12345 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.passwordChanged);
    await ctx.login('maria.souza', 'Farol#Norte5520');
  });

  it('a number is never another code: 123450 is not 012345, and fractions or seven digits are refused', async () => {
    const email = await codeFor('joao.silva', '012345');
    const other = await ctx.request('POST', '/api/password/reset', undefined, { email, password: 'Farol#Norte5520', code: 123450 });
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe(ACCOUNT_MESSAGES.resetCodeInvalid);
    for (const code of [12345.5, -12345, 1234567]) {
      const res = await ctx.request('POST', '/api/password/reset', undefined, { email, password: 'Farol#Norte5520', code });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('O código de recuperação tem 6 dígitos.');
    }
    // The code as text works as before.
    expect((await ctx.request('POST', '/api/password/reset', undefined, { email, password: 'Farol#Norte5520', code: '012345' })).statusCode).toBe(200);
  });
});
