import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, CONTACT_MESSAGES, MSG, USER_MESSAGES } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

/**
 * No lists of people (issue 21 item 5; ADR 54, "Lists of people"): the documented answers stay, but whether an e-mail
 * or a username is taken can be asked only a few times — per address, per target (whoever asks), and per signed-in
 * requester on the routes that answer 409 — and a sign-up costs a solved proof of work, as the contact form does.
 * Real app, real database (PostgreSQL, or PGlite with TEST_DB=pglite); challenges solved for real.
 */

const PER_TARGET = 3;
const PER_ADDRESS_HOUR = 6;
const TAKEN_ANSWERS = 3;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    demo: true,
    config: { accountChecksPerTargetPerHour: PER_TARGET, emailAvailableMaxPerHour: PER_ADDRESS_HOUR, takenAnswersPerHour: TAKEN_ANSWERS },
  });
});
afterAll(() => ctx?.close());

const from = (address: string, url: string, payload: object) => ctx.app.inject({ method: 'POST', url, remoteAddress: address, payload });
const signUp = (n: string, extra: Record<string, unknown> = {}) => ({
  name: `Pessoa ${n}`,
  username: `pessoa.${n}`,
  email: `pessoa.${n}@example.com`,
  phone: '(11) 98765-4321',
  password: 'Cofre#Azul7134',
  client: { name: `Empresa ${n}` },
  ...extra,
});

describe('the e-mail availability check', () => {
  it('keeps the documents’ answer, within a budget per address per hour', async () => {
    const address = '198.51.100.1';
    expect((await from(address, '/api/user/email-available', { email: 'joao.silva@aurora.example' })).json()).toBe(true);
    expect((await from(address, '/api/user/email-available', { email: 'ninguem@example.com' })).json()).toBe(false);
    for (let i = 2; i < PER_ADDRESS_HOUR; i++) expect((await from(address, '/api/user/email-available', { email: `lista${i}@example.com` })).statusCode).toBe(200);
    const refused = await from(address, '/api/user/email-available', { email: 'mais.um@example.com' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(ACCOUNT_MESSAGES.tooManyAccountRequests);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    // Another address still asks.
    expect((await from('198.51.100.2', '/api/user/email-available', { email: 'mais.um@example.com' })).statusCode).toBe(200);
  });

  it('answers about one e-mail a few times an hour, whoever asks (many addresses cannot list it either)', async () => {
    const target = 'maria.souza@vidafarma.example';
    for (let i = 0; i < PER_TARGET; i++) expect((await from(`203.0.113.${i + 1}`, '/api/user/email-available', { email: target })).json()).toBe(true);
    // Spelled differently, still the same target; the refusal says nothing about it.
    const refused = await from('203.0.113.50', '/api/user/email-available', { email: ` Maria.Souza@VidaFarma.example ` });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(ACCOUNT_MESSAGES.tooManyAccountRequests);
    // Other targets are answered.
    expect((await from('203.0.113.50', '/api/user/email-available', { email: 'vida.adm@vidafarma.example' })).json()).toBe(true);
  });
});

describe('the sign-up', () => {
  it('needs a solved challenge, used once; a missing or forged one is a pt-BR 400 and creates nothing', async () => {
    const missing = await ctx.request('POST', '/api/client', undefined, signUp('semcheck'));
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain(CONTACT_MESSAGES.checkRequired);
    const forged = await ctx.request('POST', '/api/client', undefined, signUp('forjado', { altcha: Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: {} })).toString('base64') }));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe(CONTACT_MESSAGES.checkInvalid);
    const altcha = await ctx.humanCheck();
    const done = await ctx.request('POST', '/api/client', undefined, signUp('resolvido', { altcha }));
    expect(done.statusCode, done.body).toBe(200);
    const again = await ctx.request('POST', '/api/client', undefined, signUp('reuso', { altcha }));
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(CONTACT_MESSAGES.checkUsed);
    const users = await ctx.db.selectFrom('users').select('username').where('username', 'in', ['pessoa.semcheck', 'pessoa.forjado', 'pessoa.reuso', 'pessoa.resolvido']).execute();
    expect(users.map((u) => u.username)).toEqual(['pessoa.resolvido']);
  });

  it('answers whether one username is taken a few times an hour, whoever asks', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_TARGET + 1; i++) {
      const res = await from(`192.0.2.${i + 1}`, '/api/client', signUp(`sonda${i}`, { username: 'vida.adm', altcha: await ctx.humanCheck() }));
      statuses.push(res.statusCode);
      if (res.statusCode === 409) expect(res.json().error).toBe(USER_MESSAGES.usernameTaken);
    }
    expect(statuses).toEqual([...Array<number>(PER_TARGET).fill(409), 429]);
  });
});

describe('users answering 409 (create, edit, profile)', () => {
  it('Editar usuário answers another enterprise’s e-mail as a free one (ADR 82); username probes are stopped after a few 409s', async () => {
    const aurora = await ctx.login('aurora.adm');
    const joao = await ctx.db.selectFrom('users').select(['id', 'email']).where('username', '=', 'joao.silva').executeTakeFirstOrThrow();
    const edit = (fields: { email?: string; username?: string }) =>
      ctx.request('POST', `/api/user/update/${joao.id}`, aurora.token, { name: 'João Silva', username: 'joao.silva', email: joao.email, ...fields });
    // Successful edits spend nothing; neither do other enterprises' e-mails, answered as free ones (pending changes).
    for (let i = 0; i < TAKEN_ANSWERS + 1; i++) expect((await edit({ email: `joao.${i}@aurora.example` })).statusCode).toBe(200);
    for (const email of ['maria.souza@vidafarma.example', 'vida.adm@vidafarma.example', 'contato.x@vidafarma.example']) {
      const res = await edit({ email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: joao.email, pending_email: email });
    }
    // A username is a sign-in name, not an address (ADR 82): taken ones are still 409, counted.
    const statuses = [];
    for (const username of ['maria.souza', 'vida.adm', 'joao.livre', 'vida.adm']) statuses.push((await edit({ username })).statusCode);
    expect(statuses).toEqual([409, 409, 200, 409]);
    const refused = await edit({ username: 'maria.souza' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(MSG.tooManyRequests);
    // Refused before anything is changed; another administrator is not affected.
    expect((await ctx.db.selectFrom('users').select(['email', 'username']).where('id', '=', joao.id).executeTakeFirstOrThrow())).toEqual({ email: joao.email, username: 'joao.livre' });
    const vida = await ctx.login('vida.adm');
    const maria = await ctx.db.selectFrom('users').select(['id', 'email']).where('username', '=', 'maria.souza').executeTakeFirstOrThrow();
    const taken = await ctx.request('POST', `/api/user/update/${maria.id}`, vida.token, { name: 'Maria Souza', username: 'aurora.adm', email: maria.email });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(USER_MESSAGES.usernameTaken);
  });
});
