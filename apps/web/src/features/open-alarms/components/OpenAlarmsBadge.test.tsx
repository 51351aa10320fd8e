import type { AlarmNotification, OpenAlarm, OpenAlarmList } from '@sentinela/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LiveAlarmsProvider } from '../../../lib/live-alarms';
import { startSession } from '../../../lib/session';
import { errorResponse, jsonResponse, mockFetch, type Handler } from '../../../test/fetch';
import { FakeSocket } from '../../../test/fake-socket';
import { makeSession } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { OpenAlarmsBadge } from './OpenAlarmsBadge';

const TRUCK: OpenAlarm = {
  _id: 'a1',
  date: '2026-11-26T13:05:00.000Z',
  message: 'Temperatura acima do limite máximo (8,00 °C)',
  type: 'temperature_high',
  type_formatted: 'Temperatura alta',
  device: { _id: 'd1', mac: 'C3:00:00:00:01:01', name: 'Baú Caminhão 01' },
  travel: { _id: 't1', code: 'AUR7K2M9QX', origin_address: 'São Paulo', destiny_address: 'Rio de Janeiro' },
  acknowledge: null,
};

/** The acknowledged alarm as POST /api/alarms/{id}/acknowledge answers it. */
function acknowledgedAlarm(acknowledge: NonNullable<OpenAlarm['acknowledge']>): AlarmNotification {
  return {
    _id: TRUCK._id,
    date: TRUCK.date,
    ended_at: null,
    message: TRUCK.message,
    type: TRUCK.type,
    type_formatted: TRUCK.type_formatted,
    temperature_formatted: '9,50 °C',
    humidity_formatted: '--',
    temperature: { min: 9.5, max: 9.5 },
    humidity: { min: null, max: null },
    active: true,
    active_formatted: 'Sim',
    acknowledge,
    acknowledge_formatted: 'Sim',
    travel_id: 't1',
  };
}

function list(alarms: OpenAlarm[]): OpenAlarmList {
  return { count: alarms.length, unacknowledged: alarms.filter((a) => !a.acknowledge).length, alarms };
}

async function renderBadge(handler: Handler) {
  startSession(makeSession(2));
  const socket = new FakeSocket();
  const fetch = mockFetch(handler);
  renderWithProviders(
    <LiveAlarmsProvider token="token-123" connect={() => socket}>
      <OpenAlarmsBadge />
    </LiveAlarmsProvider>,
  );
  // The feed (Socket.IO's client and the message schemas) loads after the first paint.
  await waitFor(() => expect(socket.listensTo('connect')).toBe(true));
  return { socket, ...fetch };
}

const bell = () => screen.getByRole('button', { name: /^Alarmes ativos/ });

describe('open-alarms badge (issue 11, item 5)', () => {
  it('shows the live count: from the subscription, then from each pushed change', async () => {
    const { socket } = await renderBadge(() => jsonResponse(list([])));
    expect(bell().getAttribute('aria-label')).toBe('Alarmes ativos');
    act(() => socket.connect({ ok: true, count: 2, unacknowledged: 1 }));
    expect(bell().getAttribute('aria-label')).toBe('Alarmes ativos: 2');
    expect(screen.getByTestId('open-alarms-count').textContent).toContain('2');

    act(() => socket.receive('open-alarms', { count: 3, unacknowledged: 2, changes: [{ alarmId: 'a9', mac: 'C3:00:00:00:01:02', kind: 'opened' }] }));
    expect(bell().getAttribute('aria-label')).toBe('Alarmes ativos: 3');
    // Malformed messages are ignored.
    act(() => socket.receive('open-alarms', { count: 'muitos' }));
    expect(bell().getAttribute('aria-label')).toBe('Alarmes ativos: 3');

    act(() => socket.receive('open-alarms', { count: 0, unacknowledged: 0, changes: [] }));
    expect(bell().getAttribute('aria-label')).toBe('Alarmes ativos: nenhum');
    expect(screen.getByTestId('open-alarms-count').textContent).not.toContain('0');
  });

  it('opens the list of open alarms: device, travel, measure, since when, and a link to the device history', async () => {
    const { socket } = await renderBadge(() => jsonResponse(list([TRUCK])));
    act(() => socket.connect({ ok: true, count: 1, unacknowledged: 1 }));
    await userEvent.click(bell());
    const item = await screen.findByRole('listitem', { name: 'Baú Caminhão 01: Temperatura alta' });
    expect(within(item).getByText(/Viagem AUR7K2M9QX · São Paulo → Rio de Janeiro/)).toBeTruthy();
    expect(within(item).getByText('Temperatura acima do limite máximo (8,00 °C)')).toBeTruthy();
    expect(within(item).getByText('Desde 26/11/2026 10:05')).toBeTruthy();
    expect(within(item).getByRole('link', { name: 'Ver histórico' }).getAttribute('href')).toBe('/device-history/C3%3A00%3A00%3A00%3A01%3A01/d1');
  });

  it('acknowledges from the list (a message is required) and shows who did it', async () => {
    let current = list([TRUCK]);
    const { socket, requests } = await renderBadge((request) => {
      if (request.method === 'POST' && request.url === '/api/alarms/a1/acknowledge') {
        const acknowledge = { message: 'Porta fechada.', date: '2026-11-26T13:10:00.000Z', user: { _id: 'u1', name: 'João Silva' } };
        current = list([{ ...TRUCK, acknowledge }]);
        return jsonResponse(acknowledgedAlarm(acknowledge));
      }
      return jsonResponse(current);
    });
    act(() => socket.connect({ ok: true, count: 1, unacknowledged: 1 }));
    await userEvent.click(bell());
    const item = await screen.findByRole('listitem', { name: 'Baú Caminhão 01: Temperatura alta' });
    await userEvent.click(within(item).getByRole('button', { name: 'Reconhecer' }));
    await userEvent.click(within(item).getByRole('button', { name: 'Reconhecer' }));
    expect(await within(item).findByText('Informe a mensagem de reconhecimento.')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await userEvent.type(within(item).getByLabelText('Mensagem de reconhecimento'), 'Porta fechada.');
    await userEvent.click(within(item).getByRole('button', { name: 'Reconhecer' }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ message: 'Porta fechada.' }]));
    expect(await screen.findByText('Reconhecido por João Silva em 26/11/2026 10:10')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reconhecer' })).toBeNull();
  });

  it('says so when no alarm is open, and reloads the list when the socket says something changed', async () => {
    let current = list([]);
    const { socket, requests } = await renderBadge(() => jsonResponse(current));
    act(() => socket.connect({ ok: true, count: 0, unacknowledged: 0 }));
    await userEvent.click(bell());
    expect(await screen.findByText('Nenhum alarme ativo.')).toBeTruthy();

    current = list([TRUCK]);
    act(() => socket.receive('open-alarms', { count: 1, unacknowledged: 1, changes: [{ alarmId: 'a1', mac: TRUCK.device.mac, kind: 'opened' }] }));
    expect(await screen.findByRole('listitem', { name: 'Baú Caminhão 01: Temperatura alta' })).toBeTruthy();
    expect(requests.filter((r) => r.url === '/api/alarms/open')).toHaveLength(2);
  });

  it('shows the error when the list cannot be loaded', async () => {
    const { socket } = await renderBadge(() => errorResponse(500, 'Erro interno. Tente novamente mais tarde.'));
    act(() => socket.connect({ ok: true, count: 1, unacknowledged: 1 }));
    await userEvent.click(bell());
    expect(await screen.findByText('Erro interno. Tente novamente mais tarde.')).toBeTruthy();
  });
});
