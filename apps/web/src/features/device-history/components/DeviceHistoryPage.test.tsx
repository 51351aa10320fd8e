import { REPORT_MESSAGES, type Coverage, type HistoryPage, type ProfileId } from '@sentinela/contract';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler, type RecordedRequest } from '../../../test/fetch';
import { makeDevice, makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { captureDownloads, fileResponse } from '../../../test/download';
import type { FakeSocket } from '../../../test/fake-socket';
import { makeReport } from '../../../test/report-fixtures';
import { makeAlarm, makeSeries } from '../test-fixtures';
import { asPhone } from '../../../test/phone';

// The shell's alarms socket: a stand-in the tests play the server with (the real one is covered in Chromium).
const live = vi.hoisted(() => ({ sockets: [] as FakeSocket[] }));
vi.mock('socket.io-client', async () => {
  const { FakeSocket } = await import('../../../test/fake-socket');
  return {
    io: () => {
      const socket = new FakeSocket();
      live.sockets.push(socket);
      return socket;
    },
  };
});

// uPlot draws on a canvas, which jsdom lacks: the chart itself is covered in Chromium (e2e).
vi.mock('../../../components/chart/LineChart', () => ({ default: () => <div data-testid="history-chart" /> }));

const DEVICE = makeDevice(1, {
  name: 'Câmara Fria Matriz',
  model: 'SNT-H2',
  config: { temperature: { min: -22, max: -16 }, humidity: { min: 20, max: 80 }, out_of_range_minutes: 0, no_data_minutes: 60 },
});
const MAC_PATH = encodeURIComponent(DEVICE.mac);
const PATH = `/device-history/${MAC_PATH}/${DEVICE._id}`;

function makeCoverage(): Coverage {
  return {
    from: '2024-03-01T14:59:30.000Z',
    to: '2024-03-01T15:40:20.000Z',
    expectedIntervalSeconds: 60,
    intervalSource: 'configured',
    thresholdMs: 180_000,
    expected: 41,
    received: 20,
    percent: 48.8,
    gaps: [{ start: '2024-03-01T15:09:00.000Z', end: '2024-03-01T15:30:00.000Z', durationMs: 1_260_000 }],
    gapCount: 1,
    gapTotalMs: 1_260_000,
    lost: 20,
    since: null,
  };
}

function historyPage(overrides: Partial<HistoryPage> = {}): HistoryPage {
  return {
    data: [
      { createdAt: '2024-03-01T15:30:45.000Z', temperature: -18.456, humidity: 52.1, battery: 90, lat: null, lng: null, travelId: null, mac: DEVICE.mac },
      { createdAt: '2024-03-01T15:25:45.000Z', temperature: -18.5, humidity: null, battery: 90, lat: null, lng: null, travelId: null, mac: DEVICE.mac },
    ],
    total: 2,
    page: 1,
    limit: 50,
    from: '2024-02-28T15:30:00.000Z',
    to: '2024-03-01T15:31:00.000Z',
    ...overrides,
  };
}

type Routes = Partial<
  Record<'device' | 'page' | 'series' | 'coverage' | 'logs' | 'notifications' | 'deliveries' | 'configure' | 'acknowledge' | 'export' | 'report' | 'file', Handler>
>;

function handlerFor(answers: Routes): Handler {
  return (request: RecordedRequest) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    const pick = (key: keyof Routes, fallback: () => Response) => (answers[key] ?? fallback)(request);
    if (pathname.startsWith('/api/show-beacon-device/')) return pick('device', () => jsonResponse(DEVICE));
    if (pathname.endsWith('/series')) return pick('series', () => jsonResponse(makeSeries()));
    if (pathname.endsWith('/coverage')) return pick('coverage', () => jsonResponse(makeCoverage()));
    if (/\/history\/mac\/[^/]+\/(pdf|excel)$/.test(pathname)) return pick('export', () => errorResponse(500, 'x'));
    if (pathname.startsWith('/api/reports/')) return pick('report', () => errorResponse(404, 'Registro não encontrado.'));
    if (pathname.startsWith('/api/report/files/')) return pick('file', () => errorResponse(404, 'Registro não encontrado.'));
    if (/^\/api\/beacon-device\/history\/mac\/[^/]+\/page$/.test(pathname)) return pick('page', () => jsonResponse(historyPage()));
    if (pathname.endsWith('/logs')) return pick('logs', () => jsonResponse({ content: [] }));
    if (pathname.endsWith('/notifications')) return pick('notifications', () => jsonResponse([]));
    if (pathname.startsWith('/api/devices/')) return pick('configure', () => jsonResponse(DEVICE));
    if (/^\/api\/alarms\/[^/]+\/deliveries$/.test(pathname)) return pick('deliveries', () => jsonResponse([]));
    if (pathname.startsWith('/api/alarms/')) return pick('acknowledge', () => errorResponse(500, 'x'));
    return errorResponse(404, 'Rota não encontrada.', 'NOT_FOUND');
  };
}

