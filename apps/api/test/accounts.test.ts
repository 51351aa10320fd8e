import { sql } from 'kysely';
import { ACCOUNT_MESSAGES, MSG, USER_MESSAGES } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

const NEW_PASSWORD = 'Nova@senha1';
const signUp = (n: string, extra: Record<string, unknown> = {}) => ({
  name: `Pessoa ${n}`,
  username: `pessoa.${n}`,
  email: `pessoa.${n}@example.com`,
  phone: '(11) 98765-4321',
  password: 'Cofre#Azul7134',
  client: { name: `Empresa ${n}` },
  ...extra,
});

/** The confirmation token of the link in a confirmation e-mail. */
const tokenOf = (text: string | undefined) => /\/confirmation\/([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];
const codeOf = (text: string | undefined) => /^\s+(\d{6})$/m.exec(text ?? '')?.[1];

describe('sign-up, confirmation and recovery (A3, A5, A6)', () => {
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

  it('tells whether an e-mail is free, in any case, and refuses what is not an e-mail', async () => {
    const free = await ctx.request('POST', '/api/user/email-available', undefined, { email: 'ninguem@example.com' });
    // The documents' answer: truthy when taken, falsy when free (a bare boolean).
    expect(free.json()).toBe(false);
    const taken = await ctx.request('POST', '/api/user/email-available', undefined, { email: 'AURORA.ADM@aurora.example' });
    expect(taken.json()).toBe(true);
    const bad = await ctx.request('POST', '/api/user/email-available', undefined, { email: 'não é email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Informe um email válido.');
  });

  it('refuses a sign-up with the rules and messages of the form', async () => {
    const weak = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('fraca', { password: 'semdigito' })));
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain(MSG.passwordPattern);
    const short = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('curta', { password: 'a1@' })));
    expect(short.body).toContain(MSG.passwordMin);
    const phone = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('fone', { phone: '123' })));
    expect(phone.statusCode).toBe(400);
    expect(phone.body).toContain('(99) 99999-9999');
    const taken = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('x', { email: 'joao.silva@aurora.example' })));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(MSG.emailTaken);
    const username = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('y', { username: 'joao.silva' })));
    expect(username.statusCode).toBe(409);
    expect(username.json().error).toBe(USER_MESSAGES.usernameTaken);
    const plan = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('z', { plan_id: crypto.randomUUID(), cicle_id: crypto.randomUUID() })));
    expect(plan.statusCode).toBe(404);
    expect(plan.json().error).toBe(ACCOUNT_MESSAGES.planNotFound);
  });

  it('creates the enterprise with its plan and an unverified owner, e-mails a single-use link, and confirms', async () => {
    const plan = await ctx.db.insertInto('plans').values({ name: 'Básico' }).returning('id').executeTakeFirstOrThrow();
    const cycle = await ctx.db.insertInto('plan_cycles').values({ plan_id: plan.id, name: 'Mensal', value: 99.9, features: JSON.stringify(['10 sensores']) }).returning('id').executeTakeFirstOrThrow();
    const res = await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('ana', { plan_id: plan.id, cicle_id: cycle.id })));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.registered });

    // An unconfirmed account signs in (ADR 0015): owner and administrator of its new enterprise.
    const { user, token } = await ctx.login('pessoa.ana', 'Cofre#Azul7134');
    expect(user).toMatchObject({ verified: false, isOwner: true, profile: { _id: 2 }, enterprise: { name: 'Empresa ana' }, phone: '(11) 98765-4321' });
    const sub = await ctx.db.selectFrom('subscriptions').selectAll().where('enterprise_id', '=', user.enterprise!._id).executeTakeFirstOrThrow();
    expect(sub.plan_cycle_id).toBe(cycle.id);

    const mail = await smtp.waitForMail('pessoa.ana@example.com', 'Confirme seu e-mail no Sentinela');
    expect(mail.text).toContain('http://sentinela.test/confirmation/');
    const confirmation = tokenOf(mail.text)!;
    // Only the hash is stored.
    const stored = await ctx.db.selectFrom('email_verifications').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash.toString('utf8').includes(confirmation))).toBe(false);

    const ok = await ctx.request('GET', `/api/verify-email/${confirmation}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(ACCOUNT_MESSAGES.emailConfirmed);
    const me = await ctx.request('GET', '/api/me', token);
    expect(me.json().verified).toBe(true);
    const again = await ctx.request('GET', `/api/verify-email/${confirmation}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe(ACCOUNT_MESSAGES.userNotFound);
    const unknown = await ctx.request('GET', '/api/verify-email/nao-existe');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(ACCOUNT_MESSAGES.userNotFound);

    // The new enterprise sees only itself.
    const demo = await ctx.db.selectFrom('enterprises').select('id').where('name', '<>', 'Empresa ana').executeTakeFirstOrThrow();
    const foreign = await ctx.request('GET', `/api/users-by-client/${demo.id}`, token);
    expect(foreign.statusCode).toBe(404);
    const own = await ctx.request('GET', `/api/users-by-client/${user.enterprise!._id}`, token);
    expect(own.json().map((u: { username: string }) => u.username)).toEqual(['pessoa.ana']);
  });

  it('resends the confirmation (the earlier link stops working) and refuses an expired link', async () => {
    expect((await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck(signUp('bia')))).statusCode).toBe(200);
    const first = tokenOf((await smtp.waitForMail('pessoa.bia@example.com', /Confirme/)).text)!;
    const { token } = await ctx.login('pessoa.bia', 'Cofre#Azul7134');
    const resend = await ctx.request('POST', '/api/verify-email/resend', token);
    expect(resend.json().message).toBe(ACCOUNT_MESSAGES.confirmationSent);
    const second = tokenOf((await smtp.waitFor((m) => m.text?.includes('/confirmation/') === true && !m.text.includes(first) && m.subject!.startsWith('Confirme') && JSON.stringify(m.to).includes('pessoa.bia'))).text)!;
    expect(second).not.toBe(first);
    expect((await ctx.request('GET', `/api/verify-email/${first}`)).statusCode).toBe(404);

    ctx.clock.advance(49 * 60 * 60 * 1000);
    try {
      const expired = await ctx.request('GET', `/api/verify-email/${second}`);
      expect(expired.statusCode).toBe(404);
      expect(expired.json().error).toBe(ACCOUNT_MESSAGES.userNotFound);
    } finally {
      ctx.clock.advance(-49 * 60 * 60 * 1000);
    }
    const verified = await ctx.db.selectFrom('users').select('verified').where('username', '=', 'pessoa.bia').executeTakeFirstOrThrow();
    expect(verified.verified).toBe(false);
  });

  it('answers a recovery request the same for an unknown e-mail, and sends nothing', async () => {
    const before = smtp.received.length;
    const res = await ctx.request('POST', '/api/password/request/reset', undefined, { email: 'nao.existe@example.com', code: 12345 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.resetRequested);
    const wrong = await ctx.request('POST', '/api/password/reset', undefined, { email: 'nao.existe@example.com', code: '123456', password: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(ACCOUNT_MESSAGES.resetCodeInvalid);
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.length).toBe(before);
  });

  it('resets with the e-mailed code after a wrong one, ends every session, and the code is spent', async () => {
    const { token } = await ctx.login('joao.silva');
    const asked = await ctx.request('POST', '/api/password/request/reset', undefined, { email: 'Joao.Silva@aurora.example' });
    expect(asked.json().message).toBe(ACCOUNT_MESSAGES.resetRequested);
    const code = codeOf((await smtp.waitForMail('joao.silva@aurora.example', /recuperação de senha/)).text)!;
    expect(code).toMatch(/^\d{6}$/);
    const stored = await ctx.db.selectFrom('password_resets').select('code_hash').execute();
    expect(stored.every((r) => !r.code_hash.includes(code))).toBe(true);

    const wrongCode = code === '000000' ? '000001' : '000000';
    const wrong = await ctx.request('POST', '/api/password/reset', undefined, { email: 'joao.silva@aurora.example', code: wrongCode, password: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(ACCOUNT_MESSAGES.resetCodeInvalid);
    const weak = await ctx.request('POST', '/api/password/reset', undefined, { email: 'joao.silva@aurora.example', code, password: '' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain(MSG.passwordRequiredReset);

    const ok = await ctx.request('POST', '/api/password/reset', undefined, { email: 'joao.silva@aurora.example', code, password: NEW_PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(ACCOUNT_MESSAGES.passwordChanged);
    expect((await ctx.request('GET', '/api/me', token)).statusCode).toBe(401);
    await ctx.login('joao.silva', NEW_PASSWORD);
    const reused = await ctx.request('POST', '/api/password/reset', undefined, { email: 'joao.silva@aurora.example', code, password: 'Outra@senha2' });
    expect(reused.statusCode).toBe(400);
    await ctx.login('joao.silva', NEW_PASSWORD);
  });

  it('spends a code after its attempts, and refuses it after 15 minutes', async () => {
    const email = 'aurora.adm@aurora.example';
    await ctx.request('POST', '/api/password/request/reset', undefined, { email });
    const code = codeOf((await smtp.waitForMail(email, /recuperação de senha/)).text)!;
    const wrongCode = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await ctx.request('POST', '/api/password/reset', undefined, { email, code: wrongCode, password: NEW_PASSWORD })).statusCode).toBe(400);
    }
    const late = await ctx.request('POST', '/api/password/reset', undefined, { email, code, password: NEW_PASSWORD });
    expect(late.statusCode).toBe(400);

    await ctx.request('POST', '/api/password/request/reset', undefined, { email });
    const second = await smtp.waitFor((m) => m.subject?.includes('recuperação') === true && JSON.stringify(m.to).includes(email) && codeOf(m.text) !== code);
    ctx.clock.advance(16 * 60 * 1000);
    try {
      const expired = await ctx.request('POST', '/api/password/reset', undefined, { email, code: codeOf(second.text), password: NEW_PASSWORD });
      expect(expired.statusCode).toBe(400);
    } finally {
      ctx.clock.advance(-16 * 60 * 1000);
    }
    // The old password still works: nothing was changed.
    await ctx.login('aurora.adm');
  });

  it('sends at most the hourly number of codes to one e-mail', async () => {
    const user = await ctx.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    for (let i = 0; i < 6; i++) {
      const res = await ctx.request('POST', '/api/password/request/reset', undefined, { email: 'admin@sentinela.example' });
      expect(res.json().message).toBe(ACCOUNT_MESSAGES.resetRequested);
    }
    const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM password_resets WHERE user_id = ${user.id}`.execute(ctx.db);
    expect(Number(rows[0]!.n)).toBe(5);
  });
});

describe('account requests are limited per client address', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ config: { accountRequestsMaxPerHour: 2, emailAvailableMaxPerMinute: 2 } });
  });
  afterAll(async () => ctx?.close());

  it('answers 429 in pt-BR past the limit', async () => {
    for (let i = 0; i < 2; i++) expect((await ctx.request('POST', '/api/password/request/reset', undefined, { email: 'a@example.com' })).statusCode).toBe(200);
    const third = await ctx.request('POST', '/api/password/request/reset', undefined, { email: 'a@example.com' });
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toBe(ACCOUNT_MESSAGES.tooManyAccountRequests);
    for (let i = 0; i < 2; i++) expect((await ctx.request('POST', '/api/user/email-available', undefined, { email: 'a@example.com' })).statusCode).toBe(200);
    expect((await ctx.request('POST', '/api/user/email-available', undefined, { email: 'a@example.com' })).statusCode).toBe(429);
  });
});
