import { REPORT_MESSAGES, REPORT_STATUS_VIEW } from '@sentinela/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp, renderWithProviders } from '../../../test/render';
import { ReportExportProvider } from '../../../components/report-export/export-provider';
import { HistoryPanel } from './HistoryPanel';
import { asPhone } from '../../../test/phone';
import { captureDownloads, fileResponse } from '../../../test/download';
import { makeReport } from '../../../test/report-fixtures';
import { makeReading, makeTravel, TRAVEL_ID } from '../test-fixtures';

// Leaflet and the socket are covered in Chromium (e2e); here the map is a stub and live updates are off.
vi.mock('./TravelMap', () => ({
  default: ({ travel }: { travel: { code: string } | null }) => <div data-testid="travel-map">{travel ? travel.code : 'Trajeto não selecionado'}</div>,
}));
const live = vi.hoisted(() => ({ tracked: [] as (string | null)[] }));
vi.mock('../live/use-travel-live', () => ({
  useTravelLive: (travelId: string | null) => {
    live.tracked.push(travelId);
    return null;
  },
}));

const TRAVELS = [
  makeTravel(),
  makeTravel({
    _id: '9b0c6a52-0000-4000-8000-000000000002',
    code: 'AUR3H8T4WN',
    status: 0,
    status_name: 'Não iniciada',
    destiny: { address: 'Rua XV de Novembro, 300 - Curitiba - PR', location: [-25.43, -49.27] },
  }),
];

function handler(overrides: Partial<Record<'list' | 'detail' | 'history' | 'status', Handler>> = {}): Handler {
  return (request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/travels') return (overrides.list ?? (() => jsonResponse({ data: { data: TRAVELS, total: 2, page: 1, limit: 2 } })))(request);
    if (pathname.endsWith('/history')) return (overrides.history ?? (() => jsonResponse([makeReading(0), makeReading(5)])))(request);
    if (pathname.endsWith('/status')) return (overrides.status ?? (() => jsonResponse(TRAVELS[1])))(request);
    if (pathname.startsWith('/api/travels/')) return (overrides.detail ?? (() => jsonResponse(TRAVELS[0])))(request);
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  };
}

const tab = (name: string) => screen.getByRole('tab', { name });
const isDisabled = (element: HTMLElement) => element.hasAttribute('disabled') || element.getAttribute('data-disabled') === 'true';

