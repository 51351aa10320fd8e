import type { Device, LocationDeviceState, ProfileId } from '@sentinela/contract';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asPhone } from '../../../test/phone';
import { startSession } from '../../../lib/session';
import { jsonResponse, mockFetch, screenRequests, type Handler } from '../../../test/fetch';
import type { FakeSocket } from '../../../test/fake-socket';
import { makeDevice, makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

// Every Socket.IO client the app opens (the shell's alarms, the list's devices feed): stand-ins the tests play the
// server with. The real feed is covered by apps/api/test/devices-live.test.ts and in Chromium (devices-live.e2e.ts).
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

// The screens wait for lazy chunks (the live follower, the cards), which a loaded machine takes seconds to transform:
// queries wait up to 15 s here instead of 1 s (they end as soon as the element shows).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  live.sockets.length = 0;
  vi.useRealTimers();
});

function open(path: string, profileId: ProfileId, handler: Handler) {
  startSession(makeSession(profileId));
  const mock = mockFetch(handler);
  renderApp(path);
  return mock;
}

/** The devices feed's socket, once the page (after its first paint) has connected and subscribed; answers the subscription. */
async function feed(): Promise<FakeSocket> {
  let socket: FakeSocket | undefined;
  await waitFor(() => {
    socket = live.sockets.find((s) => s.emitted.some((e) => e.event === 'subscribe-locations'));
    if (!socket) {
      // Connect every socket: the devices feed subscribes on its connection.
      for (const s of live.sockets) s.receive('connect');
    }
    expect(socket).toBeDefined();
  });
  act(() => socket!.emitted.find((e) => e.event === 'subscribe-locations')!.ack({ ok: true }));
  return socket!;
}

const state = (device: Device, overrides: Partial<LocationDeviceState>): LocationDeviceState => ({
  _id: device._id,
  temperature: null,
  humidity: null,
  battery: null,
  lastSyncDate: '2024-03-01T15:00:00.000Z',
  ...overrides,
});

const LIMITS = { temperature: { min: 2, max: 8 }, humidity: { min: null, max: null } };

describe('Meus Dispositivos live (D1, ADR 0049)', () => {
  it('merges a reading into its row without fetching the list again, and ignores older or foreign states', async () => {
    const one = makeDevice(1, { lastSyncDate: '2024-03-01T15:00:00.000Z' });
    const two = makeDevice(2, { lastSyncDate: '2024-03-01T15:00:00.000Z' });
    const { requests } = open('/my-devices', 3, () => jsonResponse([one, two]));
    await screen.findByText('Sensor 01');
    const socket = await feed();
    expect(await screen.findByText('Ao vivo')).toBeTruthy();

    act(() =>
      socket.receive('location-devices', [
        state(one, { temperature: 5, lastSyncDate: '2024-03-01T15:30:45.000Z' }),
        // Not in this list (another device the user may see elsewhere): ignored.
        state(makeDevice(9), { lastSyncDate: '2024-03-01T15:31:00.000Z' }),
      ]),
    );
    expect(await screen.findByText('01/03/2024 12:30:45')).toBeTruthy();
    // An older state (a late batch) does not take the row back; the other row's newer one, right after it, shows.
    act(() => socket.receive('location-devices', [state(one, { lastSyncDate: '2024-03-01T15:10:00.000Z' })]));
    act(() => socket.receive('location-devices', [state(two, { lastSyncDate: '2024-03-01T15:20:00.000Z' })]));
    expect(await screen.findByText('01/03/2024 12:20:00')).toBeTruthy();
    expect(screen.getByText('01/03/2024 12:30:45')).toBeTruthy();
    expect(screen.queryByText('01/03/2024 12:10:00')).toBeNull();
    // The list was fetched once: the states were merged into its rows.
    expect(screenRequests(requests).filter((r) => r.url.startsWith('/api/devices-by-user/'))).toHaveLength(1);
  });

  it('fetches the list again when the devices the user may see change, and after a reconnection', async () => {
    let devices = [makeDevice(1)];
    const { requests } = open('/my-devices', 3, () => jsonResponse(devices));
    await screen.findByText('Sensor 01');
    const socket = await feed();
    const listRequests = () => screenRequests(requests).filter((r) => r.url.startsWith('/api/devices-by-user/'));

    devices = [makeDevice(1), makeDevice(2)];
    act(() => socket.receive('location-devices-changed', {}));
    expect(await screen.findByText('Sensor 02')).toBeTruthy();
    expect(listRequests()).toHaveLength(2);

    act(() => socket.receive('disconnect'));
    expect(await screen.findByText('Reconectando...')).toBeTruthy();
    devices = [makeDevice(2)];
    act(() => socket.receive('connect'));
    await waitFor(() => expect(screen.queryByText('Sensor 01')).toBeNull());
    expect(listRequests()).toHaveLength(3);
  });

  it('closes its connection when the screen is left', async () => {
    open('/my-devices', 2, () => jsonResponse([makeDevice(1)]));
    await screen.findByText('Sensor 01');
    const socket = await feed();
    await userEvent.click(screen.getByRole('link', { name: 'Histórico' }));
    await waitFor(() => expect(socket.disconnected).toBe(true));
  });

  it('keeps a client\'s Dispositivos live too (/client-devices)', async () => {
    const one = makeDevice(1, { lastSyncDate: '2024-03-01T15:00:00.000Z' });
    const session = makeSession(2);
    const { requests } = open(`/client-devices?id=${session.enterprise._id}`, 2, () => jsonResponse([one]));
    await screen.findByText('Sensor 01');
    const socket = await feed();
    act(() => socket.receive('location-devices', [state(one, { lastSyncDate: '2024-03-01T16:00:00.000Z' })]));
    expect(await screen.findByText('01/03/2024 13:00:00')).toBeTruthy();
    expect(screenRequests(requests).filter((r) => r.url.startsWith('/api/devices-by-client/'))).toHaveLength(1);
  });
});

