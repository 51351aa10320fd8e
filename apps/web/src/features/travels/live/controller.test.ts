import type { Travel, TravelLocation } from '@sentinela/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { travelKeys } from '../api/keys';
import { makeTravel, makeTravelDevice, TRAVEL_ID } from '../test-fixtures';
import { TravelLiveController, type LiveSocket, type LiveState } from './controller';

type Listener = (...args: never[]) => void;
type Callback = (...args: unknown[]) => void;

/** A Socket.IO client socket stand-in: records emits, lets the test play the server. */
class FakeSocket implements LiveSocket {
  readonly listeners = new Map<string, Set<Listener>>();
  readonly emitted: { event: string; payload: unknown; ack?: Callback }[] = [];
  disconnected = false;
  connects = 0;

  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event: string, listener?: Listener) {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }
  emit(event: string, payload?: unknown, ack?: unknown) {
    this.emitted.push({ event, payload, ack: ack as Callback | undefined });
    return this;
  }
  connect() {
    this.connects += 1;
    return this;
  }
  disconnect() {
    this.disconnected = true;
    return this;
  }
  /** The server sends an event. */
  serve(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) (listener as Callback)(...args);
  }
}

function setup(token: string | null = 'token-1', onSessionRefused?: () => void) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const sockets: { socket: FakeSocket; token: string | null }[] = [];
  const flushes: (() => void)[] = [];
  const controller = new TravelLiveController({
    queryClient,
    getToken: () => token,
    createSocket: (t) => {
      const socket = new FakeSocket();
      sockets.push({ socket, token: t });
      return socket;
    },
    onSessionRefused,
    // Batches flush when the test says so (the app waits 100 ms).
    schedule: (flush) => {
      flushes.push(flush);
      return () => flushes.splice(flushes.indexOf(flush), 1);
    },
  });
  const runFlush = () => flushes.splice(0).forEach((flush) => flush());
  return { queryClient, controller, sockets, flushes, runFlush, socket: () => sockets.at(-1)!.socket };
}

const location = (lat: number, lng: number, second: number) => ({
  travelId: TRAVEL_ID,
  last_position: [lat, lng],
  mac: 'C3:00:00:00:01:01',
  createdAt: `2024-03-01T15:31:${String(second).padStart(2, '0')}.000Z`,
});

