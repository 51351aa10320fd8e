import type { ParsedMail } from 'mailparser';
import { EMAIL_CHANGE_MESSAGES, UserDetail } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/**
 * A new e-mail never says whose an address is (issue 21 point 5, ADR 82): Editar usuário and the Perfil make it a
 * pending change, answered alike whether the address is free or another enterprise's; the link sent to the new address
 * applies it, once, if the address is still free; the trail records the request, the cancellation and the change.
 */
let smtp: TestSmtpServer;
let ctx: TestContext;
let aurora: string;
let vida: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestContext({ demo: true, config: { smtpUrl: smtp.url } });
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const nextMail = (to: string, subject: RegExp) => smtp.nextMail(to, subject);
const linkOf = (mail: ParsedMail) => /\/confirmation\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
const user = (username: string) => ctx.db.selectFrom('users').select(['id', 'name', 'username', 'email', 'verified', 'enterprise_id']).where('username', '=', username).executeTakeFirstOrThrow();
const edit = (id: string, body: { name: string; username: string; email: string }, token = aurora) => ctx.request('POST', `/api/user/update/${id}`, token, body);
const trailOf = (userId: string, action: string) =>
  ctx.db.selectFrom('audit_trail').select(['action', 'actor_type', 'actor_id', 'before', 'after']).where('entity', '=', 'user').where('entity_id', '=', userId).where('action', '=', action).orderBy('seq').execute();

