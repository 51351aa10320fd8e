import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_ACTION_MESSAGES, USER_ACTIONS, type UserAction } from '@sentinela/contract';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { walkableRoutes } from './route-walk';

/**
 * Who acts on whom (issue 21.3, ADR 57): one rule, from the contract, on every route that changes a user. The owner
 * of an enterprise is acted on only by the owner and the super admin; a second administrator acts only on the users
 * below them; nobody deactivates the last active administrator; another enterprise's administrator reaches nobody.
 */
let ctx: TestContext;
let enterpriseId: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const passwords: Record<string, string> = {};

const STRONG = 'Cofre#Azul7134';

async function signIn(username: string) {
  tokens[username] = (await ctx.login(username, passwords[username] ?? DEMO_PASSWORD)).token;
}

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  for (const u of ['admin', 'aurora.adm', 'joao.silva', 'vida.adm', 'maria.souza']) {
    await signIn(u);
    ids[u] = (await ctx.db.selectFrom('users').select('id').where('username', '=', u).executeTakeFirstOrThrow()).id;
  }
  enterpriseId = (await ctx.db.selectFrom('users').select('enterprise_id').where('username', '=', 'aurora.adm').executeTakeFirstOrThrow()).enterprise_id!;
  // The owner makes two more administrators of Aurora, then gives each a password.
  for (const username of ['segundo.adm', 'terceiro.adm']) {
    const created = await ctx.request('POST', '/api/user/create', tokens['aurora.adm'], {
      name: `Administrador ${username}`,
      username,
      email: `${username}@aurora.example`,
      phone: '(11) 98888-0000',
      profile: { _id: 2 },
      available_devices: [],
    });
    expect(created.statusCode, created.body).toBe(200);
    ids[username] = created.json().user._id;
    const reset = await ctx.request('POST', `/api/admin/users/${ids[username]}/reset-password`, tokens['aurora.adm'], { password: STRONG });
    expect(reset.statusCode, reset.body).toBe(200);
    passwords[username] = STRONG;
    await signIn(username);
  }
});
afterAll(() => ctx.close());

/** Each action as the screens call it, in a form that changes nothing visible when it succeeds (or is undone). */
const ACT: Record<UserAction, (token: string, targetId: string) => Promise<{ statusCode: number; body: string; json(): { error?: string } }>> = {
  edit: async (token, targetId) => {
    const user = await ctx.db.selectFrom('users').select(['name', 'username', 'email']).where('id', '=', targetId).executeTakeFirstOrThrow();
    return ctx.request('POST', `/api/user/update/${targetId}`, token, { ...user, name: `${user.name}` });
  },
  'reset-password': (token, targetId) => ctx.request('POST', `/api/admin/users/${targetId}/reset-password`, token, { password: 'Trilho#Verde4821' }),
  'set-active': async (token, targetId) => {
    const res = await ctx.request('POST', '/api/client-active-inactive', token, { user_id: targetId, status: true });
    // Undone at once, by the super admin: the next case starts from an active user.
    if (res.statusCode === 200) await ctx.db.updateTable('users').set({ disabled: false }).where('id', '=', targetId).execute();
    return res;
  },
  'link-devices': (token, targetId) => ctx.request('POST', '/api/devices/link/user', token, { devices: [], to_update: 1, user_id: targetId }),
  'link-enterprise': (token, targetId) => ctx.request('POST', `/api/client/link/${enterpriseId}`, token, { users: [{ id: targetId, isOwner: false }] }),
};
const ACTIONS = Object.keys(USER_ACTIONS) as UserAction[];

/** The target's stored account, to show that a refused action changed nothing. */
const snapshot = (id: string) =>
  ctx.db.selectFrom('users').select(['name', 'username', 'email', 'password_hash', 'disabled', 'enterprise_id', 'is_owner']).where('id', '=', id).executeTakeFirstOrThrow();

/** After a successful reset or deactivation the target signs in again: keep the tests' sessions going. */
async function afterSuccess(action: UserAction, username: string) {
  if (action === 'reset-password') passwords[username] = 'Trilho#Verde4821';
  // A reset or a deactivation ended the target's sessions.
  if (action === 'reset-password' || action === 'set-active') await signIn(username);
}