describe('travel live controller (T6)', () => {
  it('connects with the session token and subscribes by travel id, reading the ack', () => {
    const { controller, sockets, socket } = setup('token-1');
    const states: LiveState[] = [];
    controller.track({ travelId: TRAVEL_ID }, (state) => states.push(state));

    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.token).toBe('token-1');
    const subscribe = socket().emitted.find((e) => e.event === 'subscribe')!;
    expect(subscribe.payload).toEqual({ travelId: TRAVEL_ID });
    expect(states.at(-1)).toEqual({ status: 'connecting' });

    subscribe.ack!({ ok: true, travelId: TRAVEL_ID });
    expect(states.at(-1)).toEqual({ status: 'live' });
  });

  it('visitors subscribe with the tracking code; a refusal carries the server message', () => {
    const { controller, sockets, socket } = setup(null);
    const states: LiveState[] = [];
    controller.track({ travelId: TRAVEL_ID, code: 'AUR7K2M9QX' }, (state) => states.push(state));
    expect(sockets[0]!.token).toBeNull();
    const subscribe = socket().emitted.find((e) => e.event === 'subscribe')!;
    expect(subscribe.payload).toEqual({ code: 'AUR7K2M9QX' });
    subscribe.ack!({ ok: false, error: 'Esta viagem já foi finalizada.' });
    expect(states.at(-1)).toEqual({ status: 'refused', error: 'Esta viagem já foi finalizada.' });
  });

  it('batches a burst into one cache write: the newest device list replaces the cached one', () => {
    const { controller, queryClient, socket, flushes, runFlush } = setup();
    const travel = makeTravel();
    queryClient.setQueryData(travelKeys.detail(TRAVEL_ID), travel);
    queryClient.setQueryData(travelKeys.localizator('AUR7K2M9QX'), travel);
    controller.track({ travelId: TRAVEL_ID });
    const writes = vi.fn();
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => event.type === 'updated' && writes());

    for (let i = 1; i <= 5; i++) {
      socket().serve(`travel-logs:${TRAVEL_ID}`, [makeTravelDevice({ temperature: { value: i } })]);
    }
    expect(flushes).toHaveLength(1);
    // Nothing written before the flush.
    expect(queryClient.getQueryData<Travel>(travelKeys.detail(TRAVEL_ID))!.devices[0]!.temperature.value).toBe(4.5);

    runFlush();
    // Every cached copy of the travel (by id and by code) got the last list, once each.
    expect(queryClient.getQueryData<Travel>(travelKeys.detail(TRAVEL_ID))!.devices[0]!.temperature.value).toBe(5);
    expect(queryClient.getQueryData<Travel>(travelKeys.localizator('AUR7K2M9QX'))!.devices[0]!.temperature.value).toBe(5);
    expect(writes).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('moves the last position to the newest location and grows the travelled path', () => {
    const { controller, queryClient, socket, runFlush } = setup();
    queryClient.setQueryData(travelKeys.detail(TRAVEL_ID), makeTravel());
    const path: TravelLocation[] = [{ createdAt: '2024-03-01T15:30:00.000Z', location: [-23.3, -45.2], mac: 'C3:00:00:00:01:01' }];
    queryClient.setQueryData(travelKeys.locations(TRAVEL_ID), path);
    controller.track({ travelId: TRAVEL_ID });

    socket().serve(`travel-location-logs:${TRAVEL_ID}`, location(-23.1, -45.1, 1));
    socket().serve(`travel-location-logs:${TRAVEL_ID}`, location(-23.0, -45.0, 2));
    runFlush();

    const travel = queryClient.getQueryData<Travel>(travelKeys.detail(TRAVEL_ID))!;
    expect(travel.last_position).toEqual([-23.0, -45.0]);
    // Devices untouched by a location message.
    expect(travel.devices[0]!.temperature.value).toBe(4.5);
    expect(queryClient.getQueryData<TravelLocation[]>(travelKeys.locations(TRAVEL_ID))!.map((p) => p.location)).toEqual([
      [-23.3, -45.2],
      [-23.1, -45.1],
      [-23.0, -45.0],
    ]);
  });

  it('takes the position that comes beside the device list in one message (ADR 47)', () => {
    const { controller, queryClient, socket, runFlush } = setup();
    queryClient.setQueryData(travelKeys.detail(TRAVEL_ID), makeTravel());
    queryClient.setQueryData(travelKeys.locations(TRAVEL_ID), [{ createdAt: '2024-03-01T15:30:00.000Z', location: [-23.3, -45.2], mac: 'C3:00:00:00:01:01' }] satisfies TravelLocation[]);
    controller.track({ travelId: TRAVEL_ID });

    socket().serve(`travel-logs:${TRAVEL_ID}`, [makeTravelDevice({ temperature: { value: 7 } })], location(-23.1, -45.1, 1));
    // A malformed position does not cost the device list it came with.
    socket().serve(`travel-logs:${TRAVEL_ID}`, [makeTravelDevice({ temperature: { value: 8 } })], { last_position: 'x' });
    runFlush();

    const travel = queryClient.getQueryData<Travel>(travelKeys.detail(TRAVEL_ID))!;
    expect(travel.devices[0]!.temperature.value).toBe(8);
    expect(travel.last_position).toEqual([-23.1, -45.1]);
    expect(queryClient.getQueryData<TravelLocation[]>(travelKeys.locations(TRAVEL_ID))!.map((p) => p.location)).toEqual([
      [-23.3, -45.2],
      [-23.1, -45.1],
    ]);
  });

  it('ignores malformed payloads and other travels', () => {
    const { controller, queryClient, socket, flushes } = setup();
    queryClient.setQueryData(travelKeys.detail(TRAVEL_ID), makeTravel());
    controller.track({ travelId: TRAVEL_ID });
    socket().serve(`travel-logs:${TRAVEL_ID}`, { not: 'a list' });
    socket().serve(`travel-location-logs:${TRAVEL_ID}`, { last_position: 'x' });
    socket().serve('travel-logs:another', [makeTravelDevice()]);
    expect(flushes).toHaveLength(0);
  });

  it('after a reconnect, joins again and refetches the travel snapshot', async () => {
    const { controller, queryClient, socket } = setup();
    const fetchTravel = vi.fn(async () => makeTravel());
    // A query observer keeps the travel active, as the screen does.
    const observer = new QueryObserver(queryClient, { queryKey: travelKeys.detail(TRAVEL_ID), queryFn: fetchTravel });
    const unobserve = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBeDefined());
    controller.track({ travelId: TRAVEL_ID });

    socket().serve('connect');
    expect(fetchTravel).toHaveBeenCalledTimes(1);
    socket().serve('disconnect', 'transport close');
    socket().serve('connect');

    const subscribes = socket().emitted.filter((e) => e.event === 'subscribe');
    expect(subscribes).toHaveLength(2);
    await vi.waitFor(() => expect(fetchTravel).toHaveBeenCalledTimes(2));
    unobserve();
  });

  it('reloads the travel and the list when the server says the travel changed (a status is not in the cards)', async () => {
    const { controller, queryClient, socket } = setup();
    const fetchTravel = vi.fn(async () => makeTravel());
    const fetchList = vi.fn(async () => [makeTravel()]);
    const observers = [
      new QueryObserver(queryClient, { queryKey: travelKeys.detail(TRAVEL_ID), queryFn: fetchTravel }),
      new QueryObserver(queryClient, { queryKey: travelKeys.list, queryFn: fetchList }),
    ];
    const unobserve = observers.map((o) => o.subscribe(() => {}));
    await vi.waitFor(() => expect(observers.every((o) => o.getCurrentResult().data)).toBe(true));
    controller.track({ travelId: TRAVEL_ID });

    socket().serve(`travel-changed:${TRAVEL_ID}`, { travelId: TRAVEL_ID });
    await vi.waitFor(() => expect(fetchTravel).toHaveBeenCalledTimes(2));
    expect(fetchList).toHaveBeenCalledTimes(2);
    unobserve.forEach((off) => off());
  });

  it('when the server closes the socket, tries once more; a refused session ends it and tells the app', () => {
    const refused = vi.fn();
    const { controller, socket } = setup('token-1', refused);
    const states: LiveState[] = [];
    controller.track({ travelId: TRAVEL_ID }, (state) => states.push(state));
    socket().serve('connect');
    socket().serve('disconnect', 'io server disconnect');
    expect(states.at(-1)).toEqual({ status: 'offline' });
    expect(socket().connects).toBe(1);

    socket().serve('connect_error', Object.assign(new Error('Sua sessão expirou'), { data: { code: 'SESSION_EXPIRED' } }));
    expect(refused).toHaveBeenCalledTimes(1);
    expect(socket().disconnected).toBe(true);
  });

  it('a connection error that is not about the session only marks the travel offline', () => {
    const refused = vi.fn();
    const { controller, socket } = setup('token-1', refused);
    const states: LiveState[] = [];
    controller.track({ travelId: TRAVEL_ID }, (state) => states.push(state));
    socket().serve('connect_error', new Error('xhr poll error'));
    expect(states.at(-1)).toEqual({ status: 'offline' });
    expect(refused).not.toHaveBeenCalled();
    expect(socket().disconnected).toBe(false);
  });

  it('leaves the room when the tracked travel changes, and closes the socket when nothing is tracked', () => {
    const { controller, socket, runFlush, queryClient } = setup();
    queryClient.setQueryData(travelKeys.detail(TRAVEL_ID), makeTravel());
    const stop = controller.track({ travelId: TRAVEL_ID });
    const other = '9b0c6a52-0000-4000-8000-000000000002';
    const stopOther = controller.track({ travelId: other });
    stop();
    expect(socket().emitted.filter((e) => e.event === 'unsubscribe').map((e) => e.payload)).toEqual([{ travelId: TRAVEL_ID }]);
    // Messages of the left travel are no longer written.
    socket().serve(`travel-logs:${TRAVEL_ID}`, [makeTravelDevice({ temperature: { value: 99 } })]);
    runFlush();
    expect(queryClient.getQueryData<Travel>(travelKeys.detail(TRAVEL_ID))!.devices[0]!.temperature.value).toBe(4.5);
    expect(socket().disconnected).toBe(false);
    stopOther();
    expect(socket().disconnected).toBe(true);
  });

  it('with a grace period, a screen that follows a travel again soon reuses the connection', () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    const sockets: FakeSocket[] = [];
    const controller = new TravelLiveController({
      queryClient,
      getToken: () => 'token-1',
      createSocket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
      idleCloseMs: 3000,
    });
    controller.track({ travelId: TRAVEL_ID })();
    const again = controller.track({ travelId: TRAVEL_ID });
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.disconnected).toBe(false);
    again();
    vi.advanceTimersByTime(2999);
    expect(sockets[0]!.disconnected).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sockets[0]!.disconnected).toBe(true);
  });

  it('two screens on one travel share the subscription', () => {
    const { controller, socket } = setup();
    const a = controller.track({ travelId: TRAVEL_ID });
    const b = controller.track({ travelId: TRAVEL_ID });
    expect(socket().emitted.filter((e) => e.event === 'subscribe')).toHaveLength(1);
    a();
    expect(socket().emitted.filter((e) => e.event === 'unsubscribe')).toHaveLength(0);
    b();
    expect(socket().emitted.filter((e) => e.event === 'unsubscribe')).toHaveLength(1);
  });

  it('a new session reconnects with its token', () => {
    let token: string | null = null;
    const queryClient = new QueryClient();
    const tokens: (string | null)[] = [];
    const sockets: FakeSocket[] = [];
    const controller = new TravelLiveController({
      queryClient,
      getToken: () => token,
      createSocket: (t) => {
        tokens.push(t);
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
    });
    const stop = controller.track({ travelId: TRAVEL_ID, code: 'AUR7K2M9QX' });
    token = 'token-2';
    controller.track({ travelId: '9b0c6a52-0000-4000-8000-000000000002' });
    expect(tokens).toEqual([null, 'token-2']);
    expect(sockets[0]!.disconnected).toBe(true);
    // The earlier travel is followed on the new socket too.
    expect(sockets[1]!.listeners.has(`travel-logs:${TRAVEL_ID}`)).toBe(true);
    stop();
  });
});
