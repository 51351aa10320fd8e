import { MSG, type EnterpriseSummary } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, screenRequests } from '../../../test/fetch';
import { makeEnterprise, makeSession } from '../../../test/fixtures';
import { asPhone } from '../../../test/phone';
import { renderApp } from '../../../test/render';

function open(handler: Handler, profileId: 1 | 2 = 1) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp('/enterprises') };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

const aurora = makeEnterprise(1, {
  name: 'Aurora Alimentos',
  userOwner: { _id: 'u1', name: 'aurora.adm', username: 'aurora.adm' },
  available_devices: ['d1', 'd2', 'd3'],
  users: [
    { id: 'u1', isOwner: true },
    { id: 'u2', isOwner: false },
  ],
});
const vida = makeEnterprise(2, { name: 'Vida Farma', disabled: true });

describe('/enterprises "Empresas" (M2)', () => {
  it('lists enterprises with their counts, status and links', async () => {
    open(() => jsonResponse([aurora, vida]));
    expect(await screen.findByRole('heading', { name: 'Empresas' })).toBeTruthy();
    await screen.findByText('Aurora Alimentos');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Nome',
      'Status',
      'Data de criação',
      'Dispositivos vinculados',
      'Usuários vinculados',
      'Ações',
    ]);
    const [first, second] = bodyRows() as [HTMLElement, HTMLElement];
    expect(within(first).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'Aurora Alimentos',
      'Ativa',
      '01/02/2024 09:00:00',
      '3',
      '2',
      'Visualizar UsuáriosDispositivosDesativar',
    ]);
    expect(within(first).getByRole('link', { name: 'Visualizar Usuários' }).getAttribute('href')).toBe(`/enterprise-users?id=${aurora._id}`);
    expect(within(first).getByRole('link', { name: 'Dispositivos' }).getAttribute('href')).toBe(
      `/add-beacons?id=${aurora._id}&user_id=u1&numDevices=3`,
    );
    expect(within(second).getByText('Inativa')).toBeTruthy();
    expect(within(second).getByRole('button', { name: 'Ativar' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cadastrar Nova Empresa' }).getAttribute('href')).toBe('/register-enterprise');
  });

  it("on a phone, shows each enterprise as a card with its row's contents and actions; Desativar asks, as the row's does", async () => {
    asPhone();
    const { requests } = open(() => jsonResponse([aurora, vida]));
    await screen.findByText('Aurora Alimentos');
    // No table scrolled sideways: one card per enterprise.
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('enterprise-card');
    expect(cards).toHaveLength(2);
    const card = cards.find((c) => within(c).queryByText('Aurora Alimentos'))!;
    expect(within(card).getByText('Ativa')).toBeTruthy();
    expect(card.textContent).toContain('Data de criação: 01/02/2024 09:00:00');
    expect(card.textContent).toContain('Dispositivos vinculados: 3');
    expect(card.textContent).toContain('Usuários vinculados: 2');
    expect([...card.querySelectorAll('a, button')].map((b) => b.textContent)).toEqual(['Visualizar Usuários', 'Dispositivos', 'Desativar']);
    expect(within(card).getByRole('link', { name: 'Visualizar Usuários' }).getAttribute('href')).toBe(`/enterprise-users?id=${aurora._id}`);
    expect(within(card).getByRole('link', { name: 'Dispositivos' }).getAttribute('href')).toBe(
      `/add-beacons?id=${aurora._id}&user_id=u1&numDevices=3`,
    );
    const inactive = cards.find((c) => within(c).queryByText('Vida Farma'))!;
    expect(within(inactive).getByText('Inativa')).toBeTruthy();
    expect(within(inactive).getByRole('button', { name: 'Ativar' })).toBeTruthy();

    await userEvent.click(within(card).getByRole('button', { name: 'Desativar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desativar empresa' });
    expect(within(dialog).getByText(/Deseja desativar a empresa Aurora Alimentos\?/)).toBeTruthy();
    expect(screenRequests(requests).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('searches and says "Nada encontrado..."', async () => {
    open(() => jsonResponse([aurora, vida]));
    await screen.findByText('Aurora Alimentos');
    const search = screen.getByPlaceholderText('Pesquisar empresas');
    await userEvent.type(search, 'vida');
    expect(bodyRows()).toHaveLength(1);
    await userEvent.clear(search);
    await userEvent.type(search, 'inexistente');
    expect(screen.getByText('Nada encontrado...')).toBeTruthy();
  });

  it('deactivates an enterprise after confirmation, then shows it inactive', async () => {
    let list: EnterpriseSummary[] = [aurora];
    const { requests } = open(({ method }) => {
      if (method === 'GET') return jsonResponse(list);
      list = [{ ...aurora, disabled: true }];
      return jsonResponse({ success: true, message: MSG.enterpriseDeactivated });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Desativar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desativar empresa' });
    expect(within(dialog).getByText(/Deseja desativar a empresa Aurora Alimentos\?/)).toBeTruthy();
    expect(screenRequests(requests).filter((r) => r.method === 'POST')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Desativar' }));

    expect(await screen.findByText('Empresa Desativada com Sucesso!')).toBeTruthy();
    expect(screenRequests(requests).find((r) => r.method === 'POST')).toMatchObject({
      url: '/api/client-active-inactive',
      body: { client_id: aurora._id, status: true },
    });
    expect(await screen.findByText('Inativa')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Cancelar leaves the enterprise alone', async () => {
    const { requests } = open(() => jsonResponse([aurora]));
    await userEvent.click(await screen.findByRole('button', { name: 'Desativar' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screenRequests(requests).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('activates an inactive enterprise with status false, and says when it fails', async () => {
    const { requests } = open(({ method }) => (method === 'GET' ? jsonResponse([vida]) : errorResponse(500, MSG.internalError, 'INTERNAL')));
    await userEvent.click(await screen.findByRole('button', { name: 'Ativar' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Ativar empresa' })).getByRole('button', { name: 'Ativar' }));
    expect(await screen.findByText('Não foi possível ativar a empresa.')).toBeTruthy();
    expect(screenRequests(requests).find((r) => r.method === 'POST')?.body).toEqual({ client_id: vida._id, status: false });
  });

  it('says so when the list fails', async () => {
    open(() => errorResponse(403, MSG.forbidden));
    expect(await screen.findByText('Não foi possível carregar as empresas.')).toBeTruthy();
  });

  it('is for the super admin only', async () => {
    const { requests } = open(() => jsonResponse([]), 2);
    expect(await screen.findByRole('heading', { name: 'Acesso negado' })).toBeTruthy();
    expect(screenRequests(requests)).toHaveLength(0);
  });
});
