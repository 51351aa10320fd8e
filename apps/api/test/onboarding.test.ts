import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { ADDRESS_MESSAGES, CONTACT_MESSAGES, CREATE_USER_MESSAGES, MSG, PLAN_MESSAGES } from '@sentinela/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/** A ViaCEP-compatible server on 127.0.0.1: two known codes, `erro` for the rest; it can be switched "down". */
async function startCepServer() {
  let down = false;
  let calls = 0;
  const known: Record<string, object> = {
    '01310100': { cep: '01310-100', logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP', ibge: '3550308' },
    '70040010': { cep: '70040-010', logradouro: 'Esplanada dos Ministérios', bairro: 'Zona Cívico-Administrativa', localidade: 'Brasília', uf: 'DF', ibge: '5300108' },
  };
  const server: Server = createServer((req, res) => {
    calls += 1;
    const match = /^\/ws\/(\d+)\/json\/$/.exec(req.url ?? '');
    if (down) {
      res.writeHead(502).end('bad gateway');
      return;
    }
    if (!match) {
      res.writeHead(400).end('<h1>Bad request</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(known[match[1]!] ?? { erro: 'true' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    setDown: (value: boolean) => void (down = value),
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Asks for a challenge and solves it for real, as the widget does, giving the payload the widget would submit. */
async function solvedToken(ctx: TestContext): Promise<string> {
  const res = await ctx.request('GET', '/api/contact-us/challenge');
  expect(res.statusCode, res.body).toBe(200);
  const challenge = res.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const contact = (altcha: string, extra: Record<string, unknown> = {}) => ({
  name: 'Carla Visitante',
  email: 'carla@example.com',
  phone: '(11) 91234-5678',
  message: 'Quero monitorar 20 freezers.\nPodem me ligar?',
  altcha,
  ...extra,
});

describe('contact form (A14)', () => {
  let smtp: TestSmtpServer;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ctx = await createTestContext({ config: { smtpUrl: smtp.url, contactMaxPerHour: 8 } });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('stores a message with a solved challenge and e-mails it to CONTACT_EMAIL', async () => {
    const res = await ctx.request('POST', '/api/contact-us', undefined, contact(await solvedToken(ctx)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: CONTACT_MESSAGES.sent });
    const stored = await ctx.db.selectFrom('contact_messages').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'Carla Visitante', email: 'carla@example.com', phone: '(11) 91234-5678', message: 'Quero monitorar 20 freezers.\nPodem me ligar?' });
    expect(stored[0]!.forwarded_at).not.toBeNull();
    const mail = await smtp.waitForMail('contato@sentinela.test', 'Contato pelo site: “Carla Visitante”');
    // The visitor's words are a block apart, their name quoted (issue 21.10).
    expect(mail.text).toContain('> Quero monitorar 20 freezers.\n> Podem me ligar?');
    expect(mail.text).toContain('Nome: “Carla Visitante”');
    expect(mail.text).toContain('(11) 91234-5678');
    expect(mail.replyTo?.text).toContain('carla@example.com');
  });

  it('refuses a replayed, a tampered, a missing and an expired answer, storing nothing', async () => {
    const before = await ctx.db.selectFrom('contact_messages').select('id').execute();
    const token = await solvedToken(ctx);
    expect((await ctx.request('POST', '/api/contact-us', undefined, contact(token))).statusCode).toBe(200);
    const replay = await ctx.request('POST', '/api/contact-us', undefined, contact(token));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe(CONTACT_MESSAGES.checkUsed);

    // The derived key is the proof (the server signed the one the right counter gives): another one is refused.
    const decoded = JSON.parse(Buffer.from(await solvedToken(ctx), 'base64').toString()) as { solution: { derivedKey: string } };
    decoded.solution.derivedKey = decoded.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const tampered = await ctx.request('POST', '/api/contact-us', undefined, contact(Buffer.from(JSON.stringify(decoded)).toString('base64')));
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error).toBe(CONTACT_MESSAGES.checkInvalid);

    const missing = await ctx.request('POST', '/api/contact-us', undefined, { ...contact(''), altcha: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain(CONTACT_MESSAGES.checkRequired);
    const garbage = await ctx.request('POST', '/api/contact-us', undefined, contact('bm90IGpzb24='));
    expect(garbage.json().error).toBe(CONTACT_MESSAGES.checkInvalid);

    const late = await solvedToken(ctx);
    ctx.clock.advance(10 * 60 * 1000 + 1000);
    const expired = await ctx.request('POST', '/api/contact-us', undefined, contact(late));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe(CONTACT_MESSAGES.checkExpired);
    const after = await ctx.db.selectFrom('contact_messages').select('id').execute();
    expect(after.length).toBe(before.length + 1);
  });

  it('validates every field with pt-BR messages', async () => {
    const res = await ctx.request('POST', '/api/contact-us', undefined, { name: ' ', email: 'x', phone: '123', message: '', altcha: 'abc' });
    expect(res.statusCode).toBe(400);
    for (const text of ['Informe o nome.', 'Informe um email válido.', '(99) 99999-9999', 'Escreva a mensagem.']) expect(res.body).toContain(text);
  });

  it('limits messages per address', async () => {
    // 8 per hour in this file; the earlier tests sent 8 (accepted or not, each one counts).
    const res = await ctx.request('POST', '/api/contact-us', undefined, contact('abc'));
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe(CONTACT_MESSAGES.tooMany);
  });
});

describe('complete registration, plans and users of an enterprise (A4, A11, A13)', () => {
  let cep: Awaited<ReturnType<typeof startCepServer>>;
  let smtp: TestSmtpServer;
  let ctx: TestContext;
  let aurora: { token: string; user: { _id: string; enterprise: { _id: string } | null } };
  let vida: { token: string; user: { _id: string; enterprise: { _id: string } | null } };
  let plain: { token: string };
  let admin: { token: string };
  beforeAll(async () => {
    cep = await startCepServer();
    smtp = await startSmtpServer();
    ctx = await createTestContext({ demo: true, config: { cepLookupUrl: cep.url, cepLookupTimeoutMs: 1500, smtpUrl: smtp.url } });
    aurora = await ctx.login('aurora.adm');
    vida = await ctx.login('vida.adm');
    plain = await ctx.login('joao.silva');
    admin = await ctx.login('admin');
  });
  afterAll(async () => {
    await ctx?.close();
    await cep?.close();
    await smtp?.close();
  });

  it('looks a CEP up at the local service, caches it, and says so when unknown or when the service is down', async () => {
    const found = await ctx.request('GET', '/api/cep/01310-100', aurora.token);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ cep: '01310-100', logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP', ibge: '3550308' });
    const calls = cep.calls();
    expect((await ctx.request('GET', '/api/cep/01310100', aurora.token)).statusCode).toBe(200);
    expect(cep.calls()).toBe(calls);

    const unknown = await ctx.request('GET', '/api/cep/99999999', aurora.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(ADDRESS_MESSAGES.cepNotFound);
    const short = await ctx.request('GET', '/api/cep/0131', aurora.token);
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain(ADDRESS_MESSAGES.cepInvalid);

    cep.setDown(true);
    const down = await ctx.request('GET', '/api/cep/70040010', aurora.token);
    expect(down.statusCode).toBe(503);
    expect(down.json().error).toBe(ADDRESS_MESSAGES.cepUnavailable);
    cep.setDown(false);
    expect((await ctx.request('GET', '/api/cep/70040010', aurora.token)).json()).toMatchObject({ localidade: 'Brasília', uf: 'DF' });
    expect((await ctx.request('GET', '/api/cep/01310100')).statusCode).toBe(401);
  });

  it('answers 503 when the service does not answer in time', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const slow = await createTestContext({ config: { cepLookupUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/ws`, cepLookupTimeoutMs: 200 } });
    try {
      const res = await slow.services.cepLookup.lookup('01310100').catch((e: unknown) => e);
      expect(res).toMatchObject({ statusCode: 503, message: ADDRESS_MESSAGES.cepUnavailable });
    } finally {
      await slow.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("saves the address on the caller's own enterprise only", async () => {
    const body = { cep: '01310-100', number: '1000', address: 'Avenida Paulista', neighbourhood: 'Bela Vista', city: 'São Paulo', uf: 'sp', ibge: '3550308' };
    const saved = await ctx.request('POST', '/api/enterprise/address', aurora.token, body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe(ADDRESS_MESSAGES.saved);
    expect((await ctx.request('GET', '/api/enterprise/address', aurora.token)).json()).toEqual({ ...body, cep: '01310100', uf: 'SP' });
    expect((await ctx.request('GET', '/api/enterprise/address', vida.token)).json()).toBeNull();
    const rows = await ctx.db.selectFrom('enterprise_addresses').select('enterprise_id').execute();
    expect(rows).toEqual([{ enterprise_id: aurora.user.enterprise!._id }]);

    const bad = await ctx.request('POST', '/api/enterprise/address', aurora.token, { ...body, uf: 'XX', number: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Informe uma UF válida.');
    expect(bad.body).toContain('Informe o número.');
    expect((await ctx.request('POST', '/api/enterprise/address', plain.token, body)).statusCode).toBe(403);
    const noEnterprise = await ctx.request('POST', '/api/enterprise/address', admin.token, body);
    expect(noEnterprise.statusCode).toBe(400);
    expect(noEnterprise.json().error).toBe(ADDRESS_MESSAGES.noEnterprise);
  });

  it('records a plan change for billing and shows the current plan', async () => {
    const plans = (await ctx.request('GET', '/api/plans')).json() as { _id: string; cicle: { id: string; name: string }[] }[];
    const [first, second] = plans;
    // The demo enterprises' subscriptions (issue 13) removed: enterprises with no plan yet.
    await ctx.db.deleteFrom('subscriptions').execute();
    // No plan yet: the chosen one is the plan.
    const chosen = await ctx.request('POST', '/api/enterprise/plan', aurora.token, { plan_id: first!._id, cicle_id: first!.cicle[0]!.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().message).toBe(PLAN_MESSAGES.chosen);
    expect((await ctx.request('GET', '/api/enterprise/plan', plain.token)).json()).toMatchObject({ current: { plan_id: first!._id, cicle_id: first!.cicle[0]!.id }, requested: null });
    const again = await ctx.request('POST', '/api/enterprise/plan', aurora.token, { plan_id: first!._id, cicle_id: first!.cicle[0]!.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(PLAN_MESSAGES.alreadyCurrent);
    const change = await ctx.request('POST', '/api/enterprise/plan', aurora.token, { plan_id: second!._id, cicle_id: second!.cicle[1]!.id });
    expect(change.statusCode).toBe(200);
    expect(change.json().message).toBe(PLAN_MESSAGES.requested);
    const view = (await ctx.request('GET', '/api/enterprise/plan', aurora.token)).json();
    expect(view).toMatchObject({ current: { plan_id: first!._id }, requested: { plan_id: second!._id, cicle_id: second!.cicle[1]!.id } });
    // A cycle of another plan is not found; an ordinary user cannot change the plan.
    const mismatch = await ctx.request('POST', '/api/enterprise/plan', aurora.token, { plan_id: first!._id, cicle_id: second!.cicle[0]!.id });
    expect(mismatch.statusCode).toBe(404);
    expect((await ctx.request('POST', '/api/enterprise/plan', plain.token, { plan_id: second!._id, cicle_id: second!.cicle[0]!.id })).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/enterprise/plan', vida.token)).json()).toEqual({ current: null, requested: null });
  });

  it('offers the profiles less the excluded one', async () => {
    const res = await ctx.request('GET', '/api/acl/all', aurora.token);
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as { content: { _id: number }[] }).content.map((p) => p._id);
    expect(ids).toEqual([2, 3, 4, 5]);
    expect((await ctx.request('GET', '/api/acl/all', plain.token)).statusCode).toBe(403);
  });

  it('creates a user in the caller\'s enterprise, who chooses a password from the e-mailed code when none is sent', async () => {
    const devices = await ctx.db.selectFrom('devices').select(['id', 'enterprise_id']).execute();
    const own = devices.find((d) => d.enterprise_id === aurora.user.enterprise!._id)!;
    const body = { name: 'Bruno Novo', username: 'bruno.novo', email: 'bruno.novo@aurora.example', phone: '(11) 97777-1111', password: '', profile: { _id: 3 }, available_devices: [own.id] };
    const res = await ctx.request('POST', '/api/user/create', aurora.token, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: CREATE_USER_MESSAGES.created });
    const id = res.json().user._id as string;
    const linked = await ctx.request('POST', `/api/client/link/${aurora.user.enterprise!._id}`, aurora.token, { users: [{ id, isOwner: false }] });
    expect(linked.statusCode, linked.body).toBe(200);
    const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ enterprise_id: aurora.user.enterprise!._id, is_owner: false, profile_id: 3, verified: false });
    expect(await ctx.db.selectFrom('device_users').select('device_id').where('user_id', '=', id).execute()).toEqual([{ device_id: own.id }]);
    // An empty password is none: the welcome message carries a code, and the code sets the password.
    const mail = await smtp.waitForMail('bruno.novo@aurora.example', 'Sua conta no Sentinela foi criada');
    expect(mail.text).toContain('http://sentinela.test/reset-password?email=bruno.novo%40aurora.example&first=1');
    // Addressed to nobody by name: the enterprise and the username are quoted facts (issue 21.10).
    expect(mail.text).toMatch(/^Olá!$/m);
    expect(mail.text).toContain('Um administrador da empresa “Aurora Alimentos” criou uma conta para você no Sentinela, com o usuário “bruno.novo”.');
    const text = mail.text ?? '';
    const code = /^\s+(\d{6})$/m.exec(text)?.[1];
    expect(code, text).toBeDefined();
    const reset = await ctx.request('POST', '/api/password/reset', undefined, { email: 'bruno.novo@aurora.example', code, password: 'Cofre#Azul7134' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await ctx.login('bruno.novo', 'Cofre#Azul7134')).user).toMatchObject({ verified: true });
  });

  it('refuses what an enterprise administrator may not do, creating nothing', async () => {
    const count = async () => (await ctx.db.selectFrom('users').select('id').execute()).length;
    const before = await count();
    const vidaDevice = (await ctx.db.selectFrom('devices').select('id').where('enterprise_id', '=', vida.user.enterprise!._id).executeTakeFirstOrThrow()).id;
    const base = { name: 'Intrusa', username: 'intrusa', email: 'intrusa@example.com', phone: '(11) 97777-2222', profile: { _id: 3 } };
    // Another enterprise named, another enterprise's device, the excluded profile, a taken e-mail.
    expect((await ctx.request('POST', '/api/user/create', aurora.token, { ...base, client_id: vida.user.enterprise!._id })).statusCode).toBe(404);
    expect((await ctx.request('POST', '/api/user/create', aurora.token, { ...base, available_devices: [vidaDevice] })).statusCode).toBe(404);
    const superProfile = await ctx.request('POST', '/api/user/create', aurora.token, { ...base, profile: { _id: 1 } });
    expect(superProfile.statusCode).toBe(400);
    expect(superProfile.json().error).toBe(CREATE_USER_MESSAGES.profileNotAllowed);
    const taken = await ctx.request('POST', '/api/user/create', aurora.token, { ...base, email: 'maria.souza@vidafarma.example' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(MSG.emailTaken);
    expect((await ctx.request('POST', '/api/user/create', plain.token, base)).statusCode).toBe(403);
    const bad = await ctx.request('POST', '/api/user/create', aurora.token, { ...base, phone: '1', name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Informe o nome.');
    expect(await count()).toBe(before);

    // Linking: another enterprise, another enterprise's user, making an owner.
    const maria = await ctx.db.selectFrom('users').select('id').where('username', '=', 'maria.souza').executeTakeFirstOrThrow();
    const joao = await ctx.db.selectFrom('users').select(['id', 'enterprise_id']).where('username', '=', 'joao.silva').executeTakeFirstOrThrow();
    expect((await ctx.request('POST', `/api/client/link/${vida.user.enterprise!._id}`, aurora.token, { users: [{ id: joao.id, isOwner: false }] })).statusCode).toBe(404);
    expect((await ctx.request('POST', `/api/client/link/${aurora.user.enterprise!._id}`, aurora.token, { users: [{ id: maria.id, isOwner: false }] })).statusCode).toBe(404);
    expect((await ctx.request('POST', `/api/client/link/${aurora.user.enterprise!._id}`, aurora.token, { users: [{ id: joao.id, isOwner: true }] })).statusCode).toBe(403);
    const mariaAfter = await ctx.db.selectFrom('users').select(['enterprise_id', 'is_owner']).where('id', '=', maria.id).executeTakeFirstOrThrow();
    expect(mariaAfter.enterprise_id).toBe(vida.user.enterprise!._id);
    // The owner stays the owner when an administrator links them again.
    expect((await ctx.request('POST', `/api/client/link/${aurora.user.enterprise!._id}`, aurora.token, { users: [{ id: aurora.user._id, isOwner: false }] })).statusCode).toBe(200);
    expect((await ctx.db.selectFrom('users').select('is_owner').where('id', '=', aurora.user._id).executeTakeFirstOrThrow()).is_owner).toBe(true);
  });

  it('lets the platform administrator create a user in the enterprise it names', async () => {
    const body = { name: 'Vera Nova', username: 'vera.nova', email: 'vera.nova@vidafarma.example', phone: '(21) 97777-3333', profile: { _id: 4 } };
    const missing = await ctx.request('POST', '/api/user/create', admin.token, body);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(CREATE_USER_MESSAGES.enterpriseRequired);
    const res = await ctx.request('POST', '/api/user/create', admin.token, { ...body, client_id: vida.user.enterprise!._id });
    expect(res.statusCode, res.body).toBe(200);
    const user = await ctx.db.selectFrom('users').select(['enterprise_id', 'profile_id']).where('username', '=', 'vera.nova').executeTakeFirstOrThrow();
    expect(user).toEqual({ enterprise_id: vida.user.enterprise!._id, profile_id: 4 });
  });
});
