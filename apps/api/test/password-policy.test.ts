import type { ParsedMail } from 'mailparser';
import { MSG, PASSWORD_STRENGTH_MESSAGES, commonPasswordCandidates } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseWeakPassword } from '../src/modules/auth/password-policy';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { addressesOf, startSmtpServer, type TestSmtpServer } from './smtp-server';

/**
 * Passwords an attacker tries first are refused (issue 21.6, ADR 58): the common list of @zxcvbn-ts/language-common,
 * however dressed up to pass the documents' rule, and the user's own username, e-mail or enterprise name, at every
 * place a password is chosen.
 */
const { common, personal } = PASSWORD_STRENGTH_MESSAGES;
const STRONG = 'Cofre#Azul7134';

const refusal = async (password: string, context = {}) => {
  try {
    await refuseWeakPassword(password, context);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('the check itself, with the bundled list', () => {
  it.each(['Senha@123', 'P@ssw0rd!', 'Flamengo2024#', 'Qwerty@123', '12345678a!', 'Pa$$w0rd1', '@Palmeiras10', 'Gabriel#1990', 'Teste@2024'])(
    'refuses the common %s, though it passes the documents’ rule',
    async (password) => {
      expect(await refusal(password)).toBe(common);
    },
  );

  it.each([STRONG, DEMO_PASSWORD, 'Trilho#Verde4821', 'm7$Kq2!zR9'])('accepts %s', async (password) => {
    expect(await refusal(password)).toBeNull();
  });

  it('refuses the username, its parts, the e-mail (local part too) and the enterprise name, in any case or accent', async () => {
    const context = { username: 'joao.silva', email: 'jsilva.frio@empresa.example', enterpriseName: 'Açaí Norte Transportes' };
    for (const password of ['Joao.silva1!'.replace('.', ''), 'Silva@2024x', 'Jsilva.frio9!'.replace('.', '#'), 'JSILVAFRIO#1', 'Acai#Norte77', 'Transportes@1', 'N0rte#Acai55']) {
      expect(await refusal(password, context), password).toBe(personal);
    }
    expect(await refusal(STRONG, context)).toBeNull();
  });

  it('checks the forms a listed word takes, not fragments shorter than four letters', () => {
    expect(commonPasswordCandidates('P@ssw0rd1!')).toContain('password');
    expect(commonPasswordCandidates('Ab1!xy')).not.toContain('ab');
  });
});

describe('every place a password is chosen', () => {
  let smtp: TestSmtpServer;
  let ctx: TestContext;
  let admin: string;
  let aurora: string;
  const seen = new Set<ParsedMail>();
  const nextMail = async (to: string, subject: RegExp) => {
    const mail = await smtp.waitFor((m) => !seen.has(m) && addressesOf(m).includes(to) && subject.test(m.subject ?? ''));
    seen.add(mail);
    return mail;
  };
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url } });
    admin = (await ctx.login('admin')).token;
    aurora = (await ctx.login('aurora.adm')).token;
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });
  const expectRefused = (res: { statusCode: number; json(): { error: string } }, message: string) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
  };
  const userCount = async () => Number((await ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('sign-up (POST /api/client)', async () => {
    const body = { name: 'Ana Lima', username: 'ana.lima', email: 'ana@lima.example', phone: '(11) 98765-4321', client: { name: 'Lima Frios' } };
    const before = await userCount();
    expectRefused(await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({ ...body, password: 'Senha@123' })), common);
    expectRefused(await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({ ...body, password: 'AnaLima@77' })), personal);
    expectRefused(await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({ ...body, password: 'Frios#2024' })), personal);
    expect(await userCount()).toBe(before);
    expect((await ctx.request('POST', '/api/client', undefined, await ctx.withHumanCheck({ ...body, password: STRONG }))).statusCode).toBe(200);
  });

  it('company registration (POST /api/client/create)', async () => {
    const body = (password: string) => ({ client: { name: 'Frigorífico Boa Vista' }, user: { email: 'contato@boavista.example', password } });
    expectRefused(await ctx.request('POST', '/api/client/create', admin, body('Flamengo2024#')), common);
    expectRefused(await ctx.request('POST', '/api/client/create', admin, body('Frigorifico@1')), personal);
    expectRefused(await ctx.request('POST', '/api/client/create', admin, body('Contato#2024x')), personal);
    expect((await ctx.request('POST', '/api/client/create', admin, body(STRONG))).statusCode).toBe(201);
  });

  it('a user created by an administrator with a password (POST /api/user/create)', async () => {
    const body = { name: 'Carla Dias', username: 'carla.dias', email: 'cdias@aurora.example', phone: '(11) 98888-1111', profile: { _id: 3 }, available_devices: [] };
    expectRefused(await ctx.request('POST', '/api/user/create', aurora, { ...body, password: 'Qwerty@123' }), common);
    expectRefused(await ctx.request('POST', '/api/user/create', aurora, { ...body, password: 'Cdias#4410' }), personal);
    expectRefused(await ctx.request('POST', '/api/user/create', aurora, { ...body, password: 'Aurora#4410' }), personal);
    expect(await ctx.db.selectFrom('users').select('id').where('username', '=', 'carla.dias').executeTakeFirst()).toBeUndefined();
  });

  it('admin reset (POST /api/admin/users/{id}/reset-password)', async () => {
    const joao = await ctx.db.selectFrom('users').select(['id', 'password_hash']).where('username', '=', 'joao.silva').executeTakeFirstOrThrow();
    expectRefused(await ctx.request('POST', `/api/admin/users/${joao.id}/reset-password`, aurora, { password: 'Pa$$w0rd1' }), common);
    expectRefused(await ctx.request('POST', `/api/admin/users/${joao.id}/reset-password`, aurora, { password: 'JoaoSilva/1' }), personal);
    expect((await ctx.db.selectFrom('users').select('password_hash').where('id', '=', joao.id).executeTakeFirstOrThrow()).password_hash).toBe(joao.password_hash);
  });

  it('change password (POST /api/me/change-password)', async () => {
    const { token } = await ctx.login('maria.souza');
    expectRefused(await ctx.request('POST', '/api/me/change-password', token, { current_password: DEMO_PASSWORD, password: 'Teste@2024' }), common);
    expectRefused(await ctx.request('POST', '/api/me/change-password', token, { current_password: DEMO_PASSWORD, password: 'VidaFarma#99' }), personal);
    await ctx.login('maria.souza');
  });

  it('recovery (POST /api/password/reset): a common password before the code is looked at, a personal one once it proved the mailbox', async () => {
    const email = 'joao.silva@aurora.example';
    // Without any code: the common password is refused first, and no attempt of a code is spent.
    expectRefused(await ctx.request('POST', '/api/password/reset', undefined, { email, code: '000000', password: 'Senha@123' }), common);
    // Personal words of an e-mail the caller has not proved are not judged: the answer is the wrong code's.
    const stranger = await ctx.request('POST', '/api/password/reset', undefined, { email, code: '000000', password: 'JoaoSilva#77' });
    expect(stranger.json().error).not.toBe(personal);
    await ctx.request('POST', '/api/password/request/reset', undefined, { email });
    const code = /^\s+(\d{6})$/m.exec((await nextMail(email, /recuperação de senha/)).text ?? '')![1]!;
    expectRefused(await ctx.request('POST', '/api/password/reset', undefined, { email, code, password: 'JoaoSilva#77' }), personal);
    // The code is still good for a better password.
    expect((await ctx.request('POST', '/api/password/reset', undefined, { email, code, password: STRONG })).statusCode).toBe(200);
    await ctx.login('joao.silva', STRONG);
  });

  it('keeps the documents’ rules and messages in front', async () => {
    const { token } = await ctx.login('vida.adm');
    const res = await ctx.request('POST', '/api/me/change-password', token, { current_password: DEMO_PASSWORD, password: 'senha' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(MSG.passwordMin);
  });
});
