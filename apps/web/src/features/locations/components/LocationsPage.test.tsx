import type { Location } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { asPhone } from '../../../test/phone';
import { renderApp } from '../../../test/render';

// Leaflet and the socket are covered in Chromium (e2e); here the maps are stubs that report picks, and live is off.
vi.mock('./LocationsMap', () => ({
  LocationsMap: ({ focus }: { focus: { position: [number, number] } | null }) => (
    <div data-testid="locations-map">{focus ? focus.position.join(',') : 'sem foco'}</div>
  ),
}));
vi.mock('./PickPositionMap', () => ({
  default: ({ onPick }: { onPick: (p: [number, number]) => void }) => (
    <button type="button" onClick={() => onPick([-15.8, -47.9])}>
      marcar no mapa
    </button>
  ),
}));
vi.mock('../live/use-locations-live', () => ({ useLocationsLive: () => 'live' }));

const LOJA: Location = {
  _id: '7b0c6a52-0000-4000-8000-000000000001',
  id: '7b0c6a52-0000-4000-8000-000000000001',
  name: 'Loja Centro',
  address: 'Rua A, 1',
  latitude: -23.5,
  longitude: -46.6,
  devices: 2,
  enterprise: { _id: 'e1', name: 'Aurora Alimentos' },
  created_at: '2026-11-25T10:00:00.000Z',
};

function open(handler: Handler, profileId: 2 | 3 = 2) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  return { ...mock, ...renderApp('/locations') };
}

const routes = (geocoder: boolean, extra: Handler = () => errorResponse(404, 'Rota não encontrada.')): Handler => (request) => {
  const path = new URL(request.url, 'http://x').pathname;
  if (request.method === 'GET' && path === '/api/locations') return jsonResponse([LOJA]);
  if (request.method === 'GET' && path === '/api/locations/devices') return jsonResponse([]);
  if (path === '/api/geocoder') return jsonResponse({ enabled: geocoder });
  return extra(request);
};

describe('/locations "Locais" (A8)', () => {
  it('lists locations with name, address and device count; Local centres the map on the row', async () => {
    open(routes(false));
    // The first test loads the screen's chunk.
    await screen.findByText('Loja Centro', {}, { timeout: 10_000 });
    expect(screen.getByPlaceholderText('Pesquisar Locais')).toBeTruthy();
    const row = screen.getByText('Loja Centro').closest('tr')!;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Loja Centro', 'Rua A, 1', '2', 'EditarLocalDispositivosRemover']);
    await userEvent.click(within(row).getByRole('button', { name: 'Local' }));
    expect(screen.getByTestId('locations-map').textContent).toBe('-23.5,-46.6');
  });

  it('on a phone, shows each location as a card with its row\'s contents and actions: Local centres the map, Editar and Remover open theirs', async () => {
    asPhone();
    open(routes(false));
    await screen.findByText('Loja Centro', {}, { timeout: 10_000 });
    // No table scrolled sideways: one card per location.
    expect(screen.queryByRole('table')).toBeNull();
    const card = screen.getByTestId('location-card');
    expect(card.textContent).toContain('Endereço: Rua A, 1');
    expect(card.textContent).toContain('Dispositivos: 2');
    expect(within(card).getAllByRole('button').map((b) => b.textContent)).toEqual(['Editar', 'Local', 'Dispositivos', 'Remover']);

    await userEvent.click(within(card).getByRole('button', { name: 'Local' }));
    expect(screen.getByTestId('locations-map').textContent).toBe('-23.5,-46.6');
    await userEvent.click(within(card).getByRole('button', { name: 'Editar' }));
    const form = await screen.findByRole('dialog', { name: 'Editar Local' });
    expect((within(form).getByLabelText(/^Nome/) as HTMLInputElement).value).toBe('Loja Centro');
    await userEvent.click(within(form).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar Local' })).toBeNull());
    await userEvent.click(within(card).getByRole('button', { name: 'Remover' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remover local' });
    expect(confirm.textContent).toContain('Deseja remover o local Loja Centro?');
  });

  it('on a phone, an ordinary user\'s card has only Local and Dispositivos', async () => {
    asPhone();
    open(routes(false), 3);
    await screen.findByText('Loja Centro', {}, { timeout: 10_000 });
    expect(within(screen.getByTestId('location-card')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Local', 'Dispositivos']);
  });

  it('says "Erro!: Não foi possível encontrar locais." when the list fails', async () => {
    open(() => errorResponse(500, 'Ocorreu um erro inesperado.'));
    expect(await screen.findByText('Erro!')).toBeTruthy();
    expect((await screen.findAllByText('Não foi possível encontrar locais.')).length).toBeGreaterThan(0);
  });

  it('an ordinary user looks but does not manage', async () => {
    open(routes(false), 3);
    const row = (await screen.findByText('Loja Centro')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Editar' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Remover' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cadastrar Local' })).toBeNull();
  });

  it('without a geocoder the form explains it and the map sets the position', async () => {
    const { requests } = open(
      routes(false, (request) => (request.method === 'POST' ? jsonResponse({ ...LOJA, _id: 'n', id: 'n', name: 'Nova' }, 201) : errorResponse(404, 'x'))),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Cadastrar Local' }));
    await screen.findByTestId('geocoder-off', {}, { timeout: 5000 });
    expect(screen.queryByLabelText('Buscar endereço no mapa')).toBeNull();
    await userEvent.type(screen.getByLabelText(/Nome/), 'Nova');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect((await screen.findAllByText(/Marque a posição no mapa\./)).length).toBe(2);
    await userEvent.click(screen.getByRole('button', { name: 'marcar no mapa' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'Nova', address: null, latitude: -15.8, longitude: -47.9 }));
  });

  it('with a geocoder, a found address fills the address and the position', async () => {
    const { requests } = open(
      routes(true, (request) => {
        if (request.url.startsWith('/api/geocoder/search')) return jsonResponse([{ display_name: 'Avenida Paulista, São Paulo', latitude: -23.56, longitude: -46.65 }]);
        if (request.method === 'PUT') return jsonResponse(LOJA);
        return errorResponse(404, 'x');
      }),
    );
    const row = (await screen.findByText('Loja Centro', {}, { timeout: 5000 })).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Editar' }));
    await userEvent.clear(await screen.findByLabelText('Endereço', {}, { timeout: 5000 }));
    await userEvent.type(await screen.findByLabelText('Buscar endereço no mapa', {}, { timeout: 5000 }), 'Avenida Paulista');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    await userEvent.click(await screen.findByText('Avenida Paulista, São Paulo', {}, { timeout: 5000 }));
    expect(requests.some((r) => r.url === '/api/geocoder/search?q=Avenida%20Paulista')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')).toMatchObject({
        url: `/api/locations/${LOJA._id}`,
        body: { name: 'Loja Centro', address: 'Avenida Paulista, São Paulo', latitude: -23.56, longitude: -46.65 },
      }),
    );
  });
});
