import { EMAIL_CHANGE_MESSAGES, MSG, PROFILE_MESSAGES, USER_MESSAGES } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

describe('profile and change password (A7)', () => {
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

  const profileOf = async (token: string) => (await ctx.request('GET', '/api/profile', token)).json();

  it('reads only the caller’s own profile', async () => {
    expect((await ctx.request('GET', '/api/profile')).statusCode).toBe(401);
    const { token } = await ctx.login('maria.souza');
    expect(await profileOf(token)).toEqual({ name: 'Maria Souza', username: 'maria.souza', email: expect.stringContaining('@') as string, phone: expect.any(String) as string, verified: true, pending_email: null });
  });

  it('saves name, username and phone, refuses another user’s username or e-mail, and touches nobody else', async () => {
    const { token } = await ctx.login('joao.silva');
    const before = await ctx.db.selectFrom('users').selectAll().where('username', '=', 'aurora.adm').executeTakeFirstOrThrow();
    const body = { name: 'João S. Silva', username: 'joao.silva', email: 'joao.silva@aurora.example', phone: '(21) 91234-5678' };
    const ok = await ctx.request('POST', '/api/profile/', token, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(PROFILE_MESSAGES.saved);
    expect(await profileOf(token)).toMatchObject({ name: 'João S. Silva', phone: '(21) 91234-5678', verified: true });

    // A new username or e-mail needs the current password (ADR 58); another user's username is still a 409.
    const username = await ctx.request('POST', '/api/profile', token, { ...body, username: 'AURORA.ADM', current_password: 'Sentinela@2026' });
    expect(username.statusCode).toBe(409);
    expect(username.json().error).toBe(USER_MESSAGES.usernameTaken);
    // Another user's e-mail (ADR 82): a user who does not see that account is answered as for a free address; nothing
    // changes, its owner is told that someone tried, and no link exists that could give it to this account.
    const email = await ctx.request('POST', '/api/profile/', token, { ...body, email: 'AURORA.ADM@aurora.example', current_password: 'Sentinela@2026' });
    expect(email.statusCode, email.body).toBe(200);
    expect(email.json()).toEqual({ success: true, message: PROFILE_MESSAGES.emailChanged });
    expect(await profileOf(token)).toMatchObject({ email: 'joao.silva@aurora.example', pending_email: 'AURORA.ADM@aurora.example' });
    expect((await smtp.waitForMail('aurora.adm@aurora.example', /Tentativa de usar este e-mail/)).text).not.toContain('/confirmation/');
    const cancelled = await ctx.request('DELETE', '/api/profile/pending-email', token);
    expect(cancelled.json()).toEqual({ success: true, message: EMAIL_CHANGE_MESSAGES.cancelled });
    expect((await profileOf(token)).pending_email).toBeNull();
    const none = await ctx.request('DELETE', '/api/profile/pending-email', token);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe(EMAIL_CHANGE_MESSAGES.noneToCancel);
    const phone = await ctx.request('POST', '/api/profile/', token, { ...body, phone: '' });
    expect(phone.statusCode).toBe(400);
    expect(phone.body).toContain('Informe o telefone.');
    // A body naming another user's id changes nothing of theirs: the profile is the session's.
    await ctx.request('POST', '/api/profile/', token, { ...body, id: before.id, _id: before.id });
    const after = await ctx.db.selectFrom('users').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('a new e-mail waits for the link sent to it, and is the account’s once opened', async () => {
    const { token } = await ctx.login('vida.adm');
    const current = await profileOf(token);
    const res = await ctx.request('POST', '/api/profile/', token, { ...current, email: 'nova.vida@example.com', phone: '(11) 90000-0000', current_password: 'Sentinela@2026' });
    expect(res.json().message).toBe(PROFILE_MESSAGES.emailChanged);
    // ADR 82: the account keeps its address (and can still recover by it) until the new one's link is opened.
    expect(await profileOf(token)).toMatchObject({ email: current.email, verified: true, pending_email: 'nova.vida@example.com', phone: '(11) 90000-0000' });
    const mail = await smtp.waitForMail('nova.vida@example.com', /Confirme o novo e-mail/);
    const link = /\/confirmation\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
    const opened = await ctx.request('GET', `/api/verify-email/${link}`);
    expect(opened.json()).toEqual({ success: true, message: EMAIL_CHANGE_MESSAGES.confirmed, confirmed: true });
    expect(await profileOf(token)).toMatchObject({ email: 'nova.vida@example.com', verified: true, pending_email: null });
  });

  it('changes the password only with the current one, and ends the other sessions', async () => {
    const first = await ctx.login('aurora.adm');
    const other = await ctx.login('aurora.adm');
    const wrong = await ctx.request('POST', '/api/me/change-password', first.token, { current_password: 'Errada@123', password: 'Trocada@2026' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(PROFILE_MESSAGES.wrongCurrentPassword);
    const missing = await ctx.request('POST', '/api/me/change-password', first.token, { password: 'Trocada@2026' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues[0].path).toBe('current_password');
    const empty = await ctx.request('POST', '/api/me/change-password', first.token, { current_password: '', password: 'Trocada@2026' });
    expect(empty.body).toContain('Informe a senha atual.');
    const weak = await ctx.request('POST', '/api/me/change-password', first.token, { current_password: 'Sentinela@2026', password: 'fraca' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain(MSG.passwordMin);
    expect((await ctx.request('GET', '/api/me', other.token)).statusCode).toBe(200);

    const ok = await ctx.request('POST', '/api/me/change-password', first.token, { current_password: 'Sentinela@2026', password: 'Trocada@2026' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(PROFILE_MESSAGES.passwordChanged);
    expect((await ctx.request('GET', '/api/me', first.token)).statusCode).toBe(200);
    expect((await ctx.request('GET', '/api/me', other.token)).statusCode).toBe(401);
    await expect(ctx.login('aurora.adm')).rejects.toThrow();
    await ctx.login('aurora.adm', 'Trocada@2026');
    // Another user's password is untouched.
    await ctx.login('joao.silva');
  });
});
