import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, UserDetail, USER_MESSAGES } from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';

/** Edit user (M5): POST /api/user/update/{id} with name, username and email, within the administrator's scope. */
let ctx: TestContext;
let aurora: string;
let joaoId: string;
let mariaId: string;
beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  aurora = (await ctx.login('aurora.adm')).token;
  const admin = (await ctx.login('admin')).token;
  const idOf = async (username: string) =>
    (await ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  joaoId = await idOf('joao.silva');
  mariaId = await idOf('maria.souza');
  expect((await ctx.request('GET', `/api/user/show/${joaoId}`, admin)).statusCode).toBe(200);
});
afterAll(() => ctx.close());

const edit = (id: string, body: unknown, token = aurora) => ctx.request('POST', `/api/user/update/${id}`, token, body);

describe('POST /api/user/update/{id} (M5)', () => {
  it('changes the name and username of a user of the enterprise at once, the e-mail once its link is opened', async () => {
    const res = await edit(joaoId, { name: 'João P. Silva', username: 'joao.paulo', email: 'joao.paulo@aurora.example' });
    expect(res.statusCode).toBe(200);
    // ADR 82: the new e-mail waits for the user to open the link sent to it.
    expect(UserDetail.parse(res.json())).toMatchObject({ name: 'João P. Silva', username: 'joao.paulo', email: 'joao.silva@aurora.example', pending_email: 'joao.paulo@aurora.example' });
    expect((await ctx.request('GET', `/api/user/show/${joaoId}`, aurora)).json().pending_email).toBe('joao.paulo@aurora.example');
    await ctx.login('joao.paulo');
    // Back as it was: the same e-mail as now leaves the waiting one alone; "Cancelar alteração" ends it.
    expect((await edit(joaoId, { name: 'João Silva', username: 'joao.silva', email: 'joao.silva@aurora.example' })).json().pending_email).toBe('joao.paulo@aurora.example');
    expect((await ctx.request('DELETE', `/api/user/pending-email/${joaoId}`, aurora)).statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/user/show/${joaoId}`, aurora)).json().pending_email).toBeNull();
  });

  it('refuses a username or email another user of the enterprise has, in any case, with the field’s message', async () => {
    const taken = await edit(joaoId, { name: 'João Silva', username: 'AURORA.ADM', email: 'joao.silva@aurora.example' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(USER_MESSAGES.usernameTaken);
    const email = await ctx.db.selectFrom('users').select('email').where('username', '=', 'aurora.adm').executeTakeFirstOrThrow();
    const takenEmail = await edit(joaoId, { name: 'João Silva', username: 'joao.silva', email: email.email.toUpperCase() });
    expect(takenEmail.statusCode).toBe(409);
    expect(takenEmail.json().error).toBe(MSG.emailTaken);
    const stored = await ctx.db.selectFrom('users').select(['username', 'name']).where('id', '=', joaoId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ username: 'joao.silva', name: 'João Silva' });
  });

  it('asks for valid fields in Portuguese', async () => {
    const res = await edit(joaoId, { name: ' ', username: 'jo ão', email: 'sem-arroba' });
    expect(res.statusCode).toBe(400);
    const messages = (res.json().issues as { message: string }[]).map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Informe o nome.',
        'O usuário pode ter apenas letras sem acento, números, ponto, hífen e sublinhado.',
        'Informe um email válido.',
      ]),
    );
  });

  it('never reaches a user of another enterprise, and is for administrators only', async () => {
    const foreign = await edit(mariaId, { name: 'Invasão', username: 'invasao', email: 'invasao@example.com' });
    expect(foreign.statusCode).toBe(404);
    expect((await ctx.db.selectFrom('users').select('name').where('id', '=', mariaId).executeTakeFirstOrThrow()).name).not.toBe('Invasão');
    expect((await ctx.request('DELETE', `/api/user/pending-email/${mariaId}`, aurora)).statusCode).toBe(404);
    const joao = (await ctx.login('joao.silva')).token;
    expect((await edit(joaoId, { name: 'Eu', username: 'joao.silva', email: 'joao.silva@aurora.example' }, joao)).statusCode).toBe(403);
    expect((await ctx.request('DELETE', `/api/user/pending-email/${joaoId}`, joao)).statusCode).toBe(403);
  });
});
