import type { ParsedMail } from 'mailparser';
import { ACCOUNT_PROTECTION_MESSAGES, MSG, PROFILE_MESSAGES } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/**
 * A session alone never takes an account (issue 21.2, ADR 58): e-mail and username changes need the current password,
 * the old address is told with a "Não fui eu" link that puts the account back, and every password change ends the
 * other sessions and is told by e-mail.
 */
let smtp: TestSmtpServer;
let ctx: TestContext;
const FAILURES_PER_MINUTE = 3;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const nextMail = (to: string, subject: RegExp) => smtp.nextMail(to, subject);
const reportTokenOf = (mail: ParsedMail) => /\/protect-account\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
/** Opens the link of a confirmation sent to a new e-mail (ADR 82: the change waits for it). */
async function openConfirmation(mail: ParsedMail): Promise<void> {
  const link = /\/confirmation\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
  const res = await ctx.request('GET', `/api/verify-email/${link}`);
  expect(res.statusCode, res.body).toBe(200);
}
const confirmNewEmail = async (to: string) => openConfirmation(await nextMail(to, /Confirme o novo e-mail/));
const codeOf = (mail: ParsedMail) => /^\s+(\d{6})$/m.exec(mail.text ?? '')?.[1];
const userRow = (username: string) => ctx.db.selectFrom('users').select(['id', 'email', 'username', 'verified']).where('username', '=', username).executeTakeFirstOrThrow();
const profileOf = async (token: string) => (await ctx.request('GET', '/api/profile', token)).json() as { name: string; username: string; email: string; phone: string };
const alive = async (token: string) => (await ctx.request('GET', '/api/me', token)).statusCode === 200;

