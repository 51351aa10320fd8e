import { MSG, type UserDetail } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, type RecordedRequest, screenRequests } from '../../../test/fetch';
import { makeEnterprise, makeSession, makeUser } from '../../../test/fixtures';
import { asPhone } from '../../../test/phone';
import { renderApp } from '../../../test/render';

const CLIENT_ID = 'e0000000-0000-4000-8000-000000000001';
const enterprise = makeEnterprise(1, { name: 'Aurora Alimentos' });
const me = makeSession(2).user;
const joao = makeUser(3, {
  _id: 'u0000000-0000-4000-8000-000000000002',
  id: 'u0000000-0000-4000-8000-000000000002',
  name: 'João Silva',
  username: 'joao.silva',
  available_devices: ['d1', 'd2'],
  created_at: '2024-03-05T13:00:00.000Z',
});
const admin = { ...me, name: 'Aurora Administração', username: 'aurora.adm', isOwner: true };

/** A small server: GET lists by `disabled`, POST toggles or resets. */
function server(users: UserDetail[], post?: (request: RecordedRequest) => Response): Handler {
  return (request) => {
    const { url, method } = request;
    if (url.startsWith('/api/client/')) return jsonResponse(enterprise);
    if (method === 'GET') {
      const disabled = url.endsWith('disabled=true');
      return jsonResponse(users.filter((u) => u.disabled === disabled));
    }
    return post ? post(request) : jsonResponse({ success: true, message: 'ok' });
  };
}

/** Signed in as the super admin (1) or as Aurora's owner (2), unless `me` says otherwise. */
function open(path: string, handler: Handler, profileId: 1 | 2 = 2, me: Partial<UserDetail> = {}) {
  const aurora = { enterprise: { _id: CLIENT_ID, name: 'Aurora Alimentos' }, isOwner: true };
  startSession(makeSession(profileId, { ...(profileId === 2 ? aurora : {}), ...me }));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp(path) };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');
function rowOf(text: string): HTMLElement {
  const row = bodyRows().find((r) => within(r).queryByText(text));
  if (!row) throw new Error(`no row with ${text}`);
  return row;
}

