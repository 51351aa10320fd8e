import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, screenRequests } from '../../../test/fetch';
import { makeEnterprise, makeSession, makeUser } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const joao = makeUser(3, {
  _id: 'u0000000-0000-4000-8000-000000000002',
  name: 'João Silva',
  username: 'joao.silva',
  available_devices: ['d1', 'd2'],
  created_at: '2024-03-05T13:00:00.000Z',
});

function open(profileId: 1 | 2 | 3, handler: Handler) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp('/select-user') };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

describe('/select-user "Usuários" (M8)', () => {
  it("lists the enterprise admin's active users to choose whom to manage", async () => {
    const { requests } = open(2, () => jsonResponse([joao]));
    expect(await screen.findByRole('heading', { name: 'Usuários' })).toBeTruthy();
    await screen.findByText('João Silva');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Nome',
      'Usuário',
      'Perfil',
      'Dispositivos vinculados',
      'Data de criação',
      'Ações',
    ]);
    expect(within(bodyRows()[0] as HTMLElement).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'João Silva',
      'joao.silva',
      'Usuário',
      '2',
      '05/03/2024 10:00:00',
      'Gerenciar',
    ]);
    // Gerenciar opens the chosen user's devices (M6); the enterprise's users are a button above.
    expect(screen.getByRole('link', { name: 'Gerenciar' }).getAttribute('href')).toBe(`/add-beacons?id=${joao._id}&numDevices=2&eID=ent-1`);
    expect(screen.getByRole('link', { name: 'Usuários da empresa' }).getAttribute('href')).toBe('/enterprise-users?id=ent-1');
    expect(screen.getByRole('link', { name: 'Dispositivos da empresa' }).getAttribute('href')).toBe('/client-devices?id=ent-1');
    expect(screenRequests(requests).map((r) => r.url)).toEqual(['/api/users-by-client/ent-1?disabled=false']);
  });

  it('the super admin picks the enterprise first', async () => {
    const vida = makeEnterprise(2, { name: 'Vida Farma' });
    const { requests } = open(1, ({ url }) => (url === '/api/client-all' ? jsonResponse([vida]) : jsonResponse([joao])));
    expect(await screen.findByText('Selecione uma empresa para ver os seus usuários.')).toBeTruthy();
    await userEvent.click(await screen.findByPlaceholderText('Selecione uma empresa'));
    await userEvent.click(await screen.findByRole('option', { name: 'Vida Farma' }));
    await screen.findByText('João Silva');
    expect(screenRequests(requests).at(-1)?.url).toBe(`/api/users-by-client/${vida._id}?disabled=false`);
    expect(screen.getByRole('link', { name: 'Gerenciar' }).getAttribute('href')).toBe(`/add-beacons?id=${joao._id}&numDevices=2&eID=${vida._id}`);
    expect(screen.getByRole('link', { name: 'Usuários da empresa' }).getAttribute('href')).toBe(`/enterprise-users?id=${vida._id}`);
  });

  it('shows the server message when the list fails, and "Nada encontrado..." when empty', async () => {
    open(2, () => errorResponse(404, 'Empresa não encontrada.'));
    expect(await screen.findByText('Empresa não encontrada.')).toBeTruthy();
    expect(screen.getByText('Nada encontrado...')).toBeTruthy();
  });

  it('is not for ordinary users', async () => {
    open(3, () => jsonResponse([]));
    expect(await screen.findByRole('heading', { name: 'Acesso negado' })).toBeTruthy();
  });
});
