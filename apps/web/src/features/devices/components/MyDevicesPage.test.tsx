import { MSG, type ProfileId } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, screenRequests } from '../../../test/fetch';
import { makeDevice, makeSession, makeSubscription } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const USER_ID = makeSession(3).user._id;

function openMyDevices(profileId: ProfileId, handler: Handler) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  const view = renderApp('/my-devices');
  return { ...mock, ...view };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

describe('/my-devices (D1)', () => {
  it.each([
    [1, '/api/beacon-device/allAdmin'],
    [2, '/api/beacon-device/all'],
    [3, `/api/devices-by-user/${USER_ID}`],
    [5, `/api/devices-by-user/${USER_ID}`],
  ] as const)('profile %i lists devices from %s', async (profileId, path) => {
    const { requests } = openMyDevices(profileId, () => jsonResponse([makeDevice(1)]));
    expect(await screen.findByText('Sensor 01')).toBeTruthy();
    expect(screenRequests(requests).map((r) => r.url)).toEqual([path]);
  });

  it('shows the columns, -- for missing values, and local times', async () => {
    openMyDevices(2, () =>
      jsonResponse([
        makeDevice(1, { model: null, lastSyncDate: null }),
        makeDevice(2, { lastSyncDate: '2024-03-01T15:30:45.000Z' }),
      ]),
    );
    await screen.findByText('Sensor 01');
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual([
      'Nome',
      'Número de série',
      'Endereço Mac',
      'Último sincronismo',
      'Qtd de registros',
      'Data de criação',
      'Ações',
    ]);
    const [first, second] = bodyRows();
    expect(within(first as HTMLElement).getAllByText('--')).toHaveLength(2);
    expect(within(second as HTMLElement).getByText('SN-02')).toBeTruthy();
    expect(within(second as HTMLElement).getByText('01/03/2024 12:30:45')).toBeTruthy();
  });

  it('pages by 10, searches, sorts by creation date and says "Nada encontrado..."', async () => {
    const devices = Array.from({ length: 12 }, (_, i) => makeDevice(i + 1));
    openMyDevices(1, () => jsonResponse(devices));
    await screen.findByText('Sensor 01');
    expect(bodyRows()).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['Sensor 11', 'Sensor 12']);

    await userEvent.click(screen.getByRole('button', { name: /Data de criação/ }));
    await userEvent.click(screen.getByRole('button', { name: /Data de criação/ }));
    expect(within(bodyRows()[0] as HTMLElement).getByText('Sensor 12')).toBeTruthy();

    const search = screen.getByPlaceholderText('Pesquisar dispositivos');
    await userEvent.type(search, 'aa:bb:cc:dd:ee:07');
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByText('Sensor 07')).toBeTruthy();

    await userEvent.clear(search);
    await userEvent.type(search, 'inexistente');
    expect(screen.getByText('Nada encontrado...')).toBeTruthy();
  });

  it('loads "Qtd de registros" only when asked', async () => {
    let answer: (response: Response) => void = () => {};
    const { requests } = openMyDevices(3, ({ url }) =>
      url.endsWith('/historic-count')
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : jsonResponse([makeDevice(1)]),
    );
    await screen.findByText('Sensor 01');
    expect(screenRequests(requests)).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Clique para ver' }));
    expect(await screen.findByText('Carregando...')).toBeTruthy();
    expect(screenRequests(requests)[1]?.url).toBe('/api/beacon-device/AA%3ABB%3ACC%3ADD%3AEE%3A01/historic-count');

    answer(jsonResponse({ count: 15230 }));
    expect(await screen.findByText('15.230')).toBeTruthy();
  });

  it('renames a device', async () => {
    let device = makeDevice(1);
    const { requests } = openMyDevices(3, ({ method, body }) => {
      if (method !== 'POST') return jsonResponse([device]);
      device = { ...device, ...(body as { name: string }) };
      return jsonResponse(device);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Alterar Nome' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alterar nome do Dispositivo' });
    const name = within(dialog).getByLabelText('Nome');
    await userEvent.clear(name);
    await userEvent.type(name, 'Câmara fria 2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Nome alterado com Sucesso!')).toBeTruthy();
    expect(screenRequests(requests).find((r) => r.method === 'POST')).toMatchObject({
      url: '/api/devices/update-name/AA%3ABB%3ACC%3ADD%3AEE%3A01',
      body: { name: 'Câmara fria 2' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Câmara fria 2')).toBeTruthy();
  });

  it('says so when the rename fails, and closes the modal', async () => {
    openMyDevices(2, ({ method }) =>
      method === 'POST' ? errorResponse(403, MSG.forbidden) : jsonResponse([makeDevice(1)]),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Alterar Nome' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Não foi possível alterar o nome')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it.each([4, 5] as const)('hides Alterar Nome for profile %i; Histórico links to the device history', async (profileId) => {
    openMyDevices(profileId, () => jsonResponse([makeDevice(1)]));
    await screen.findByText('Sensor 01');
    expect(screen.queryByRole('button', { name: 'Alterar Nome' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Histórico' }).getAttribute('href')).toBe(
      `/device-history/AA%3ABB%3ACC%3ADD%3AEE%3A01/${makeDevice(1)._id}`,
    );
  });

  it('says "Não foi possível encontrar dispositivos" when the list fails', async () => {
    openMyDevices(3, () => errorResponse(403, MSG.forbidden));
    expect(await screen.findByText('Não foi possível encontrar dispositivos')).toBeTruthy();
    expect(screen.getByText('Erro!')).toBeTruthy();
  });

  describe('an enterprise with no device (issue 26, ADR 84)', () => {
    const profile = (verified: boolean) => ({ name: 'Lia', username: 'lia', email: 'lia@example.com', phone: null, verified });
    const address = { cep: '01310100', number: '1000', address: 'Avenida Paulista', neighbourhood: 'Bela Vista', city: 'São Paulo', uf: 'SP', ibge: '3550308' };

    it('points an administrator to /complete-register, naming the steps the server says are missing', async () => {
      openMyDevices(2, ({ url }) => {
        const { pathname } = new URL(url, 'http://localhost');
        if (pathname === '/api/profile') return jsonResponse(profile(true));
        if (pathname === '/api/enterprise/address') return jsonResponse(null);
        if (pathname === '/api/subscription') return errorResponse(404, 'Assinatura não encontrada.');
        return jsonResponse([]);
      });
      expect(await screen.findByText('Sua empresa ainda não tem dispositivos')).toBeTruthy();
      expect((await screen.findByTestId('no-devices-missing')).textContent).toBe('Faltam 2 passos: endereço, pagamento.');
      expect(screen.getByRole('link', { name: 'Concluir cadastro' }).getAttribute('href')).toBe('/complete-register');
      expect(screen.queryByText('Nada encontrado...')).toBeNull();
    });

    it('once the registration is complete, says the sensors come when linked', async () => {
      openMyDevices(2, ({ url }) => {
        const { pathname } = new URL(url, 'http://localhost');
        if (pathname === '/api/profile') return jsonResponse(profile(true));
        if (pathname === '/api/enterprise/address') return jsonResponse(address);
        if (pathname === '/api/subscription') return jsonResponse(makeSubscription());
        return jsonResponse([]);
      });
      expect(await screen.findByText(/O cadastro da empresa está concluído/)).toBeTruthy();
      expect(screen.queryByTestId('no-devices-missing')).toBeNull();
      expect(screen.getByRole('link', { name: 'Ver cadastro' }).getAttribute('href')).toBe('/complete-register');
    });

    it('tells a user without devices who links them, and never asks the enterprise\'s address or plan', async () => {
      const { requests } = openMyDevices(3, ({ url }) => (new URL(url, 'http://localhost').pathname === '/api/profile' ? jsonResponse(profile(false)) : jsonResponse([])));
      expect(await screen.findByText('Nenhum dispositivo vinculado a você')).toBeTruthy();
      // /complete-register is the administrators' (enterprise:settings): no link a user would be refused at.
      expect(screen.queryByRole('link', { name: 'Concluir cadastro' })).toBeNull();
      expect(screenRequests(requests).map((r) => r.url)).toEqual(['/api/devices-by-user/' + USER_ID]);
    });

    it('the platform\'s admin keeps the empty table', async () => {
      startSession({ ...makeSession(1), enterprise: { _id: null, name: null } });
      mockFetch(() => jsonResponse([]));
      renderApp('/my-devices');
      expect(await screen.findByText('Nada encontrado...')).toBeTruthy();
      expect(screen.queryByTestId('no-devices-hint')).toBeNull();
    });
  });
});