describe('Meus Dispositivos on a phone (D1, ADR 0049)', () => {
  it('shows cards (no table) with the values, colour state, battery and actions, and keeps them live', async () => {
    asPhone();
    // Right after the last sync: the card shows its reading's state, not silence.
    vi.useFakeTimers({ now: Date.parse('2024-03-01T15:00:30.000Z'), shouldAdvanceTime: true });
    const fridge = makeDevice(1, { name: 'Geladeira Vacinas', lastSyncDate: '2024-03-01T15:00:00.000Z', temperature: 5, humidity: 60.5, battery: 45, config: LIMITS });
    open('/my-devices', 2, () => jsonResponse([fridge, makeDevice(2)]));
    const card = (await screen.findByText('Geladeira Vacinas')).closest('[data-testid="device-row-card"]') as HTMLElement;
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByTestId('device-row-card')).toHaveLength(2);
    expect(card.dataset.state).toBe('normal');
    expect(within(card).getByText('AA:BB:CC:DD:EE:01')).toBeTruthy();
    expect(within(card).getByText('5,00 °C')).toBeTruthy();
    expect(within(card).getByText('60,50 %')).toBeTruthy();
    expect(within(card).getByText('45%')).toBeTruthy();
    expect(within(card).getByTestId('card-battery').dataset.level).toBe('half');
    expect(within(card).getByText('Último sincronismo: 01/03/2024 12:00:00')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Alterar Nome' })).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Histórico' }).getAttribute('href')).toBe(`/device-history/AA%3ABB%3ACC%3ADD%3AEE%3A01/${fridge._id}`);
    expect(within(card).getByRole('button', { name: 'Clique para ver' })).toBeTruthy();

    // A reading above the maximum turns the card hot; one equal to the limit keeps it so (spec 001 §4).
    const socket = await feed();
    act(() => socket.receive('location-devices', [state(fridge, { temperature: 9.5, battery: 100, lastSyncDate: '2024-03-01T15:05:00.000Z' })]));
    await waitFor(() => expect(card.dataset.state).toBe('hot'));
    expect(within(card).getByText('9,50 °C')).toBeTruthy();
    expect(within(card).getByTestId('card-battery').dataset.level).toBe('full');
    act(() => socket.receive('location-devices', [state(fridge, { temperature: 8, lastSyncDate: '2024-03-01T15:06:00.000Z' })]));
    await waitFor(() => expect(within(card).getByText('8,00 °C')).toBeTruthy());
    expect(card.dataset.state).toBe('hot');
  });

  it('says "Sem dados há …" on a silent device\'s card, and a new reading clears it', async () => {
    asPhone();
    vi.useFakeTimers({ now: Date.parse('2024-03-01T16:00:00.000Z'), shouldAdvanceTime: true });
    const fridge = makeDevice(1, { lastSyncDate: '2024-03-01T15:00:00.000Z', expectedIntervalSeconds: 60, temperature: 5, config: LIMITS });
    open('/my-devices', 3, () => jsonResponse([fridge]));
    expect(await screen.findByText(/^Sem dados há/)).toBeTruthy();
    const card = screen.getByTestId('device-row-card');
    expect(card.dataset.state).toBe('silent');

    const socket = await feed();
    act(() => socket.receive('location-devices', [state(fridge, { temperature: 4, lastSyncDate: '2024-03-01T16:00:00.000Z' })]));
    await waitFor(() => expect(screen.queryByTestId('device-silence')).toBeNull());
    expect(card.dataset.state).toBe('normal');
  });

  it('searches, sorts and pages the cards as the table does, and says "Nada encontrado..."', async () => {
    asPhone();
    open('/my-devices', 1, () => jsonResponse(Array.from({ length: 12 }, (_, i) => makeDevice(i + 1))));
    await screen.findByText('Sensor 01');
    expect(screen.getAllByTestId('device-row-card')).toHaveLength(10);
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(screen.getAllByTestId('device-row-card').map((c) => c.dataset.mac)).toEqual(['AA:BB:CC:DD:EE:11', 'AA:BB:CC:DD:EE:12']);

    const sortBar = screen.getByTestId('cards-sort');
    await userEvent.click(within(sortBar).getByRole('button', { name: /Data de criação/ }));
    await userEvent.click(within(sortBar).getByRole('button', { name: /Data de criação/ }));
    expect(screen.getAllByTestId('device-row-card')[0]?.dataset.mac).toBe('AA:BB:CC:DD:EE:12');

    await userEvent.type(screen.getByPlaceholderText('Pesquisar dispositivos'), 'inexistente');
    expect(screen.getByText('Nada encontrado...')).toBeTruthy();
    expect(screen.queryAllByTestId('device-row-card')).toHaveLength(0);
  });
});
