import type { ProfileId } from '@sentinela/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, screenRequests } from '../../../test/fetch';
import { makeDevice, makeEnterprise, makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

function open(profileId: ProfileId, path: string, handler: Handler) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp(path) };
}

describe('/client-devices (D2)', () => {
  it("lists the signed-in user's enterprise devices in the devices table", async () => {
    const { requests } = open(2, '/client-devices', () => jsonResponse([makeDevice(1), makeDevice(2)]));
    expect(await screen.findByRole('heading', { name: 'Dispositivos' })).toBeTruthy();
    expect(await screen.findByText('Sensor 01')).toBeTruthy();
    expect(screen.getByText('Frigorífico Boa Vista')).toBeTruthy();
    expect(screen.getByPlaceholderText('Pesquisar dispositivos')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Alterar Nome' })).toHaveLength(2);
    expect(screenRequests(requests).map((r) => r.url)).toEqual(['/api/devices-by-client/ent-1']);
  });

  it('uses the enterprise of the query string', async () => {
    const { requests } = open(3, '/client-devices?id=e-42&numDevices=3', () => jsonResponse([makeDevice(1)]));
    await screen.findByText('Sensor 01');
    expect(screenRequests(requests).map((r) => r.url)).toEqual(['/api/devices-by-client/e-42']);
  });

  it('lets the super admin pick an enterprise, kept in the URL', async () => {
    const enterprises = [makeEnterprise(1, { name: 'Aurora Alimentos' }), makeEnterprise(2, { name: 'Vida Farma' })];
    const { requests, router } = open(1, '/client-devices', ({ url }) =>
      url === '/api/client-all' ? jsonResponse(enterprises) : jsonResponse([makeDevice(7)]),
    );
    expect(await screen.findByText('Selecione uma empresa para ver os seus dispositivos.')).toBeTruthy();
    await userEvent.click(await screen.findByPlaceholderText('Selecione uma empresa'));
    await userEvent.click(await screen.findByRole('option', { name: 'Vida Farma' }));

    expect(await screen.findByText('Sensor 07')).toBeTruthy();
    expect(screenRequests(requests).map((r) => r.url)).toEqual(['/api/client-all', `/api/devices-by-client/${enterprises[1]!._id}`]);
    expect(router.state.location.search).toBe(`?id=${enterprises[1]!._id}`);
  });

  it('says "Não foi possível encontrar dispositivos" when the list fails', async () => {
    open(2, '/client-devices?id=e-other', () => errorResponse(404, 'Empresa não encontrada.'));
    expect(await screen.findByText('Não foi possível encontrar dispositivos')).toBeTruthy();
  });

  it.each([4, 5] as const)('is not offered to client profile %i', async (profileId) => {
    const { requests } = open(profileId, '/client-devices', () => jsonResponse([]));
    expect(await screen.findByRole('heading', { name: 'Acesso negado' })).toBeTruthy();
    expect(screenRequests(requests)).toHaveLength(0);
  });
});
