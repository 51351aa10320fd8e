import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { makeReading, makeTravel, TRAVEL_ID } from '../test-fixtures';

vi.mock('./TravelMap', () => ({
  default: ({ travel }: { travel: { code: string } | null }) => <div data-testid="travel-map">{travel ? travel.code : 'Trajeto não selecionado'}</div>,
}));
const live = vi.hoisted(() => ({ calls: [] as [string | null, string | undefined][] }));
vi.mock('../live/use-travel-live', () => ({
  useTravelLive: (travelId: string | null, code?: string) => {
    live.calls.push([travelId, code]);
    return null;
  },
}));

const PUBLIC_TRAVEL = makeTravel({ user: null });

function handler(lookup: Handler = () => jsonResponse(PUBLIC_TRAVEL)): Handler {
  return (request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname.endsWith('/history')) return jsonResponse([makeReading(0)]);
    if (pathname.startsWith('/api/travels/localizator/')) return lookup(request);
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  };
}

async function search(code: string) {
  await userEvent.type(screen.getByPlaceholderText('Digite o código do localizador'), code);
  await userEvent.click(screen.getByRole('button', { name: 'Procurar' }));
}

describe('/localizator "Localizador" (T5)', () => {
  it('is open to visitors, in the signed-out shell, with "Trajeto não selecionado" before a search', async () => {
    mockFetch(handler());
    renderApp('/localizator');
    expect(await screen.findByRole('heading', { name: 'Localizador' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Rastrear viagem' })).toBeTruthy();
    expect((await screen.findByTestId('travel-map')).textContent).toBe('Trajeto não selecionado');
  });

  it('requires the code', async () => {
    const { requests } = mockFetch(handler());
    renderApp('/localizator');
    await userEvent.click(await screen.findByRole('button', { name: 'Procurar' }));
    expect(await screen.findByText('Informe o código do localizador.')).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it('a visitor gets Mapa and Dispositivos, and Gráficos through the code (no Registros, no Relatórios); live by the code', async () => {
    const { requests } = mockFetch(handler());
    const { router } = renderApp('/localizator');
    await screen.findByRole('heading', { name: 'Localizador' });
    await search('AUR7K2M9QX');

    await waitFor(() => expect(router.state.location.search).toBe('?cod=AUR7K2M9QX'));
    expect(await screen.findByText('AUR7K2M9QX', { selector: 'p' })).toBeTruthy();
    const lookup = requests.find((r) => r.url === '/api/travels/localizator/AUR7K2M9QX')!;
    expect(lookup.headers.authorization).toBeUndefined();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Mapa', 'Dispositivos']);
    expect(live.calls.at(-1)).toEqual([TRAVEL_ID, 'AUR7K2M9QX']);

    await userEvent.click(screen.getByRole('tab', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Gráficos']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Gráficos' }));
    expect(await screen.findByRole('dialog', { name: 'Gráficos — Baú Caminhão 01' })).toBeTruthy();
    // The readings come through the code's route (ADR 72), without a session.
    await waitFor(() => expect(requests.some((r) => r.url === '/api/travels/localizator/AUR7K2M9QX/devices/C3%3A00%3A00%3A00%3A01%3A01/history')).toBe(true));
    const history = requests.find((r) => r.url.endsWith('/history'))!;
    expect(history.headers.authorization).toBeUndefined();
  });

  it('a position-only link shows the map alone: no Dispositivos, no Registros, even signed in', async () => {
    startSession(makeSession(2));
    mockFetch(handler(() => jsonResponse(makeTravel({ user: null, devices: [], tracking: { ...makeTravel().tracking, scope: 'position' } }))));
    renderApp('/localizator?cod=AUR7K2M9QX');
    expect(await screen.findByText('AUR7K2M9QX', { selector: 'p' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Mapa']);
    expect(screen.getByTestId('localizator-link-note').textContent).toContain('Este link mostra somente a posição da carga.');
  });

  it('a signed-in user of another enterprise (readings by code) gets Gráficos, Histórico and Relatórios through the code', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch(handler());
    renderApp('/localizator?cod=AUR7K2M9QX');
    expect(await screen.findByText('AUR7K2M9QX', { selector: 'p' })).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Gráficos', 'Histórico', 'PDF', 'EXCEL']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Histórico' }));
    expect(await screen.findByTestId('history-panel')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(1));
    const history = requests.find((r) => r.url === '/api/travels/localizator/AUR7K2M9QX/devices/C3%3A00%3A00%3A00%3A01%3A01/history')!;
    expect(history.headers.authorization).toBe('Bearer token-123');
  });

  it('shows the server message for a wrong code, a finished travel and too many guesses', async () => {
    const answers = [
      errorResponse(404, 'Viagem não encontrada para este código.', 'NOT_FOUND'),
      errorResponse(410, 'Esta viagem já foi finalizada.', 'GONE'),
      errorResponse(429, 'Muitas consultas ao localizador. Aguarde um minuto e tente novamente.', 'TOO_MANY_REQUESTS'),
    ];
    mockFetch(handler(() => answers.shift()!));
    renderApp('/localizator');
    await screen.findByRole('heading', { name: 'Localizador' });
    const input = screen.getByPlaceholderText('Digite o código do localizador');

    await search('ZZZZZZZZZZ');
    expect(await screen.findByText('Viagem não encontrada para este código.')).toBeTruthy();
    expect(screen.getByText('Erro!')).toBeTruthy();
    expect(screen.getByTestId('travel-map').textContent).toBe('Trajeto não selecionado');

    await userEvent.clear(input);
    await search('AUR9P5D2LC');
    expect(await screen.findByText('Esta viagem já foi finalizada.')).toBeTruthy();

    await userEvent.clear(input);
    await search('AAAAAAAAAA');
    expect(await screen.findByText('Muitas consultas ao localizador. Aguarde um minuto e tente novamente.')).toBeTruthy();
  });

  it('a signed-in user also gets Registros, enabled after Histórico on a device, without Configurações', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch(handler(() => jsonResponse(makeTravel())));
    renderApp('/localizator?cod=AUR7K2M9QX');
    expect(await screen.findByText('AUR7K2M9QX', { selector: 'p' })).toBeTruthy();
    expect(requests.find((r) => r.url.startsWith('/api/travels/localizator/'))!.headers.authorization).toBe('Bearer token-123');
    const records = screen.getByRole('tab', { name: 'Registros' });
    expect(records.hasAttribute('disabled') || records.getAttribute('data-disabled') === 'true').toBe(true);

    await userEvent.click(screen.getByRole('tab', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    const history = await screen.findByRole('menuitem', { name: 'Histórico' });
    expect(screen.queryByRole('menuitem', { name: 'Configurações', hidden: true })).toBeNull();
    await userEvent.click(history);
    expect(await screen.findByTestId('history-panel')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Registros' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(1));
    expect(screen.queryByRole('button', { name: 'Localização' })).toBeNull();
  });
});
