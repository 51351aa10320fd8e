import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeDevice, makeEnterprise, makeSession, makeUser } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const CLIENT = 'e0000000-0000-4000-8000-000000000001';
const joao = makeUser(3, { _id: 'u0000000-0000-4000-8000-000000000002', name: 'João Silva', available_devices: [] });
const truck = makeDevice(1, { name: 'Baú Caminhão 01', mac: 'C3:00:00:00:01:01', enterprise: { _id: CLIENT, name: 'Aurora' } });
const freezer = makeDevice(2, { name: 'Freezer Expedição', mac: 'C3:00:00:00:01:04', enterprise: { _id: CLIENT, name: 'Aurora' } });
const foreign = makeDevice(3, { name: 'Geladeira Vacinas', mac: 'C3:00:00:00:02:01', enterprise: { _id: 'other', name: 'Vida' } });
const free = makeDevice(4, { name: 'Beacon Novo', mac: 'AA:BB:CC:00:00:01', enterprise: null });

function open(profileId: 1 | 2, path: string, handler: Handler) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp(path) };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');
const OK = { success: true, message: 'Dispositivos vínculados com sucesso!', linked: 1, unlinked: 0 };

describe('/add-beacons "Vincular Dispositivos" (M6)', () => {
  it("links an enterprise's devices to a user: starts from today's links, filters, counts, saves the whole set", async () => {
    const { requests } = open(2, `/add-beacons?id=${joao._id}&numDevices=1&eID=${CLIENT}`, ({ url, method }) => {
      if (method === 'POST') return jsonResponse(OK);
      if (url.startsWith('/api/user/show/')) return jsonResponse({ ...joao, available_devices: [truck._id] });
      if (url === `/api/devices-by-client/${CLIENT}`) return jsonResponse([truck, freezer]);
      return jsonResponse([]);
    });
    expect(await screen.findByRole('heading', { name: 'Vincular Dispositivos' })).toBeTruthy();
    await screen.findByText('Dispositivos do usuário João Silva');
    await waitFor(() => expect(screen.getByTestId('selection-counter').textContent).toBe('1 item selecionado'));

    await userEvent.type(screen.getByLabelText('Buscar dispositivo'), 'FREEZER');
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect(bodyRows()).toHaveLength(1);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Freezer Expedição (C3:00:00:00:01:04)' }));
    expect(screen.getByTestId('selection-counter').textContent).toBe('2 itens selecionados');

    await userEvent.clear(screen.getByLabelText('Buscar dispositivo'));
    await userEvent.type(screen.getByLabelText('Buscar dispositivo'), 'c3:00:00:00:01:01');
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect(within(bodyRows()[0] as HTMLElement).getByText('Baú Caminhão 01')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Buscar dispositivo'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect(screen.getByText('Nada encontrado...')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Buscar dispositivo'));
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Baú Caminhão 01 (C3:00:00:00:01:01)' }));
    await userEvent.click(screen.getByLabelText('Filtrar selecionados'));
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByTestId('selection-counter').textContent).toBe('1 item selecionado');

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Dispositivos vínculados com sucesso!')).toBeTruthy();
    await screen.findByRole('heading', { name: 'Usuários' });
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/devices/link/user');
    expect(post.body).toEqual({ devices: [freezer._id], to_update: 0, user_id: joao._id });
  });

  it('links devices to an enterprise (super admin): only free ones and its own are offered', async () => {
    const aurora = makeEnterprise(1, { _id: CLIENT, name: 'Aurora Alimentos' });
    const { requests } = open(1, `/add-beacons?id=${CLIENT}&user_id=u1&numDevices=2`, ({ url, method }) => {
      if (method === 'POST') return jsonResponse(OK);
      if (url === '/api/beacon-device/allAdmin') return jsonResponse([truck, freezer, foreign, free]);
      if (url === `/api/client/${CLIENT}`) return jsonResponse(aurora);
      return jsonResponse([]);
    });
    await screen.findByText('Dispositivos da empresa Aurora Alimentos');
    await waitFor(() => expect(screen.getByTestId('selection-counter').textContent).toBe('2 itens selecionados'));
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual(['Baú Caminhão 01', 'Freezer Expedição', 'Beacon Novo']);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Selecionar Beacon Novo (AA:BB:CC:00:00:01)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await screen.findByText('Dispositivos vínculados com sucesso!');
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/devices/link/client');
    expect(post.body).toEqual({ devices: [truck._id, freezer._id, free._id], to_update: 0, client_id: CLIENT });
  });

  it("shows the server's message when saving fails, and stays", async () => {
    open(2, `/add-beacons?id=${joao._id}&numDevices=0&eID=${CLIENT}`, ({ url, method }) => {
      if (method === 'POST') return errorResponse(404, 'Dispositivo não encontrado.');
      if (url.startsWith('/api/user/show/')) return jsonResponse(joao);
      return jsonResponse([truck]);
    });
    await screen.findByText('Baú Caminhão 01');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Dispositivo não encontrado.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Vincular Dispositivos' })).toBeTruthy();
  });
});