describe('changing e-mail or username asks for the current password', () => {
  it('refuses a new e-mail or username without it, or with a wrong one, and stores nothing', async () => {
    const { token } = await ctx.login('joao.silva');
    const current = await profileOf(token);
    const missing = await ctx.request('POST', '/api/profile/', token, { ...current, email: 'ladrao@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(PROFILE_MESSAGES.identityNeedsPassword);
    const username = await ctx.request('POST', '/api/profile/', token, { ...current, username: 'ladrao' });
    expect(username.json().error).toBe(PROFILE_MESSAGES.identityNeedsPassword);
    const wrong = await ctx.request('POST', '/api/profile/', token, { ...current, email: 'ladrao@example.com', current_password: 'Errada#9431' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(PROFILE_MESSAGES.wrongCurrentPassword);
    expect(await userRow('joao.silva')).toMatchObject({ email: current.email, username: 'joao.silva' });
  });

  it('saves name and phone as the documents send them, with no password', async () => {
    const { token } = await ctx.login('joao.silva');
    const current = await profileOf(token);
    const res = await ctx.request('POST', '/api/profile/', token, { name: 'João da Silva', username: current.username, email: current.email.toUpperCase(), phone: '(21) 91234-5678' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(PROFILE_MESSAGES.saved);
  });
});

describe('wrong current passwords are counted like failed logins', () => {
  // A context of its own, with a small limit (the setting the login's limit uses).
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ demo: true, config: { loginMaxPerMinute: FAILURES_PER_MINUTE } });
  });
  afterAll(() => limited?.close());

  it('logged, then refused for the minute even when right, on both forms', async () => {
    const { token } = await limited.login('maria.souza');
    const current = await (await limited.request('GET', '/api/profile', token)).json();
    const maria = await limited.db.selectFrom('users').select('id').where('username', '=', 'maria.souza').executeTakeFirstOrThrow();
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
      const res = await limited.request('POST', '/api/profile/', token, { ...current, email: 'outra@example.com', current_password: `Errada#${i}431` });
      expect(res.statusCode).toBe(400);
    }
    const locked = await limited.request('POST', '/api/profile/', token, { ...current, email: 'outra@example.com', current_password: DEMO_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe(MSG.tooManyLoginAttempts);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The change-password form shares the count: it is the same password being guessed.
    const viaPassword = await limited.request('POST', '/api/me/change-password', token, { current_password: DEMO_PASSWORD, password: 'Trilho#Verde4821' });
    expect(viaPassword.statusCode).toBe(429);
    await limited.services.accessLog.flush();
    const logged = await limited.db.selectFrom('access_log').select(['message', 'path']).where('user_id', '=', maria.id).where('message', '=', 'Senha atual incorreta').execute();
    expect(logged).toHaveLength(FAILURES_PER_MINUTE);
    expect(logged[0]!.path).toBe('/api/profile');

    // Counted per user in the shared store (ADR 54), for the minute: another user's form is not affected.
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    const other = await limited.login('joao.silva');
    const joao = await (await limited.request('GET', '/api/profile', other.token)).json();
    const unaffected = await limited.request('POST', '/api/profile/', other.token, { ...joao, email: 'joao.novo@example.com', current_password: DEMO_PASSWORD });
    expect(unaffected.statusCode, unaffected.body).toBe(200);
  });
});

describe('the old address is told, with a "Não fui eu" link that gives the account back', () => {
  it('a thief with a session and the password moves the e-mail and username; the owner takes the account back', async () => {
    const owner = await ctx.login('vida.adm');
    const thief = await ctx.login('vida.adm');
    const before = await userRow('vida.adm');
    const current = await profileOf(thief.token);
    const moved = await ctx.request('POST', '/api/profile/', thief.token, { ...current, email: 'ladrao@golpe.example', username: 'ladrao', current_password: DEMO_PASSWORD });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().message).toBe(PROFILE_MESSAGES.emailChanged);
    // The username is the thief's at once, and told; the e-mail only once its link is opened (ADR 82), and told then.
    expect((await nextMail(before.email, /usuário da sua conta no Sentinela foi alterado/)).text).toContain('passou a ser “ladrao”');
    expect((await userRow('ladrao')).email).toBe(before.email);
    await confirmNewEmail('ladrao@golpe.example');

    const notice = await nextMail(before.email, /e-mail da sua conta no Sentinela foi alterado/);
    expect(notice.text).toContain('foi alterado para “ladrao@golpe.example”');
    const token = reportTokenOf(notice)!;
    expect(token).toBeTruthy();
    // The link only shows a page: securing takes the page's button (a POST).
    const secured = await ctx.request('POST', '/api/account/protect', undefined, { token });
    expect(secured.statusCode, secured.body).toBe(200);
    expect(secured.json()).toEqual({ success: true, message: ACCOUNT_PROTECTION_MESSAGES.secured, email: before.email });

    expect(await userRow('vida.adm')).toMatchObject({ email: before.email, username: 'vida.adm', verified: true });
    expect(await alive(thief.token)).toBe(false);
    expect(await alive(owner.token)).toBe(false);
    // Nobody signs in with the password the thief knew; the owner chooses a new one with the code sent to them.
    await expect(ctx.login('vida.adm')).rejects.toThrow();
    const code = codeOf(await nextMail(before.email, /Sua conta no Sentinela foi protegida/))!;
    const reset = await ctx.request('POST', '/api/password/reset', undefined, { email: before.email, code, password: 'Farol#Norte5520' });
    expect(reset.statusCode, reset.body).toBe(200);
    await ctx.login('vida.adm', 'Farol#Norte5520');
    // The link is spent.
    const again = await ctx.request('POST', '/api/account/protect', undefined, { token });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe(ACCOUNT_PROTECTION_MESSAGES.linkInvalid);
  });

  it("the thief's own later link does not undo the owner's: the account goes back to the first address, locked", async () => {
    const thief = await ctx.login('aurora.adm');
    const original = await userRow('aurora.adm');
    const first = await ctx.request('POST', '/api/profile/', thief.token, { ...(await profileOf(thief.token)), email: 'etapa1@golpe.example', current_password: DEMO_PASSWORD });
    expect(first.statusCode, first.body).toBe(200);
    await confirmNewEmail('etapa1@golpe.example');
    const ownersLink = reportTokenOf(await nextMail(original.email, /foi alterado/))!;
    const second = await ctx.request('POST', '/api/profile/', thief.token, { ...(await profileOf(thief.token)), email: 'etapa2@golpe.example', current_password: DEMO_PASSWORD });
    expect(second.statusCode, second.body).toBe(200);
    await confirmNewEmail('etapa2@golpe.example');
    const thiefsLink = reportTokenOf(await nextMail('etapa1@golpe.example', /foi alterado/))!;

    // The thief "reports" its own change, hoping to keep etapa1: the account goes back to before the first change.
    const byThief = await ctx.request('POST', '/api/account/protect', undefined, { token: thiefsLink });
    expect(byThief.statusCode).toBe(200);
    // The code would go to an address that did not receive this link: none is sent, the account waits locked.
    expect(byThief.json()).toMatchObject({ email: null, message: ACCOUNT_PROTECTION_MESSAGES.securedWithoutAddress });
    expect((await userRow('aurora.adm')).email).toBe(original.email);
    expect(await alive(thief.token)).toBe(false);
    await expect(ctx.login('aurora.adm')).rejects.toThrow();
    expect((await ctx.request('POST', '/api/account/protect', undefined, { token: ownersLink })).statusCode).toBe(404);
    // The owner recovers by the restored address.
    await ctx.request('POST', '/api/password/request/reset', undefined, { email: original.email });
    const code = codeOf(await nextMail(original.email, /recuperação de senha/))!;
    expect((await ctx.request('POST', '/api/password/reset', undefined, { email: original.email, code, password: 'Farol#Norte5520' })).statusCode).toBe(200);
    await ctx.login('aurora.adm', 'Farol#Norte5520');
  });

  it('a new e-mail still waiting for its link when the owner secures the account never applies (ADR 82)', async () => {
    const session = await ctx.login('maria.souza');
    const before = await userRow('maria.souza');
    const asked = await ctx.request('POST', '/api/profile/', session.token, { ...(await profileOf(session.token)), email: 'espera@golpe.example', username: 'maria.golpe', current_password: DEMO_PASSWORD });
    expect(asked.statusCode, asked.body).toBe(200);
    const waiting = await nextMail('espera@golpe.example', /Confirme o novo e-mail/);
    const notice = await nextMail(before.email, /usuário da sua conta no Sentinela foi alterado/);
    expect((await ctx.request('POST', '/api/account/protect', undefined, { token: reportTokenOf(notice) })).statusCode).toBe(200);
    const link = /\/confirmation\/([A-Za-z0-9_-]+)/.exec(waiting.text ?? '')![1];
    expect((await ctx.request('GET', `/api/verify-email/${link}`)).statusCode).toBe(404);
    expect(await userRow('maria.souza')).toMatchObject({ email: before.email, username: 'maria.souza' });
    // The owner chooses a new password with the code sent to the address (the tests below sign in with it).
    const code = codeOf(await nextMail(before.email, /Sua conta no Sentinela foi protegida/))!;
    expect((await ctx.request('POST', '/api/password/reset', undefined, { email: before.email, code, password: DEMO_PASSWORD })).statusCode).toBe(200);
    await nextMail(before.email, /senha da sua conta no Sentinela foi alterada/);
  });

  it('a link expires after its days', async () => {
    const { token } = await ctx.login('joao.silva');
    const email = (await userRow('joao.silva')).email;
    const res = await ctx.request('POST', '/api/profile/', token, { ...(await profileOf(token)), username: 'joao.s', current_password: DEMO_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const notice = await nextMail(email, /usuário da sua conta no Sentinela foi alterado/);
    ctx.clock.advance(8 * 24 * 60 * 60 * 1000);
    try {
      expect((await ctx.request('POST', '/api/account/protect', undefined, { token: reportTokenOf(notice) })).statusCode).toBe(404);
    } finally {
      ctx.clock.advance(-8 * 24 * 60 * 60 * 1000);
    }
    expect((await userRow('joao.s')).email).toBe(email);
  });

  it("an administrator's change is told without a link: the administrator decides", async () => {
    const admin = await ctx.login('admin');
    const joao = await userRow('joao.s');
    const res = await ctx.request('POST', `/api/user/update/${joao.id}`, admin.token, { name: 'João Silva', username: 'joao.silva', email: 'joao.novo@aurora.example' });
    expect(res.statusCode, res.body).toBe(200);
    const confirmation = await nextMail('joao.novo@aurora.example', /Confirme o novo e-mail/);
    expect(confirmation.text).toContain('Um administrador da sua empresa informou este endereço');
    expect((await userRow('joao.silva')).email).toBe(joao.email);
    await openConfirmation(confirmation);
    const notice = await nextMail(joao.email, /e-mail da sua conta no Sentinela foi alterado/);
    expect(notice.text).toContain('feita por um administrador da sua empresa');
    expect(reportTokenOf(notice)).toBeUndefined();
  });
});

describe('every password change ends the other sessions and is told by e-mail', () => {
  it('in the Perfil: the other sessions end, and the notice has a link that locks the account', async () => {
    const me = await ctx.login('maria.souza');
    const other = await ctx.login('maria.souza');
    const email = (await userRow('maria.souza')).email;
    const res = await ctx.request('POST', '/api/me/change-password', me.token, { current_password: DEMO_PASSWORD, password: 'Trilho#Verde4821' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await alive(me.token)).toBe(true);
    expect(await alive(other.token)).toBe(false);
    const notice = await nextMail(email, /senha da sua conta no Sentinela foi alterada/);
    expect(notice.text).toContain('alterada no seu Perfil');
    const secured = await ctx.request('POST', '/api/account/protect', undefined, { token: reportTokenOf(notice) });
    expect(secured.json()).toMatchObject({ email, message: ACCOUNT_PROTECTION_MESSAGES.secured });
    expect(await alive(me.token)).toBe(false);
    await expect(ctx.login('maria.souza', 'Trilho#Verde4821')).rejects.toThrow();
    const code = codeOf(await nextMail(email, /protegida/))!;
    expect((await ctx.request('POST', '/api/password/reset', undefined, { email, code: Number(code), password: 'Farol#Norte5520' })).statusCode).toBe(200);
    await ctx.login('maria.souza', 'Farol#Norte5520');
  });

  it('by a recovery code: every session ends, and the notice says how', async () => {
    const session = await ctx.login('maria.souza', 'Farol#Norte5520');
    const email = (await userRow('maria.souza')).email;
    await nextMail(email, /senha da sua conta no Sentinela foi alterada/);
    await ctx.request('POST', '/api/password/request/reset', undefined, { email });
    const code = codeOf(await nextMail(email, /recuperação de senha/))!;
    expect((await ctx.request('POST', '/api/password/reset', undefined, { email, code, password: 'Cofre#Azul7134' })).statusCode).toBe(200);
    expect(await alive(session.token)).toBe(false);
    const notice = await nextMail(email, /senha da sua conta no Sentinela foi alterada/);
    expect(notice.text).toContain('código de recuperação enviado a este e-mail');
    expect(reportTokenOf(notice)).toBeUndefined();
  });

  it('by an administrator: every session ends, and the notice says who', async () => {
    const session = await ctx.login('maria.souza', 'Cofre#Azul7134');
    const vida = await ctx.login('vida.adm', 'Farol#Norte5520');
    const maria = await userRow('maria.souza');
    const res = await ctx.request('POST', `/api/admin/users/${maria.id}/reset-password`, vida.token, { password: 'Rio#Claro8842' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await alive(session.token)).toBe(false);
    const notice = await nextMail(maria.email, /senha da sua conta no Sentinela foi alterada/);
    expect(notice.text).toContain('redefinida por um administrador da sua empresa');
  });
});