describe('/enterprise-users (M4)', () => {
  it('titles the screen with the enterprise and lists the active users', async () => {
    const { requests } = open(`/enterprise-users?id=${CLIENT_ID}`, server([admin, joao]));
    expect(await screen.findByRole('heading', { name: 'Usuários da empresa Aurora Alimentos' })).toBeTruthy();
    await screen.findByText('João Silva');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Nome',
      'Usuário',
      'Data de criação',
      'Dispositivos vinculados',
      'Ações',
    ]);
    expect(within(rowOf('João Silva')).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'João Silva',
      'joao.silva',
      '05/03/2024 10:00:00',
      '2',
      'DispositivosEditarLogsTrilhaAlterar senhaDesativar',
    ]);
    expect(within(rowOf('João Silva')).getByRole('link', { name: 'Logs' }).getAttribute('href')).toMatch(/^\/acess-log\?user_id=/);
    expect(within(rowOf('João Silva')).getByRole('link', { name: 'Dispositivos' }).getAttribute('href')).toMatch(
      new RegExp(`^/add-beacons\\?id=[^&]+&numDevices=2&eID=${CLIENT_ID}$`),
    );
    // The signed-in admin is not offered actions on itself.
    expect(within(rowOf('Aurora Administração')).getByText('Você')).toBeTruthy();
    expect(within(rowOf('Aurora Administração')).queryByRole('button')).toBeNull();
    expect(screenRequests(requests).map((r) => r.url).sort()).toEqual([`/api/client/${CLIENT_ID}`, `/api/users-by-client/${CLIENT_ID}?disabled=false`]);
    expect(screen.getByRole('tab', { name: 'Ativos' }).getAttribute('aria-selected')).toBe('true');
  });

  it('on a phone, shows each user as a card with its row\'s contents and actions; Desativar asks, as the row\'s does', async () => {
    asPhone();
    open(`/enterprise-users?id=${CLIENT_ID}`, server([admin, joao]));
    await screen.findByText('João Silva');
    // No table scrolled sideways: one card per user.
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('user-card');
    const card = cards.find((c) => within(c).queryByText('João Silva'))!;
    expect(card.textContent).toContain('Usuário: joao.silva');
    expect(card.textContent).toContain('Data de criação: 05/03/2024 10:00:00');
    expect(card.textContent).toContain('Dispositivos vinculados: 2');
    expect([...card.querySelectorAll('a, button')].map((b) => b.textContent)).toEqual([
      'Dispositivos',
      'Editar',
      'Logs',
      'Trilha',
      'Alterar senha',
      'Desativar',
    ]);
    expect(within(card).getByRole('link', { name: 'Dispositivos' }).getAttribute('href')).toMatch(
      new RegExp(`^/add-beacons\\?id=[^&]+&numDevices=2&eID=${CLIENT_ID}$`),
    );
    // The signed-in owner's card: Proprietário, and Você instead of actions.
    const mine = cards.find((c) => within(c).queryByText('Aurora Administração'))!;
    expect(within(mine).getByText('Proprietário')).toBeTruthy();
    expect(within(mine).getByText('Você')).toBeTruthy();
    expect(within(mine).queryByRole('button')).toBeNull();

    await userEvent.click(within(card).getByRole('button', { name: 'Desativar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desativar usuário' });
    expect(dialog.textContent).toContain('Deseja desativar o usuário João Silva?');
  });

  it("an enterprise admin without id sees its own enterprise's users", async () => {
    const { requests } = open('/enterprise-users', server([admin]));
    await screen.findByText('Aurora Administração');
    expect(screenRequests(requests).map((r) => r.url)).toContain('/api/users-by-client/ent-1?disabled=false');
  });

  it('deactivates after confirmation, then the user is in Inativos and can be activated', async () => {
    let users = [admin, joao];
    const { requests, router } = open(`/enterprise-users?id=${CLIENT_ID}`, (request) =>
      server(users, ({ body }) => {
        const { user_id, status } = body as { user_id: string; status: boolean };
        users = users.map((u) => (u._id === user_id ? { ...u, disabled: status } : u));
        return jsonResponse({ success: true, message: status ? MSG.userDeactivated : MSG.userActivated });
      })(request),
    );

    await userEvent.click(within(await waitFor(() => rowOf('João Silva'))).getByRole('button', { name: 'Desativar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desativar usuário' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Desativar' }));
    expect(await screen.findByText(MSG.userDeactivated)).toBeTruthy();
    expect(screenRequests(requests).find((r) => r.method === 'POST')?.body).toEqual({ user_id: joao._id, status: true });
    await waitFor(() => expect(screen.queryByText('João Silva')).toBeNull());

    await userEvent.click(screen.getByRole('tab', { name: 'Inativos' }));
    expect(router.state.location.search).toContain('tab=inativos');
    const row = await waitFor(() => rowOf('João Silva'));
    expect(within(row).queryByRole('button', { name: 'Alterar senha' })).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Ativar' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Ativar usuário' })).getByRole('button', { name: 'Ativar' }));
    expect(await screen.findByText(MSG.userActivated)).toBeTruthy();
    expect(screenRequests(requests).filter((r) => r.method === 'POST').at(-1)?.body).toEqual({ user_id: joao._id, status: false });
    expect(await screen.findByText('Nada encontrado...')).toBeTruthy();
  });

  it('says "Não foi possível desativar o usuário." when it fails', async () => {
    open(`/enterprise-users?id=${CLIENT_ID}`, server([admin, joao], () => errorResponse(404, 'Usuário não encontrado.')));
    await userEvent.click(within(await waitFor(() => rowOf('João Silva'))).getByRole('button', { name: 'Desativar' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Desativar' }));
    expect(await screen.findByText(MSG.userActivationFailed)).toBeTruthy();
  });

  it('Alterar senha checks the admin reset rules, shows and hides the password, and resets it', async () => {
    const { requests } = open(
      `/enterprise-users?id=${CLIENT_ID}`,
      server([admin, joao], () => jsonResponse({ success: true, message: MSG.passwordResetByAdmin })),
    );
    await userEvent.click(within(await waitFor(() => rowOf('João Silva'))).getByRole('button', { name: 'Alterar senha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alterar senha' });
    const input = within(dialog).getByLabelText(/^Nova senha/) as HTMLInputElement;

    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText(MSG.passwordRequiredAdmin)).toBeTruthy();
    await userEvent.type(input, 'abc');
    expect(await within(dialog).findByText(MSG.passwordMin)).toBeTruthy();
    await userEvent.type(input, 'defgh');
    expect(await within(dialog).findByText(MSG.passwordPattern)).toBeTruthy();

    await userEvent.clear(input);
    await userEvent.type(input, 'Nova/senha1');
    expect(input.type).toBe('password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mostrar ou ocultar senha' }));
    expect(input.type).toBe('text');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MSG.passwordResetByAdmin)).toBeTruthy();
    expect(screen.getByText('Sucesso!')).toBeTruthy();
    expect(screenRequests(requests).find((r) => r.method === 'POST')).toMatchObject({
      url: `/api/admin/users/${joao._id}/reset-password`,
      body: { password: 'Nova/senha1' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("Alterar senha shows the server's text when the reset fails", async () => {
    open(`/enterprise-users?id=${CLIENT_ID}`, server([admin, joao], () => errorResponse(404, 'Usuário não encontrado.')));
    await userEvent.click(within(await waitFor(() => rowOf('João Silva'))).getByRole('button', { name: 'Alterar senha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alterar senha' });
    await userEvent.type(within(dialog).getByLabelText(/^Nova senha/), 'Nova@1234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Usuário não encontrado.')).toBeTruthy();
  });

  it('a second administrator is offered nothing on the owner nor on another administrator, only their logs', async () => {
    const inAurora = { enterprise: { _id: CLIENT_ID, name: 'Aurora Alimentos' } };
    const second = makeUser(2, { ...inAurora, _id: 'u0000000-0000-4000-8000-000000000009', id: 'u0000000-0000-4000-8000-000000000009', name: 'Segundo Adm', username: 'segundo.adm' });
    const third = makeUser(2, { ...inAurora, _id: 'u0000000-0000-4000-8000-000000000008', id: 'u0000000-0000-4000-8000-000000000008', name: 'Terceiro Adm', username: 'terceiro.adm' });
    const owner = { ...admin, ...inAurora, _id: 'u0000000-0000-4000-8000-000000000007', id: 'u0000000-0000-4000-8000-000000000007' };
    open(`/enterprise-users?id=${CLIENT_ID}`, server([owner, second, third, { ...joao, ...inAurora }]), 2, { ...second, isOwner: false });
    await screen.findByText('João Silva');
    const actionsOf = (name: string) => within(rowOf(name)).getAllByRole('cell').at(-1)?.textContent;
    expect(within(rowOf('Aurora Administração')).getByText('Proprietário')).toBeTruthy();
    expect(actionsOf('Aurora Administração')).toBe('LogsTrilha');
    expect(actionsOf('Terceiro Adm')).toBe('LogsTrilha');
    expect(actionsOf('João Silva')).toBe('DispositivosEditarLogsTrilhaAlterar senhaDesativar');
    expect(actionsOf('Segundo Adm')).toBe('Você');
  });

  it('says so for an enterprise out of reach', async () => {
    open(`/enterprise-users?id=${CLIENT_ID}`, ({ url }) =>
      url.startsWith('/api/client/') ? errorResponse(404, 'Empresa não encontrada.') : jsonResponse([]),
    );
    expect(await screen.findByText('Empresa não encontrada.')).toBeTruthy();
  });
});