describe('a second administrator of the enterprise', () => {
  it.each(ACTIONS)('cannot %s the owner (403), and the owner is left as it was', async (action) => {
    const before = await snapshot(ids['aurora.adm']!);
    const res = await ACT[action](tokens['segundo.adm']!, ids['aurora.adm']!);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error).toBe(USER_ACTION_MESSAGES.owner);
    expect(await snapshot(ids['aurora.adm']!)).toEqual(before);
    // The owner still signs in with the password it had.
    await signIn('aurora.adm');
  });

  it.each(ACTIONS)('cannot %s another administrator (403)', async (action) => {
    const before = await snapshot(ids['terceiro.adm']!);
    const res = await ACT[action](tokens['segundo.adm']!, ids['terceiro.adm']!);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error).toBe(USER_ACTION_MESSAGES.administrator);
    expect(await snapshot(ids['terceiro.adm']!)).toEqual(before);
  });

  it.each(ACTIONS)('may %s a user below them', async (action) => {
    const res = await ACT[action](tokens['segundo.adm']!, ids['joao.silva']!);
    expect(res.statusCode, res.body).toBe(200);
    await afterSuccess(action, 'joao.silva');
  });
});

describe('the owner and the super admin', () => {
  it.each(ACTIONS)('the owner may %s another administrator', async (action) => {
    const res = await ACT[action](tokens['aurora.adm']!, ids['terceiro.adm']!);
    expect(res.statusCode, res.body).toBe(200);
    await afterSuccess(action, 'terceiro.adm');
  });

  it.each(ACTIONS)('the super admin may %s the owner', async (action) => {
    const res = await ACT[action](tokens.admin!, ids['aurora.adm']!);
    expect(res.statusCode, res.body).toBe(200);
    await afterSuccess(action, 'aurora.adm');
  });

  it('nobody edits, resets or deactivates themselves from the administration screens', async () => {
    for (const action of ACTIONS) {
      const res = await ACT[action](tokens['aurora.adm']!, ids['aurora.adm']!);
      if (USER_ACTIONS[action].self) expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
      else {
        expect(res.statusCode, action).toBe(400);
        expect(res.json().error).toBe(USER_ACTION_MESSAGES.self[action]);
      }
    }
  });
});

describe('another enterprise', () => {
  it.each(ACTIONS)('its administrator cannot %s a user of Aurora (404), owner or not', async (action) => {
    for (const target of ['aurora.adm', 'joao.silva', 'segundo.adm']) {
      const before = await snapshot(ids[target]!);
      const res = await ACT[action](tokens['vida.adm']!, ids[target]!);
      expect(res.statusCode, `${target}: ${res.body}`).toBe(404);
      expect(await snapshot(ids[target]!)).toEqual(before);
    }
  });

  it.each(ACTIONS)('its ordinary user cannot %s anyone (403)', async (action) => {
    const res = await ACT[action](tokens['maria.souza']!, ids['joao.silva']!);
    expect(res.statusCode, res.body).toBe(403);
  });
});