function openHistory({
  profileId = 2,
  answers = {},
  search = '',
  withState = true,
}: { profileId?: ProfileId; answers?: Routes; search?: string; withState?: boolean } = {}) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handlerFor(answers));
  const { router } = renderApp({ pathname: PATH, search, state: withState ? { name: 'Câmara (navegação)', model: 'SNT-H2' } : null });
  const urls = (part: string) => mock.requests.filter((r) => r.url.includes(part)).map((r) => new URL(r.url, 'http://localhost'));
  return { ...mock, router, urls };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');
// The readings' table (the coverage panel has a table of gaps of its own).
const readingsTable = () => screen.getAllByRole('table').find((table) => within(table).queryByText('Data/Hora (UTC)')) as HTMLElement;
const readingRows = () => within(within(readingsTable()).getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

// Typing into several fields is slow on a busy two-core machine.
describe('/device-history/{mac}/{id} (D3)', { timeout: 15_000 }, () => {
  it('shows the header, then the readings of the last two days in local and UTC time', async () => {
    const { urls } = openHistory();
    expect(await screen.findByRole('heading', { name: 'Histórico' })).toBeTruthy();
    expect(await screen.findByText('Câmara Fria Matriz')).toBeTruthy();
    expect(screen.getByText(DEVICE.mac)).toBeTruthy();
    expect(screen.getByText('SNT-H2')).toBeTruthy();

    expect(await screen.findByText('01/03/2024 12:30:45')).toBeTruthy();
    expect(within(readingsTable()).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Data/Hora',
      'Data/Hora (UTC)',
      'Temperatura',
      'Umidade',
    ]);
    const [first, second] = readingRows();
    expect(within(first as HTMLElement).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      '01/03/2024 12:30:45',
      '01/03/2024 15:30:45',
      '-18,46 °C',
      '52,10 %',
    ]);
    expect(within(second as HTMLElement).getByText('--')).toBeTruthy();
    expect(screen.getByTestId('readings-total').textContent).toContain('2 registros');

    // The readings' request (the coverage panel asks /coverage of the same path).
    const [request] = urls('/history/mac/').filter((url) => !url.pathname.endsWith('/coverage'));
    expect(request?.pathname).toBe(`/api/beacon-device/history/mac/${MAC_PATH}/page`);
    expect(request?.searchParams.get('page')).toBe('1');
    expect(request?.searchParams.get('limit')).toBe('50');
    const from = Date.parse(request?.searchParams.get('dateInitUtc') ?? '');
    const to = Date.parse(request?.searchParams.get('dateEndUtc') ?? '');
    expect(to - from).toBe(2 * 24 * 3600 * 1000);
    expect(request?.searchParams.get('isUtc')).toBe('false');
  });

  it('after a reload (no navigation state) reads the header from the device', async () => {
    const { urls } = openHistory({ withState: false });
    expect(await screen.findByText('Câmara Fria Matriz')).toBeTruthy();
    expect(urls('/api/show-beacon-device/')[0]?.pathname).toBe(`/api/show-beacon-device/${DEVICE._id}`);
  });

  it('applies the filter to the query and keeps it in the URL', async () => {
    const { urls, router } = openHistory({
      answers: {
        page: ({ url }) =>
          jsonResponse(url.includes('minTemp') ? historyPage({ data: historyPage().data.slice(0, 1), total: 1 }) : historyPage()),
      },
    });
    await screen.findByText('01/03/2024 12:30:45');
    await userEvent.type(screen.getByLabelText('Temperatura mínima (°C)'), '-18,46');
    await userEvent.clear(screen.getByLabelText('Data inicial'));
    await userEvent.type(screen.getByLabelText('Data inicial'), '2024-03-01T10:00');
    await userEvent.clear(screen.getByLabelText('Data final'));
    await userEvent.type(screen.getByLabelText('Data final'), '2024-03-01T12:30');
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));

    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    const last = urls('/history/mac/').at(-1);
    expect(last?.searchParams.get('minTemp')).toBe('-18.46');
    expect(last?.searchParams.get('dateInitUtc')).toBe('2024-03-01T13:00:00.000Z');
    expect(last?.searchParams.get('dateEndUtc')).toBe('2024-03-01T15:30:59.999Z');
    const url = new URLSearchParams(router.state.location.search);
    expect(url.get('minTemp')).toBe('-18.46');
    expect(url.get('dateInitUtc')).toBe('2024-03-01T13:00:00.000Z');
    expect(url.get('isUtc')).toBe('false');
    // The navigation state survives the URL change.
    expect(router.state.location.state).toEqual({ name: 'Câmara (navegação)', model: 'SNT-H2' });
  });

  it('restores the filter and the tab from the URL', async () => {
    const { urls } = openHistory({
      search: '?tab=grafico&minHum=30&dateInitUtc=2024-03-01T10:00:00.000Z&dateEndUtc=2024-03-01T12:00:00.000Z&isUtc=true',
    });
    expect(await screen.findByRole('tab', { name: 'Gráfico', selected: true })).toBeTruthy();
    expect((screen.getByLabelText('Umidade mínima (%)') as HTMLInputElement).value).toBe('30');
    expect((screen.getByLabelText('Data inicial') as HTMLInputElement).value).toBe('2024-03-01T10:00');
    expect((screen.getByRole('switch', { name: /Filtrar data em UTC\?/ }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(urls('/series')).toHaveLength(1));
    const series = urls('/series')[0];
    expect(series?.searchParams.get('minHum')).toBe('30');
    expect(series?.searchParams.get('dateInitUtc')).toBe('2024-03-01T10:00:00.000Z');
    expect(series?.searchParams.get('points')).toBe('1000');
  });

  it('says "Não foi possível localizar pontos" and "Nada encontrado." when the readings fail', async () => {
    openHistory({ answers: { page: () => errorResponse(500, 'Erro interno.') } });
    // A 5xx is retried once (after a second) before it counts as a failure.
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toContain('Erro!');
    expect(alert.textContent).toContain('Não foi possível localizar pontos');
    expect(screen.getByText('Nada encontrado.')).toBeTruthy();
  });

  it('Gráfico shows max, min and mean, humidity without mean, and "Nada encontrado." for one reading or none', async () => {
    openHistory({ search: '?tab=grafico' });
    expect(await screen.findByTestId('history-chart')).toBeTruthy();
    const stats = screen.getByTestId('chart-stats');
    expect(stats.textContent).toContain('Máxima-17,90 °C');
    expect(stats.textContent).toContain('Mínima-19,50 °C');
    expect(stats.textContent).toContain('Média-18,50 °C');
    expect(stats.textContent).toContain('Limites: -22,00 a -16,00 °C');

    await userEvent.click(screen.getByRole('tab', { name: 'Umidade' }));
    const humidity = await screen.findByTestId('chart-stats');
    expect(humidity.textContent).toContain('Máxima55,00 %');
    expect(humidity.textContent).not.toContain('Média');
  });

  it('Gráfico says "Nada encontrado." for a single reading', async () => {
    openHistory({ search: '?tab=grafico', answers: { series: () => jsonResponse(makeSeries({ count: 1, t: [1709300000] })) } });
    expect(await screen.findByText('Nada encontrado.')).toBeTruthy();
    expect(screen.queryByTestId('history-chart')).toBeNull();
  });

  it('Eventos lists the events with uppercased client and OS, without the filters', async () => {
    openHistory({
      search: '?tab=eventos',
      answers: {
        logs: () =>
          jsonResponse({
            content: [
              {
                _id: 'e1',
                created_at: '2024-03-01T15:30:45.000Z',
                type: 'config',
                type_formatted: 'Configuração',
                message: 'Configuração alterada',
                user: { name: 'Aurora Administração' },
                client: 'web',
                clientVersion: '1.1.0',
                clientOs: 'linux',
                apiVersion: '0.1.0',
              },
            ],
          }),
      },
    });
    expect(await screen.findByText('Configuração alterada')).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Data/Hora',
      'Tipo',
      'Mensagem',
      'Responsável',
      'Cliente',
      'Versão do cliente',
      'Sistema operacional',
      'Versão da API',
    ]);
    expect(within(bodyRows()[0] as HTMLElement).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      '01/03/2024 12:30:45',
      'Configuração',
      'Configuração alterada',
      'Aurora Administração',
      'WEB',
      '1.1.0',
      'LINUX',
      '0.1.0',
    ]);
    expect(screen.queryByRole('button', { name: 'Filtrar' })).toBeNull();
  });

  it('Alarmes shows the load error and "Nada encontrado." while the route is missing', async () => {
    openHistory({ search: '?tab=alarmes', answers: { notifications: () => errorResponse(404, 'Rota não encontrada.') } });
    expect((await screen.findByRole('alert')).textContent).toContain('Não foi possível carregar os alarmes do dispositivo');
    expect(screen.getByText('Nada encontrado.')).toBeTruthy();
  });

  it('Alarmes updates live: a change of this device\'s alarms (from the socket) reloads the list, another device\'s does not', async () => {
    let alarms = [makeAlarm()];
    const { urls } = openHistory({ search: '?tab=alarmes', answers: { notifications: () => jsonResponse(alarms) } });
    expect(await screen.findByText('Temperatura alta')).toBeTruthy();
    const socket = live.sockets.at(-1)!;
    act(() => socket.connect({ ok: true, count: 1, unacknowledged: 1 }));
    expect(screen.getByRole('button', { name: 'Alarmes ativos: 1' })).toBeTruthy();
    const loads = () => urls('/notifications').length;
    const before = loads();

    act(() => socket.receive('open-alarms', { count: 2, unacknowledged: 2, changes: [{ alarmId: 'x', mac: 'C3:00:00:00:09:09', kind: 'opened' }] }));
    expect(screen.getByRole('button', { name: 'Alarmes ativos: 2' })).toBeTruthy();
    expect(loads()).toBe(before);

    alarms = [makeAlarm({ _id: '11111111-0000-4000-8000-000000000002', type: 'humidity_low', type_formatted: 'Umidade baixa' }), ...alarms];
    act(() => socket.receive('open-alarms', { count: 3, unacknowledged: 3, changes: [{ alarmId: alarms[0]!._id, mac: DEVICE.mac, kind: 'opened' }] }));
    expect(await screen.findByText('Umidade baixa')).toBeTruthy();
    expect(loads()).toBe(before + 1);
  });

  it('Alarmes opens the details and acknowledges an alarm', async () => {
    let alarm = makeAlarm();
    const { requests } = openHistory({
      search: '?tab=alarmes',
      answers: {
        notifications: () => jsonResponse([alarm]),
        deliveries: () =>
          jsonResponse([
            { _id: 'd1', event: 'opened', channel: 'telegram', recipient: 'Telegram de Maria Souza', user: { _id: 'u1', name: 'Maria Souza' }, status: 'sent', attempts: 2, error: null, created_at: '2024-03-01T13:00:00.000Z', sent_at: '2024-03-01T13:00:05.000Z' },
            { _id: 'd2', event: 'opened', channel: 'email', recipient: 'maria@example.com', user: { _id: 'u1', name: 'Maria Souza' }, status: 'failed', attempts: 10, error: 'Relay recusou', created_at: '2024-03-01T13:00:00.000Z', sent_at: null },
          ]),
        acknowledge: ({ body }) => {
          alarm = {
            ...alarm,
            acknowledge: { message: (body as { message: string }).message, date: '2024-03-01T16:00:00.000Z', user: { _id: 'u1', name: 'Maria Souza' } },
            acknowledge_formatted: 'Sim',
          };
          return jsonResponse(alarm);
        },
      },
    });
    expect(await screen.findByText('Temperatura alta')).toBeTruthy();
    expect(within(bodyRows()[0] as HTMLElement).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      '01/03/2024 10:00:00',
      'Temperatura alta',
      'Temperatura acima do limite (-16,00 °C)',
      '-15,20 a -14,10 °C',
      '--',
      'Não',
      'Sim',
      'Detalhes do alarme',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Detalhes do alarme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Detalhes do alarme' });
    expect(within(dialog).getByText('Mensagem de reconhecimento').nextSibling?.textContent).toBe('--');
    // The delivery log: who was told, through which channel, and how it went.
    const log = await within(dialog).findByRole('table', { name: 'Notificações enviadas' });
    expect(within(log).getAllByRole('row').slice(1).map((tr) => within(tr).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['TelegramInício do alarme', 'Telegram de Maria Souza', 'Enviada01/03/2024 10:00:052 tentativas'],
      ['E-mailInício do alarme', 'maria@example.com', 'Falhou01/03/2024 10:00:0010 tentativasRelay recusou'],
    ]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Reconhecer' }));
    expect(await within(dialog).findByText('Informe a mensagem de reconhecimento.')).toBeTruthy();

    await userEvent.type(within(dialog).getByLabelText(/Reconhecer alarme/), 'Porta fechada pelo operador');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reconhecer' }));
    expect(await screen.findByText('Alarme reconhecido com sucesso!')).toBeTruthy();
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.url).toBe(`/api/alarms/${alarm._id}/acknowledge`);
    expect(post?.body).toEqual({ message: 'Porta fechada pelo operador' });
    expect(await within(dialog).findByText('Porta fechada pelo operador')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Reconhecer' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('Alarmes on a phone', () => {
  it('shows each alarm as a card with its fields, and its details open from the card', async () => {
    asPhone();
    openHistory({ search: '?tab=alarmes', answers: { notifications: () => jsonResponse([makeAlarm()]) } });
    const card = await screen.findByTestId('alarm-card');
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(card).getByText('Temperatura alta')).toBeTruthy();
    expect(within(card).getByText('Ativo')).toBeTruthy();
    expect(within(card).getByText('01/03/2024 10:00:00')).toBeTruthy();
    expect(within(card).getByText('Temperatura acima do limite (-16,00 °C)')).toBeTruthy();
    expect(card.textContent).toContain('Temperatura (mín-máx): -15,20 a -14,10 °C');
    expect(card.textContent).toContain('Reconhecido: Não');
    await userEvent.click(within(card).getByRole('button', { name: 'Detalhes do alarme' }));
    expect(await screen.findByRole('dialog', { name: 'Detalhes do alarme' })).toBeTruthy();
  });
});

describe('device configuration (D4)', { timeout: 15_000 }, () => {
  it('is not offered to the restricted client profiles', async () => {
    openHistory({ profileId: 4 });
    await screen.findByText('Câmara Fria Matriz');
    expect(screen.queryByRole('button', { name: 'Configurações' })).toBeNull();
  });

  it('saves name, limits and alarm delays', async () => {
    const { requests } = openHistory({ profileId: 3 });
    const button = await screen.findByRole('button', { name: 'Configurações' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Configurações do dispositivo' });
    expect((within(dialog).getByLabelText('Temperatura mínima (°C)') as HTMLInputElement).value).toBe('-22');
    expect((within(dialog).getByLabelText(/Sem dados por/) as HTMLInputElement).value).toBe('60');

    const name = within(dialog).getByLabelText('Nome');
    await userEvent.clear(name);
    await userEvent.type(name, 'Câmara 1');
    await userEvent.clear(within(dialog).getByLabelText('Umidade mínima (%)'));
    await userEvent.clear(within(dialog).getByLabelText('Temperatura máxima (°C)'));
    await userEvent.type(within(dialog).getByLabelText('Temperatura máxima (°C)'), '-30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('A temperatura mínima deve ser menor que a máxima.')).toBeTruthy();

    await userEvent.clear(within(dialog).getByLabelText('Temperatura máxima (°C)'));
    await userEvent.type(within(dialog).getByLabelText('Temperatura máxima (°C)'), '-15,5');
    await userEvent.clear(within(dialog).getByLabelText(/Fora da faixa por/));
    await userEvent.type(within(dialog).getByLabelText(/Fora da faixa por/), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Dispositivo foi atualizado com sucesso')).toBeTruthy();
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.url).toBe(`/api/devices/${DEVICE._id}`);
    expect(put?.body).toEqual({
      name: 'Câmara 1',
      config: {
        temperature: { min: -22, max: -15.5 },
        humidity: { min: null, max: 80 },
        out_of_range_minutes: 10,
        no_data_minutes: 60,
        report_interval_seconds: null,
      },
    });
  });

  it('Configurações sets the expected interval between readings, and refuses one out of bounds (ADR 0035)', async () => {
    const { requests } = openHistory();
    const button = await screen.findByRole('button', { name: 'Configurações' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText(/Intervalo esperado entre leituras/);
    await userEvent.type(field, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Intervalo esperado entre leituras: informe um número inteiro de 1 a 86400.')).toBeTruthy();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    await userEvent.clear(field);
    await userEvent.type(field, '60');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Dispositivo foi atualizado com sucesso')).toBeTruthy();
    expect((requests.find((r) => r.method === 'PUT')?.body as { config: object }).config).toMatchObject({ report_interval_seconds: 60 });
  });

  it('shows the coverage of the period: percentage, gaps with start, end and duration, lost readings', async () => {
    openHistory();
    const panel = await screen.findByTestId('coverage');
    await waitFor(() => expect(within(panel).getByTestId('coverage-percent').textContent).toContain('48,8 %'));
    expect(within(panel).getByTestId('coverage-percent').textContent).toContain('(20 de 41 leituras esperadas)');
    expect(within(panel).getByTestId('coverage-gaps').textContent).toContain('1 (21 min sem dados)');
    expect(within(panel).getByTestId('coverage-lost').textContent).toContain('20');
    expect(within(panel).getByTestId('coverage-interval').textContent).toContain('1 min (configurado; lacuna acima de 3 min)');
    const rows = within(within(panel).getByTestId('coverage-gap-table')).getAllByRole('row');
    expect(rows[1]?.textContent).toBe('01/03/2024 12:09:0001/03/2024 12:30:0021 min');
  });

  it('says from when the coverage counts when the device came into service after the period started', async () => {
    openHistory({ answers: { coverage: () => jsonResponse({ ...makeCoverage(), from: '2024-03-01T15:00:00.000Z', since: { at: '2024-03-01T15:00:00.000Z', reason: 'created' } }) } });
    const since = await screen.findByTestId('coverage-since');
    expect(since.textContent).toBe('Contada a partir de 01/03/2024 12:00:00, desde o cadastro do dispositivo: o tempo antes disso não conta como falta de dados.');
  });

  it('says so when the coverage cannot be computed', async () => {
    openHistory({ answers: { coverage: () => errorResponse(500, 'x') } });
    expect(await screen.findByText('Não foi possível calcular a cobertura dos dados.')).toBeTruthy();
  });

  it('shows the server message when saving fails', async () => {
    openHistory({ answers: { configure: () => errorResponse(400, 'A umidade mínima deve ser menor que a máxima.') } });
    const button = await screen.findByRole('button', { name: 'Configurações' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Configurações do dispositivo' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('A umidade mínima deve ser menor que a máxima.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Configurações do dispositivo' })).toBeTruthy();
  });
});

describe('export of the filtered readings (D3, R1)', { timeout: 15_000 }, () => {
  it('PDF asks for the report with the filter, shows the progress, then downloads it', async () => {
    const saved = captureDownloads();
    const queued = makeReport(1, 1);
    const generated = makeReport(1, 2);
    let polls = 0;
    const { urls } = openHistory({
      search: '?minTemp=-19&dateInitUtc=2024-03-01T10:00:00.000Z&dateEndUtc=2024-03-01T12:00:00.000Z&isUtc=false',
      answers: {
        export: () => jsonResponse(queued),
        report: () => jsonResponse(++polls < 2 ? queued : generated),
        file: () => fileResponse(new Uint8Array([37, 80, 68, 70]), 'historico-camara.pdf'),
      },
    });
    const buttons = await screen.findByTestId('export-buttons');
    expect(within(buttons).getByText('Exportar leituras filtradas:')).toBeTruthy();
    await userEvent.click(within(buttons).getByRole('button', { name: 'PDF' }));

    expect(await screen.findByText(REPORT_MESSAGES.generating)).toBeTruthy();
    expect(await screen.findByText(REPORT_MESSAGES.downloaded, {}, { timeout: 5_000 })).toBeTruthy();
    expect(saved.map((file) => file.name)).toEqual(['historico-camara.pdf']);
    const [request] = urls('/pdf');
    expect(request?.pathname).toBe(`/api/beacon-device/history/mac/${MAC_PATH}/pdf`);
    expect(request?.searchParams.get('minTemp')).toBe('-19');
    expect(request?.searchParams.get('dateInitUtc')).toBe('2024-03-01T10:00:00.000Z');
    expect(request?.searchParams.get('isUtc')).toBe('false');
  });

  it('Excel that fails shows "Erro!" with the server reason', async () => {
    openHistory({
      search: '?tab=grafico',
      answers: { export: () => jsonResponse(makeReport(1, 1)), report: () => jsonResponse(makeReport(1, 3, { error: 'Nenhuma leitura no período.' })) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Excel' }));
    expect(await screen.findByText('Nenhuma leitura no período.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('Erro!')).toBeTruthy();
  });

  it('is offered on Dados and Gráfico only, and not to client viewers', async () => {
    openHistory({ search: '?tab=eventos' });
    await screen.findByText('Câmara Fria Matriz');
    expect(screen.queryByTestId('export-buttons')).toBeNull();
    cleanup();

    openHistory({ profileId: 5 });
    await screen.findByText('Câmara Fria Matriz');
    expect(screen.queryByRole('button', { name: 'PDF' })).toBeNull();
  });
});
