import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@sentinela/contract';
import { adminUsernameBase, firstFreeAdminUsername } from '../src/modules/enterprises/service';
import { createTestContext, type TestContext } from './context';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  adminToken = (await ctx.login('admin')).token;
});
afterAll(() => ctx.close());

const PASSWORD = 'Empresa@2026';

function registration(name: string, email: string, password: string = PASSWORD, extra: Record<string, unknown> = {}) {
  return {
    client: { name },
    user: { name, username: 'ignored', email, password, userType: 2, available_devices: [], disabled: false, verified: true, ...extra },
  };
}

const issueMessages = (body: { issues?: { message: string }[] }) => (body.issues ?? []).map((i) => i.message);

describe('admin username of a new company (M3)', () => {
  it.each([
    ['Frigorífico Boa Vista', 'frigorifico'],
    ['  ÁGUA   Viva Ltda', 'agua'],
    ['Açaí-Norte Comércio', 'acainorte'],
    ['São João Alimentos', 'sao'],
    ['123 Logística', '123'],
    ['*** Transportes', 'transportes'],
    ['!!!', 'empresa'],
  ])('%s → %s', (name, base) => {
    expect(adminUsernameBase(name)).toBe(base);
  });

  it('appends 2, 3… when taken', () => {
    expect(firstFreeAdminUsername('aurora', new Set())).toBe('aurora.adm');
    expect(firstFreeAdminUsername('aurora', new Set(['aurora.adm']))).toBe('aurora.adm2');
    expect(firstFreeAdminUsername('aurora', new Set(['aurora.adm', 'aurora.adm2', 'aurora.adm4']))).toBe('aurora.adm3');
  });
});