describe('an administrator of one enterprise and the e-mails of another', () => {
  it('gets exactly the same answer for an address of another enterprise as for a free one, and nothing changes', async () => {
    const joao = await user('joao.silva');
    const maria = await user('maria.souza');
    const fields = { name: joao.name, username: joao.username };

    const free = await edit(joao.id, { ...fields, email: 'joao.livre@example.com' });
    const taken = await edit(joao.id, { ...fields, email: maria.email.toUpperCase() });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(free.statusCode).toBe(200);
    // The same body but for the address asked for; the same headers but for those of every answer.
    const bodyOf = (res: typeof free) => ({ ...UserDetail.parse(res.json()), pending_email: '(o endereço pedido)' });
    expect(bodyOf(taken)).toEqual(bodyOf(free));
    expect(free.json().pending_email).toBe('joao.livre@example.com');
    expect(taken.json().pending_email).toBe(maria.email.toUpperCase());
    const headersOf = (res: typeof free) => Object.keys(res.headers).filter((h) => !['date', 'content-length', 'x-request-id'].includes(h)).sort();
    expect(headersOf(taken)).toEqual(headersOf(free));

    // Nothing changed: João keeps his address, Maria hers.
    expect(await user('joao.silva')).toEqual(joao);
    expect(await user('maria.souza')).toEqual(maria);
    // The free address got its link; Maria's address a notice without one (and the earlier link stopped working).
    const freeLink = linkOf(await nextMail('joao.livre@example.com', /Confirme o novo e-mail/))!;
    const notice = await nextMail(maria.email, /Tentativa de usar este e-mail/);
    expect(notice.text).toContain('Nenhuma ação é necessária');
    expect(linkOf(notice)).toBeUndefined();
    expect((await ctx.request('GET', `/api/verify-email/${freeLink}`)).statusCode).toBe(404);
    expect((await user('joao.silva')).email).toBe(joao.email);

    // The trail has one request entry per attempt, alike: the administrator, the address asked.
    const requests = await trailOf(joao.id, 'email_change_requested');
    expect(requests.map((r) => r.after)).toEqual([{ pending_email: 'joao.livre@example.com' }, { pending_email: maria.email.toUpperCase() }]);
    const admin = await user('aurora.adm');
    expect(requests.every((r) => r.actor_type === 'user' && r.actor_id === admin.id)).toBe(true);

    // An address of the administrator's own enterprise, which the user list shows anyway, is still the plain 409.
    const own = await edit(joao.id, { ...fields, email: admin.email });
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toBe('Email já cadastrado no sistema.');
  });

  it('the link applies the change once, names the user in the trail and tells the old address', async () => {
    const joao = await user('joao.silva');
    const asked = await edit(joao.id, { name: joao.name, username: joao.username, email: 'joao.novo@example.com' });
    expect(asked.json()).toMatchObject({ email: joao.email, pending_email: 'joao.novo@example.com' });
    const link = linkOf(await nextMail('joao.novo@example.com', /Confirme o novo e-mail/))!;
    // Opened from a session of another enterprise: the token is João's, whoever opens it, and changes only João.
    const vidaAdmin = await user('vida.adm');
    const opened = await ctx.request('GET', `/api/verify-email/${link}`, vida);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ success: true, message: EMAIL_CHANGE_MESSAGES.confirmed, confirmed: true });
    expect(await user('joao.silva')).toMatchObject({ email: 'joao.novo@example.com', verified: true });
    expect(await user('vida.adm')).toEqual(vidaAdmin);
    expect((await ctx.request('GET', `/api/user/show/${joao.id}`, aurora)).json()).toMatchObject({ email: 'joao.novo@example.com', pending_email: null });
    // Once only.
    const again = await ctx.request('GET', `/api/verify-email/${link}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().confirmed).toBe(false);
    // The old address is told, as an administrator's change (ADR 58).
    expect((await nextMail(joao.email, /e-mail da sua conta no Sentinela foi alterado/)).text).toContain('feita por um administrador');
    // GxP: the change of the record, by the user who opened the link, with the address before and after.
    const changes = await trailOf(joao.id, 'update');
    const change = changes.find((c) => (c.after as { email?: string } | null)?.email === 'joao.novo@example.com')!;
    expect(change).toMatchObject({ actor_type: 'user', actor_id: joao.id, before: { email: joao.email } });
    await ctx.login('joao.silva');
  });

  it('a link opened after the address was taken meanwhile is refused in Portuguese, and nothing changes', async () => {
    const joao = await user('joao.silva');
    const maria = await user('maria.souza');
    const address = 'disputado@example.com';
    expect((await edit(joao.id, { name: joao.name, username: joao.username, email: address })).statusCode).toBe(200);
    const joaosLink = linkOf(await nextMail(address, /Confirme o novo e-mail/))!;
    // Maria asks for the same address in her Perfil and opens her link first.
    const mariaSession = (await ctx.login('maria.souza')).token;
    const mariaProfile = (await ctx.request('GET', '/api/profile', mariaSession)).json();
    const byMaria = await ctx.request('POST', '/api/profile', mariaSession, { name: mariaProfile.name, username: mariaProfile.username, phone: mariaProfile.phone, email: address, current_password: DEMO_PASSWORD });
    expect(byMaria.statusCode, byMaria.body).toBe(200);
    const mariasLink = linkOf(await nextMail(address, /Confirme o novo e-mail/))!;
    expect((await ctx.request('GET', `/api/verify-email/${mariasLink}`)).statusCode).toBe(200);
    expect((await user('maria.souza')).email).toBe(address);

    const late = await ctx.request('GET', `/api/verify-email/${joaosLink}`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ statusCode: 409, code: 'CONFLICT', error: EMAIL_CHANGE_MESSAGES.unavailable, confirmed: false });
    expect(await user('joao.silva')).toEqual(joao);
    expect((await user('maria.souza')).email).toBe(address);
    // Spent: it is not tried again.
    expect((await ctx.request('GET', `/api/verify-email/${joaosLink}`)).statusCode).toBe(404);
    await ctx.db.updateTable('users').set({ email: maria.email }).where('id', '=', maria.id).execute();
  });

  it('another enterprise sees nor cancels a pending change; a cancelled link applies nothing; the trail says so', async () => {
    const joao = await user('joao.silva');
    expect((await edit(joao.id, { name: joao.name, username: joao.username, email: 'cancelado@example.com' })).statusCode).toBe(200);
    const link = linkOf(await nextMail('cancelado@example.com', /Confirme o novo e-mail/))!;
    // Vida's administrator: Aurora's user is unknown (404), on every route of it.
    expect((await ctx.request('GET', `/api/user/show/${joao.id}`, vida)).statusCode).toBe(404);
    const foreign = await ctx.request('DELETE', `/api/user/pending-email/${joao.id}`, vida);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Usuário não encontrado.');
    expect((await edit(joao.id, { name: joao.name, username: joao.username, email: 'outra@example.com' }, vida)).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/user/show/${joao.id}`, aurora)).json().pending_email).toBe('cancelado@example.com');

    const cancelled = await ctx.request('DELETE', `/api/user/pending-email/${joao.id}`, aurora);
    expect(cancelled.json()).toEqual({ success: true, message: EMAIL_CHANGE_MESSAGES.cancelled });
    expect((await ctx.request('GET', `/api/verify-email/${link}`)).statusCode).toBe(404);
    expect(await user('joao.silva')).toEqual(joao);
    const trail = await trailOf(joao.id, 'email_change_cancelled');
    expect(trail.at(-1)).toMatchObject({ actor_type: 'user', before: { pending_email: 'cancelado@example.com' } });
    expect((await ctx.request('DELETE', `/api/user/pending-email/${joao.id}`, aurora)).statusCode).toBe(404);
  });

  it('a user’s own confirmation link does not confirm a change, nor a change link the address', async () => {
    // Two series of links (ADR 82): "Reenviar e-mail" does not end a pending change, a change does not end the other.
    const joao = await user('joao.silva');
    const session = (await ctx.login('joao.silva')).token;
    await ctx.db.updateTable('users').set({ verified: false }).where('id', '=', joao.id).execute();
    expect((await edit(joao.id, { name: joao.name, username: joao.username, email: 'serie@example.com' })).statusCode).toBe(200);
    const changeLink = linkOf(await nextMail('serie@example.com', /Confirme o novo e-mail/))!;
    expect((await ctx.request('POST', '/api/verify-email/resend', session)).statusCode).toBe(200);
    const confirmLink = linkOf(await nextMail(joao.email, /Confirme seu e-mail/))!;
    expect((await ctx.request('GET', `/api/verify-email/${confirmLink}`)).json()).toMatchObject({ confirmed: true });
    expect(await user('joao.silva')).toMatchObject({ email: joao.email, verified: true });
    expect((await ctx.request('GET', '/api/profile', session)).json().pending_email).toBe('serie@example.com');
    expect((await ctx.request('GET', `/api/verify-email/${changeLink}`)).json()).toMatchObject({ confirmed: true, message: EMAIL_CHANGE_MESSAGES.confirmed });
    expect((await user('joao.silva')).email).toBe('serie@example.com');
  });
});