describe('the last active administrator', () => {
  const deactivate = (id: string) => ctx.request('POST', '/api/client-active-inactive', tokens.admin, { user_id: id, status: true });
  const activate = (id: string) => ctx.request('POST', '/api/client-active-inactive', tokens.admin, { user_id: id, status: false });

  it('cannot be deactivated, not even by the super admin; with another active one it can', async () => {
    expect((await deactivate(ids['segundo.adm']!)).statusCode).toBe(200);
    expect((await deactivate(ids['terceiro.adm']!)).statusCode).toBe(200);
    const refused = await deactivate(ids['aurora.adm']!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(USER_ACTION_MESSAGES.lastActiveAdministrator);
    expect((await snapshot(ids['aurora.adm']!)).disabled).toBe(false);
    await signIn('aurora.adm');

    expect((await activate(ids['segundo.adm']!)).statusCode).toBe(200);
    expect((await deactivate(ids['aurora.adm']!)).statusCode).toBe(200);
    expect((await snapshot(ids['aurora.adm']!)).disabled).toBe(true);
    expect((await activate(ids['aurora.adm']!)).statusCode).toBe(200);
    expect((await activate(ids['terceiro.adm']!)).statusCode).toBe(200);
    await signIn('aurora.adm');
    await signIn('segundo.adm');
    await signIn('terceiro.adm');
  });

  it('two deactivations at once leave one administrator active', async () => {
    expect((await deactivate(ids['terceiro.adm']!)).statusCode).toBe(200);
    const [a, b] = await Promise.all([deactivate(ids['aurora.adm']!), deactivate(ids['segundo.adm']!)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const active = await ctx.db
      .selectFrom('users')
      .select('username')
      .where('enterprise_id', '=', enterpriseId)
      .where('profile_id', '=', 2)
      .where('disabled', '=', false)
      .execute();
    expect(active).toHaveLength(1);
    for (const u of ['aurora.adm', 'segundo.adm', 'terceiro.adm']) await activate(ids[u]!);
  });
});

describe('every route that changes a user is held to the rule', () => {
  it('cancelling a pending e-mail is held to the edit’s rule: a second administrator cannot touch a first one’s', async () => {
    const owner = ids['aurora.adm']!;
    // Fresh sessions: the deactivations above ended the ones these administrators had.
    await signIn('aurora.adm');
    await signIn('segundo.adm');
    const current = await ctx.db.selectFrom('users').select(['name', 'username', 'email']).where('id', '=', owner).executeTakeFirstOrThrow();
    const asked = await ctx.request('POST', `/api/user/update/${owner}`, tokens['segundo.adm']!, { ...current, email: 'dono.novo@aurora.example' });
    expect(asked.statusCode).toBe(403);
    const profile = (await ctx.request('GET', '/api/profile', tokens['aurora.adm']!)).json();
    const byOwnerSelf = await ctx.request('POST', '/api/profile', tokens['aurora.adm']!, {
      name: profile.name, username: profile.username, phone: profile.phone, email: 'dono.novo@aurora.example', current_password: passwords['aurora.adm'] ?? DEMO_PASSWORD,
    });
    expect(byOwnerSelf.statusCode, byOwnerSelf.body).toBe(200);
    const cancel = await ctx.request('DELETE', `/api/user/pending-email/${owner}`, tokens['segundo.adm']!);
    expect(cancel.statusCode).toBe(403);
    // (The super admin's link-enterprise cases above left the owner as an administrator the second one cannot act on.)
    expect([USER_ACTION_MESSAGES.owner, USER_ACTION_MESSAGES.administrator]).toContain(cancel.json().error);
    expect((await ctx.request('GET', '/api/profile', tokens['aurora.adm']!)).json().pending_email).toBe('dono.novo@aurora.example');
    expect((await ctx.request('DELETE', '/api/profile/pending-email', tokens['aurora.adm']!)).statusCode).toBe(200);
  });


  it('the walk finds no user-changing route this file does not try', () => {
    const tried: Record<string, UserAction | 'creates a new user'> = {
      'POST /api/user/update/:id': 'edit',
      // "Cancelar alteração" of a pending e-mail (ADR 82): the edit's rule, tried below.
      'DELETE /api/user/pending-email/:id': 'edit',
      'POST /api/admin/users/:id/reset-password': 'reset-password',
      'POST /api/client-active-inactive': 'set-active',
      'POST /api/devices/link/user': 'link-devices',
      'POST /api/client/link/:enterpriseId': 'link-enterprise',
      'POST /api/user/create': 'creates a new user',
    };
    const userChanging = walkableRoutes(ctx.routes)
      .filter((r) => r.method !== 'GET')
      .filter((r) => ['users:manage', 'devices:link'].includes(String(r.options.config?.permission)));
    expect(userChanging.map((r) => r.key).sort()).toEqual(Object.keys(tried).sort());
    expect(new Set(Object.values(tried).filter((v) => v !== 'creates a new user'))).toEqual(new Set(ACTIONS));
  });
});