describe('POST /api/client/create/ (M3)', () => {
  it('creates the enterprise and its owner, an enabled and verified enterprise admin', async () => {
    const res = await ctx.request('POST', '/api/client/create/', adminToken, registration('Frigorífico Boa Vista', 'contato@boavista.example'));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      client: { _id: expect.any(String), name: 'Frigorífico Boa Vista' },
      user: { _id: expect.any(String), username: 'frigorifico.adm' },
    });

    const owner = await ctx.login('frigorifico.adm', PASSWORD);
    expect(owner.user).toMatchObject({
      _id: body.user._id,
      name: 'frigorifico.adm',
      email: 'contato@boavista.example',
      profile: { _id: 2 },
      isOwner: true,
      disabled: false,
      verified: true,
      available_devices: [],
      enterprise: { _id: body.client._id, name: 'Frigorífico Boa Vista' },
    });

    const list = await ctx.request('GET', '/api/client-all', adminToken);
    const created = list.json().find((e: { _id: string }) => e._id === body.client._id);
    expect(created).toMatchObject({ disabled: false, available_devices: [], users: [{ id: body.user._id, isOwner: true }] });
    expect(created.userOwner).toMatchObject({ username: 'frigorifico.adm' });
  });

  it('derives the username on the server, whatever the client sends', async () => {
    const res = await ctx.request(
      'POST',
      '/api/client/create',
      adminToken,
      registration('Água Viva', 'agua@viva.example', PASSWORD, { userType: 1, username: 'root', name: 'Root' }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().user.username).toBe('agua.adm');
    const { token } = await ctx.login('agua.adm', PASSWORD);
    expect((await ctx.request('GET', '/api/me', token)).json()).toMatchObject({ profile: { _id: 2 }, name: 'agua.adm', isOwner: true });
  });

  it('appends a number when the username is taken', async () => {
    const second = await ctx.request('POST', '/api/client/create/', adminToken, registration('Aurora Nova', 'nova@aurora.example'));
    expect(second.json().user.username).toBe('aurora.adm2');
    const third = await ctx.request('POST', '/api/client/create/', adminToken, registration('AURORA Três', 'tres@aurora.example'));
    expect(third.json().user.username).toBe('aurora.adm3');
    await ctx.login('aurora.adm3', PASSWORD);
  });

  it('two registrations racing for one username or one email both end well', async () => {
    const [a, b] = await Promise.all([
      ctx.request('POST', '/api/client/create/', adminToken, registration('Corrida Norte', 'norte@corrida.example')),
      ctx.request('POST', '/api/client/create/', adminToken, registration('Corrida Sul', 'sul@corrida.example')),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect([a.json().user.username, b.json().user.username].sort()).toEqual(['corrida.adm', 'corrida.adm2']);

    const same = await Promise.all([
      ctx.request('POST', '/api/client/create/', adminToken, registration('Mesma Um', 'mesma@email.example')),
      ctx.request('POST', '/api/client/create/', adminToken, registration('Mesma Dois', 'MESMA@email.example')),
    ]);
    expect(same.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(same.find((r) => r.statusCode === 409)!.json().error).toBe(MSG.emailTaken);
  });

  it('refuses an email already registered, whatever its case, and creates nothing', async () => {
    const before = (await ctx.request('GET', '/api/client-all', adminToken)).json().length;
    const res = await ctx.request('POST', '/api/client/create/', adminToken, registration('Outra Empresa', 'AURORA.ADM@aurora.example'));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.emailTaken);
    expect((await ctx.request('GET', '/api/client-all', adminToken)).json()).toHaveLength(before);
  });

  it.each([
    [undefined, MSG.passwordRequired],
    ['', MSG.passwordRequired],
    ['Ab@1', MSG.passwordMin],
    ['abcdefgh1', MSG.passwordPattern],
    ['abcdefgh@', MSG.passwordPattern],
    ['Senha 12@', MSG.passwordPattern],
  ])('password %j → "%s"', async (password, message) => {
    // An undefined password leaves the field out of the JSON body.
    const res = await ctx.request('POST', '/api/client/create/', adminToken, registration('Regra Senha', 'regra@senha.example', PASSWORD, { password }));
    expect(res.statusCode).toBe(400);
    expect(issueMessages(res.json())).toContain(message);
  });

  it('asks for the name and a valid email', async () => {
    const noName = await ctx.request('POST', '/api/client/create/', adminToken, registration('   ', 'nome@vazio.example'));
    expect(noName.statusCode).toBe(400);
    expect(issueMessages(noName.json())).toContain('Informe o nome da empresa.');
    const badEmail = await ctx.request('POST', '/api/client/create/', adminToken, registration('Email Ruim', 'nao-e-email'));
    expect(badEmail.statusCode).toBe(400);
    expect(issueMessages(badEmail.json())).toContain('Informe um email válido.');
  });

  it('is for the super admin only', async () => {
    for (const username of ['aurora.adm', 'joao.silva']) {
      const { token } = await ctx.login(username);
      const res = await ctx.request('POST', '/api/client/create/', token, registration('Intrusa', `${username}@intrusa.example`));
      expect(res.statusCode).toBe(403);
    }
    expect((await ctx.request('POST', '/api/client/create/', undefined, registration('Anônima', 'anon@x.example'))).statusCode).toBe(401);
  });
});

describe('GET /api/client/:id', () => {
  it('answers an enterprise within the caller scope only', async () => {
    const aurora = await ctx.login('aurora.adm');
    const vida = await ctx.login('vida.adm');
    const own = await ctx.request('GET', `/api/client/${aurora.user.enterprise!._id}`, aurora.token);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ name: 'Aurora Alimentos', userOwner: { username: 'aurora.adm' } });
    expect((await ctx.request('GET', `/api/client/${vida.user.enterprise!._id}`, aurora.token)).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/client/${vida.user.enterprise!._id}`, adminToken)).json().name).toBe('Vida Farma');
    expect((await ctx.request('GET', '/api/client/00000000-0000-4000-8000-000000000000', adminToken)).statusCode).toBe(404);
    const joao = await ctx.login('joao.silva');
    expect((await ctx.request('GET', `/api/client/${aurora.user.enterprise!._id}`, joao.token)).statusCode).toBe(403);
  });
});

describe('POST /api/admin/users/:id/reset-password (M4)', () => {
  async function usersOf(token: string, clientId: string) {
    const res = await ctx.request('GET', `/api/users-by-client/${clientId}`, token);
    return new Map<string, string>(res.json().map((u: { username: string; _id: string }) => [u.username, u._id]));
  }

  it('an enterprise admin resets a user of its enterprise: sessions end, the new password works', async () => {
    const aurora = await ctx.login('aurora.adm');
    const joaoId = (await usersOf(aurora.token, aurora.user.enterprise!._id)).get('joao.silva')!;
    const joao = await ctx.login('joao.silva');

    const res = await ctx.request('POST', `/api/admin/users/${joaoId}/reset-password`, aurora.token, { password: 'Nova/senha1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Senha resetada com sucesso!' });

    expect((await ctx.request('GET', '/api/me', joao.token)).statusCode).toBe(401);
    const old = await ctx.request('POST', '/api/authenticate', undefined, { username: 'joao.silva', password: 'Sentinela@2026' });
    expect(old.statusCode).toBe(401);
    await ctx.login('joao.silva', 'Nova/senha1');
    // The admin's own session is untouched.
    expect((await ctx.request('GET', '/api/me', aurora.token)).statusCode).toBe(200);

    // Put the demo password back.
    await ctx.request('POST', `/api/admin/users/${joaoId}/reset-password`, aurora.token, { password: 'Sentinela@2026' });
    await ctx.login('joao.silva');
  });

  it('an enterprise admin cannot reach users of another enterprise', async () => {
    const aurora = await ctx.login('aurora.adm');
    const vida = await usersOf(adminToken, (await ctx.login('vida.adm')).user.enterprise!._id);
    for (const username of ['maria.souza', 'vida.adm']) {
      const res = await ctx.request('POST', `/api/admin/users/${vida.get(username)}/reset-password`, aurora.token, { password: 'Invasao@123' });
      expect(res.statusCode).toBe(404);
    }
    await ctx.login('maria.souza');
  });

  it('nobody resets a super admin', async () => {
    const admin = await ctx.login('admin');
    const aurora = await ctx.login('aurora.adm');
    const byEnterpriseAdmin = await ctx.request('POST', `/api/admin/users/${admin.user._id}/reset-password`, aurora.token, { password: 'Invasao@123' });
    expect(byEnterpriseAdmin.statusCode).toBe(404);
    // The super admin itself is sent to its profile's Alterar senha, which asks for the current password.
    const bySuperAdmin = await ctx.request('POST', `/api/admin/users/${admin.user._id}/reset-password`, admin.token, { password: 'Invasao@123' });
    expect(bySuperAdmin.statusCode).toBe(400);
    await ctx.login('admin');
  });

  it('the super admin resets an enterprise admin; nobody resets themselves here', async () => {
    const vida = await ctx.login('vida.adm');
    const res = await ctx.request('POST', `/api/admin/users/${vida.user._id}/reset-password`, adminToken, { password: 'Farol#Norte5520' });
    expect(res.statusCode).toBe(200);
    const relogged = await ctx.login('vida.adm', 'Farol#Norte5520');
    const self = await ctx.request('POST', `/api/admin/users/${vida.user._id}/reset-password`, relogged.token, { password: 'Farol#Norte5521' });
    expect(self.statusCode).toBe(400);
  });

  it('is for administrators only', async () => {
    const joao = await ctx.login('joao.silva');
    const res = await ctx.request('POST', `/api/admin/users/${joao.user._id}/reset-password`, joao.token, { password: 'Minha@1234' });
    expect(res.statusCode).toBe(403);
  });

  it.each([
    [undefined, MSG.passwordRequiredAdmin],
    ['', MSG.passwordRequiredAdmin],
    ['Ab@1', MSG.passwordMin],
    ['abcdefgh', MSG.passwordPattern],
    ['abcdefg1', MSG.passwordPattern],
  ])('password %j → "%s"', async (password, message) => {
    const aurora = await ctx.login('aurora.adm');
    const joaoId = (await usersOf(aurora.token, aurora.user.enterprise!._id)).get('joao.silva')!;
    const res = await ctx.request('POST', `/api/admin/users/${joaoId}/reset-password`, aurora.token, password === undefined ? {} : { password });
    expect(res.statusCode).toBe(400);
    expect(issueMessages(res.json())).toContain(message);
  });
});