describe('/directions "Viagens" (T1–T4)', () => {
  it('opens on #routes with the travels; devices and history are disabled', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch(handler());
    const { router } = renderApp('/directions');
    await waitFor(() => expect(router.state.location.hash).toBe('#routes'));
    expect(await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).toBeTruthy();
    expect(requests.some((r) => r.url === '/api/travels?paginate=false')).toBe(true);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Lista de viagens', 'Dispositivos', 'Histórico']);
    expect(isDisabled(tab('Lista de viagens'))).toBe(false);
    expect(isDisabled(tab('Dispositivos'))).toBe(true);
    expect(isDisabled(tab('Histórico'))).toBe(true);
    // Status actions per transition: Pausar and Finalizar for a travel in progress, Iniciar for one not started.
    const rows = screen.getAllByRole('row');
    expect(within(rows[1]!).getByRole('button', { name: 'Pausar' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: 'Finalizar' })).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Iniciar' })).toBeTruthy();
  });

  it('Dispositivos loads the travel and opens #devices; Histórico opens #history', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch(handler());
    const { router } = renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Dispositivos' }));

    await waitFor(() => expect(router.state.location.hash).toBe('#devices'));
    expect(await screen.findByTestId('device-card')).toBeTruthy();
    expect(requests.some((r) => r.url === `/api/travels/${TRAVEL_ID}`)).toBe(true);
    // On #devices the routes tab is disabled; the chosen row stays highlighted.
    expect(isDisabled(tab('Lista de viagens'))).toBe(true);
    expect(isDisabled(tab('Dispositivos'))).toBe(false);
    expect(isDisabled(tab('Histórico'))).toBe(true);
    expect(live.tracked.at(-1)).toBe(TRAVEL_ID);
    expect(screen.getByTestId('travel-map').textContent).toBe('AUR7K2M9QX');

    await userEvent.click(screen.getByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Histórico' }));
    await waitFor(() => expect(router.state.location.hash).toBe('#history'));
    const panel = await screen.findByTestId('history-panel');
    await waitFor(() => expect(within(panel).getAllByRole('row')).toHaveLength(3));
    // Newest first, DD/MM HH:mm:ss local time, Localização on each reading with a position.
    expect(within(panel).getAllByRole('row')[1]!.textContent).toContain('01/03 12:30:00');
    expect(within(panel).getAllByRole('button', { name: 'Localização' })).toHaveLength(2);
    expect(isDisabled(tab('Lista de viagens'))).toBe(true);
    expect(isDisabled(tab('Histórico'))).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Voltar aos dispositivos' }));
    await waitFor(() => expect(router.state.location.hash).toBe('#devices'));
    await userEvent.click(screen.getByRole('button', { name: 'Voltar à lista de viagens' }));
    await waitFor(() => expect(router.state.location.hash).toBe('#routes'));
    const selected = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).closest('tr')!;
    expect(selected.getAttribute('aria-selected')).toBe('true');
  });

  it('the chosen travel and device are in the URL: a reload on #devices or #history keeps them (T1)', async () => {
    startSession(makeSession(2));
    mockFetch(handler());
    const first = renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Dispositivos' }));
    await waitFor(() => expect(first.router.state.location.hash).toBe('#devices'));
    expect(first.router.state.location.search).toBe(`?travel=${TRAVEL_ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Histórico' }));
    await waitFor(() => expect(first.router.state.location.hash).toBe('#history'));
    const { search, hash } = first.router.state.location;
    expect(new URLSearchParams(search).get('device')).toBe('C3:00:00:00:01:01');
    first.unmount();

    // A reload (or the link shared) on #history opens the same travel and device.
    const { requests } = mockFetch(handler());
    const again = renderApp(`/directions${search}${hash}`);
    const panel = await screen.findByTestId('history-panel');
    await waitFor(() => expect(within(panel).getAllByRole('row')).toHaveLength(3));
    expect(again.router.state.location.hash).toBe('#history');
    expect(requests.some((r) => r.url === `/api/travels/${TRAVEL_ID}`)).toBe(true);
    expect(isDisabled(tab('Histórico'))).toBe(false);
    // Back to the devices keeps the choices (Histórico stays enabled, as before a reload); a reload there shows the cards.
    await userEvent.click(screen.getByRole('button', { name: 'Voltar aos dispositivos' }));
    await waitFor(() => expect(again.router.state.location.hash).toBe('#devices'));
    expect(new URLSearchParams(again.router.state.location.search).get('travel')).toBe(TRAVEL_ID);
    expect(isDisabled(tab('Histórico'))).toBe(false);
    again.unmount();

    mockFetch(handler());
    const devices = renderApp(`/directions?travel=${TRAVEL_ID}#devices`);
    expect(await screen.findByTestId('device-card')).toBeTruthy();
    expect(devices.router.state.location.hash).toBe('#devices');
  });

  it('a link naming a device that is not in the travel opens its devices and drops the device', async () => {
    startSession(makeSession(2));
    mockFetch(handler());
    const { router } = renderApp(`/directions?travel=${TRAVEL_ID}&device=AA:AA:AA:AA:AA:AA#history`);
    await waitFor(() => expect(router.state.location.hash).toBe('#devices'));
    expect(router.state.location.search).toBe(`?travel=${TRAVEL_ID}`);
    expect(await screen.findByTestId('device-card')).toBeTruthy();
  });

  it('a link to a travel that cannot be loaded says so on #devices', async () => {
    startSession(makeSession(2));
    mockFetch(handler({ detail: () => errorResponse(404, 'Viagem não encontrada.', 'NOT_FOUND') }));
    const { router } = renderApp(`/directions?travel=${TRAVEL_ID}#devices`);
    expect(await screen.findByText('Não foi possível encontrar dispositivos')).toBeTruthy();
    expect(router.state.location.hash).toBe('#devices');
  });

  it('a reload on #devices without a chosen travel goes back to #routes', async () => {
    startSession(makeSession(2));
    mockFetch(handler());
    const { router } = renderApp('/directions#devices');
    await waitFor(() => expect(router.state.location.hash).toBe('#routes'));
  });

  it('says "Não foi possível localizar viagens" when the list fails, and the empty text otherwise', async () => {
    startSession(makeSession(2));
    mockFetch(handler({ list: () => errorResponse(500, 'x') }));
    const failed = renderApp('/directions');
    // A 5xx is retried once before the message.
    expect(await screen.findByText('Não foi possível localizar viagens', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Erro!')).toBeTruthy();
    failed.unmount();

    mockFetch(handler({ list: () => jsonResponse({ data: { data: [], total: 0, page: 1, limit: 0 } }) }));
    renderApp('/directions');
    expect(await screen.findByText('Nenhum registro de viagem encontrado.')).toBeTruthy();
  });

  it('an empty history says "Nenhum registro de marcação encontrado."', async () => {
    startSession(makeSession(2));
    mockFetch(handler({ history: () => jsonResponse([]) }));
    renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Histórico' }));
    expect(await screen.findByText('Nenhum registro de marcação encontrado.')).toBeTruthy();
  });

  it('a failed history says "Não foi possível localizar pontos"', async () => {
    startSession(makeSession(2));
    mockFetch(handler({ history: () => errorResponse(404, 'Viagem não encontrada.', 'NOT_FOUND') }));
    renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Histórico' }));
    expect(await screen.findByText('Não foi possível localizar pontos')).toBeTruthy();
  });

  it('shows the server message when a status change is refused', async () => {
    startSession(makeSession(2));
    const { requests } = mockFetch(
      handler({ status: () => errorResponse(409, 'Não é possível passar de Não iniciada para Pausada.', 'CONFLICT') }),
    );
    renderApp('/directions');
    const row = (await screen.findByText('Rua XV de Novembro, 300 - Curitiba - PR')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Iniciar' }));
    expect(await screen.findByText('Não é possível passar de Não iniciada para Pausada.')).toBeTruthy();
    expect(requests.find((r) => r.url.endsWith('/status'))).toMatchObject({ method: 'POST', body: { status: 1 } });
  });

  it('client profiles see neither Nova viagem, status actions nor Configurações', async () => {
    startSession(makeSession(5));
    mockFetch(handler());
    renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).closest('tr')!;
    expect(screen.queryByRole('button', { name: 'Nova viagem' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Pausar' })).toBeNull();
    // Client viewers read reports on /reports but do not ask for new ones.
    expect(within(row).queryByRole('button', { name: 'Relatórios' })).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Gráficos', 'Histórico']);
  });

  describe('on a phone', () => {
    it('lists the travels as cards with their details and actions, no table; Dispositivos opens the travel', async () => {
      asPhone();
      startSession(makeSession(2));
      const { requests } = mockFetch(handler());
      const { router } = renderApp('/directions');
      const cards = await screen.findAllByTestId('travel-card');
      expect(screen.queryByRole('table')).toBeNull();
      expect(cards.map((c) => c.getAttribute('data-code'))).toEqual(['AUR7K2M9QX', 'AUR3H8T4WN']);
      const inProgress = cards[0]!;
      expect(within(inProgress).getByText('Av. Brasil, 500 - Rio de Janeiro - RJ')).toBeTruthy();
      expect(within(inProgress).getByText('Origem')).toBeTruthy();
      expect(within(inProgress).getByTestId('travel-status').textContent).toBe('Em andamento');
      expect(within(inProgress).getByRole('button', { name: 'Pausar' })).toBeTruthy();
      expect(within(inProgress).getByRole('button', { name: 'Finalizar' })).toBeTruthy();
      expect(within(cards[1]!).getByRole('button', { name: 'Iniciar' })).toBeTruthy();
      // Sorting stays, as buttons above the cards.
      expect(within(screen.getByTestId('cards-sort')).getByRole('button', { name: /Destino/ })).toBeTruthy();

      await userEvent.click(within(inProgress).getByRole('button', { name: 'Dispositivos' }));
      await waitFor(() => expect(router.state.location.hash).toBe('#devices'));
      expect(requests.some((r) => r.url === `/api/travels/${TRAVEL_ID}`)).toBe(true);
    });
  });

  const menuItems = async () => (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
  const menuItem = (name: string) => screen.getByRole('menuitem', { name });
  function exportHandler() {
    const travelReport = makeReport(1, 2, { kind: 'travel', device: null, mac: null, download_url: '/api/travel-report/files/tr-1' });
    const deviceReport = makeReport(2, 2, { kind: 'travel-device-history' });
    const base = handler();
    return mockFetch((request) => {
      const { pathname } = new URL(request.url, 'http://localhost');
      if (pathname.endsWith('/html')) return jsonResponse({ ...travelReport, status: REPORT_STATUS_VIEW[1], download_url: null });
      if (pathname === `/api/reports/${travelReport._id}`) return jsonResponse(travelReport);
      if (/\/history\/(pdf|excel)$/.test(pathname)) return jsonResponse(deviceReport);
      if (pathname.startsWith('/api/travel-report/files/')) return fileResponse(new Uint8Array([1, 2]), 'viagem-AUR7K2M9QX.pdf');
      if (pathname.startsWith('/api/report/files/')) return fileResponse(new Uint8Array([3]), 'historico-bau.pdf');
      return base(request);
    });
  }
  const DEVICE_HISTORY = `/api/travels/${TRAVEL_ID}/devices/${encodeURIComponent('C3:00:00:00:01:01')}/history`;

  async function openDevices() {
    renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ', {}, { timeout: 5_000 })).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Dispositivos' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ações de Baú Caminhão 01' }));
  }

  it('Relatórios on a travel downloads the whole-travel report once generated (R1)', async () => {
    startSession(makeSession(2));
    const saved = captureDownloads();
    const { requests } = exportHandler();
    renderApp('/directions');
    const row = (await screen.findByText('Av. Brasil, 500 - Rio de Janeiro - RJ', {}, { timeout: 5_000 })).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Relatórios' }));
    expect(await screen.findByText(REPORT_MESSAGES.downloaded, {}, { timeout: 5_000 })).toBeTruthy();
    expect(saved.map((file) => file.name)).toEqual(['viagem-AUR7K2M9QX.pdf']);
    expect(requests.map((r) => r.url)).toContain(`/api/travels/${TRAVEL_ID}/html`);
  });

  it('a card menu offers Relatórios PDF and EXCEL of the device within the travel (R1)', async () => {
    startSession(makeSession(2));
    const saved = captureDownloads();
    const { requests } = exportHandler();
    await openDevices();
    expect(await menuItems()).toEqual(['Gráficos', 'Histórico', 'Configurações', 'PDF', 'EXCEL']);
    expect(within(screen.getByRole('menu')).getByText('Relatórios')).toBeTruthy();
    await userEvent.click(menuItem('EXCEL'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(requests.map((r) => r.url)).toContain(`${DEVICE_HISTORY}/excel`);
  });

  it('the history tab has Gerar Relatórios with PDF and Excel (R1)', async () => {
    startSession(makeSession(2));
    const saved = captureDownloads();
    const { requests } = exportHandler();
    renderWithProviders(
      <ReportExportProvider>
        <HistoryPanel access={{ travelId: TRAVEL_ID }} device={makeTravel().devices[0]!} />
      </ReportExportProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Gerar Relatórios' }));
    expect(await menuItems()).toEqual(['PDF', 'Excel']);
    await userEvent.click(menuItem('PDF'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(requests.map((r) => r.url)).toContain(`${DEVICE_HISTORY}/pdf`);
    expect(await screen.findByText(REPORT_MESSAGES.downloaded)).toBeTruthy();
  });
});
