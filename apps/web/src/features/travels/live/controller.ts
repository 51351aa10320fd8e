import {
  SESSION_EXPIRED_CODE,
  SubscribeAck,
  travelTopics,
  TravelDevicesEvent,
  TravelLocationEvent,
  type LatLng,
  type Travel,
  type TravelDevice,
  type TravelLocation,
} from '@sentinela/contract';
import type { QueryClient } from '@tanstack/react-query';
import { isTravel, travelKeys } from '../api/keys';

/**
 * The one live-updates controller of the web app (T6), after traccar-web: it owns the Socket.IO connection, joins the
 * rooms of the travels on screen, and writes what arrives into the TanStack Query cache; screens only read the cache.
 * Bursts are batched (one cache write per travel per flush), and after a reconnect the travel snapshots are refetched,
 * since updates sent while the connection was down are lost.
 */

/** What the controller needs of a Socket.IO client socket (a fake one in unit tests). */
export interface LiveSocket {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener?: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

/** A travel to follow: signed-in users join its room by id; visitors by the tracking code. */
export interface TravelTarget {
  travelId: string;
  code?: string;
}

export type LiveStatus = 'connecting' | 'live' | 'refused' | 'offline';

export interface LiveState {
  status: LiveStatus;
  /** The server's message when the subscription was refused. */
  error?: string;
}

export type SocketFactory = (token: string | null) => LiveSocket;
export type Scheduler = (flush: () => void) => () => void;

/** Client → server events of the contract. */
export const SUBSCRIBE_EVENT = 'subscribe';
export const UNSUBSCRIBE_EVENT = 'unsubscribe';

/** Bursts within this window become one cache write. */
export const BATCH_MS = 100;

const defaultScheduler: Scheduler = (flush) => {
  const timer = setTimeout(flush, BATCH_MS);
  return () => clearTimeout(timer);
};

interface Tracked {
  target: TravelTarget;
  count: number;
  listeners: Set<(state: LiveState) => void>;
  state: LiveState;
  /** The device list, and the newest position beside it when a device moved (ADR 47). */
  onDevices: (payload: unknown, position?: unknown) => void;
  onLocation: (payload: unknown) => void;
  onChanged: () => void;
  /** The newest device list received since the last flush (each message replaces the list). */
  pendingDevices: TravelDevice[] | null;
  /** Positions received since the last flush, oldest first. */
  pendingLocations: TravelLocationEvent[];
}

type TravelLocationEvent = ReturnType<typeof TravelLocationEvent.parse>;

export interface TravelLiveControllerOptions {
  queryClient: QueryClient;
  createSocket: SocketFactory;
  getToken: () => string | null;
  schedule?: Scheduler;
  /**
   * How long the connection stays open once nothing is followed (0: closes at once). Going from one travel screen
   * to another, or React's StrictMode re-running effects, then reuses it.
   */
  idleCloseMs?: number;
  /** The server refused the socket's session (expired, logged out elsewhere, user deactivated). */
  onSessionRefused?: () => void;
}

export class TravelLiveController {
  private readonly queryClient: QueryClient;
  private readonly createSocket: SocketFactory;
  private readonly getToken: () => string | null;
  private readonly schedule: Scheduler;
  private socket: LiveSocket | null = null;
  private socketToken: string | null = null;
  private connectedOnce = false;
  private readonly tracked = new Map<string, Tracked>();
  private cancelFlush: (() => void) | null = null;
  private readonly idleCloseMs: number;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly onSessionRefused: () => void;

  constructor(options: TravelLiveControllerOptions) {
    this.queryClient = options.queryClient;
    this.createSocket = options.createSocket;
    this.getToken = options.getToken;
    this.schedule = options.schedule ?? defaultScheduler;
    this.idleCloseMs = options.idleCloseMs ?? 0;
    this.onSessionRefused = options.onSessionRefused ?? (() => {});
  }

  /** Follows a travel until the returned function is called; `onState` hears the subscription's state. */
  track(target: TravelTarget, onState?: (state: LiveState) => void): () => void {
    this.cancelIdleClose();
    this.ensureSocket();
    let entry = this.tracked.get(target.travelId);
    if (!entry) {
      entry = this.createEntry(target);
      this.tracked.set(target.travelId, entry);
      this.listen(entry);
      this.subscribe(entry);
    }
    entry.count += 1;
    if (onState) {
      entry.listeners.add(onState);
      onState(entry.state);
    }
    const tracked = entry;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (onState) tracked.listeners.delete(onState);
      tracked.count -= 1;
      if (tracked.count === 0) this.untrack(tracked);
    };
  }

  /** Closes the connection and forgets every subscription (sign-out). */
  close(): void {
    for (const entry of [...this.tracked.values()]) this.untrack(entry);
    this.cancelIdleClose();
    this.dropSocket();
  }

  /** Writes what is pending now (tests; the scheduler calls it otherwise). */
  flush = (): void => {
    this.cancelFlush = null;
    for (const entry of this.tracked.values()) this.flushEntry(entry);
  };

  private createEntry(target: TravelTarget): Tracked {
    const entry: Tracked = {
      target,
      count: 0,
      listeners: new Set(),
      state: { status: 'connecting' },
      pendingDevices: null,
      pendingLocations: [],
      onDevices: (payload, position) => {
        const parsed = TravelDevicesEvent.safeParse(payload);
        if (!parsed.success) return;
        entry.pendingDevices = parsed.data;
        if (position !== undefined) entry.onLocation(position);
        this.requestFlush();
      },
      onLocation: (payload) => {
        const parsed = TravelLocationEvent.safeParse(payload);
        if (!parsed.success) return;
        entry.pendingLocations.push(parsed.data);
        this.requestFlush();
      },
      // Status, places or devices changed: the cards alone do not say, so the travel and the list are reloaded.
      onChanged: () => void this.refetchTravel(target.travelId),
    };
    return entry;
  }

  private ensureSocket(): void {
    const token = this.getToken();
    // A session that began or ended since the socket opened: reconnect with the current credentials.
    if (this.socket && token !== this.socketToken) {
      this.dropSocket();
    }
    if (this.socket) return;
    this.socketToken = token;
    this.connectedOnce = false;
    const socket = this.createSocket(token);
    this.socket = socket;
    socket.on('connect', this.onConnect);
    socket.on('disconnect', this.onDisconnect);
    socket.on('connect_error', this.onConnectError);
    for (const entry of this.tracked.values()) this.listen(entry);
  }

  private dropSocket(): void {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.off('connect', this.onConnect);
    socket.off('disconnect', this.onDisconnect);
    socket.off('connect_error', this.onConnectError);
    for (const entry of this.tracked.values()) this.unlisten(socket, entry);
    socket.disconnect();
  }

  private listen(entry: Tracked): void {
    if (!this.socket) return;
    this.socket.on(travelTopics.devices(entry.target.travelId), entry.onDevices);
    this.socket.on(travelTopics.location(entry.target.travelId), entry.onLocation);
    this.socket.on(travelTopics.changed(entry.target.travelId), entry.onChanged);
  }

  private unlisten(socket: LiveSocket, entry: Tracked): void {
    socket.off(travelTopics.devices(entry.target.travelId), entry.onDevices);
    socket.off(travelTopics.location(entry.target.travelId), entry.onLocation);
    socket.off(travelTopics.changed(entry.target.travelId), entry.onChanged);
  }

  /** Joins the travel's room; Socket.IO buffers the emit until the socket is connected. */
  private subscribe(entry: Tracked): void {
    if (!this.socket) return;
    const { travelId, code } = entry.target;
    this.socket.emit(SUBSCRIBE_EVENT, code ? { code } : { travelId }, (answer: unknown) => {
      if (this.tracked.get(travelId) !== entry) return;
      const ack = SubscribeAck.safeParse(answer);
      if (!ack.success) this.setState(entry, { status: 'refused', error: 'Resposta inesperada do servidor.' });
      else if (ack.data.ok) this.setState(entry, { status: 'live' });
      else this.setState(entry, { status: 'refused', error: ack.data.error });
    });
  }

  private untrack(entry: Tracked): void {
    const { travelId } = entry.target;
    this.tracked.delete(travelId);
    entry.listeners.clear();
    if (this.socket) {
      this.unlisten(this.socket, entry);
      // Leaving is by travel id, however the room was joined.
      this.socket.emit(UNSUBSCRIBE_EVENT, { travelId });
    }
    if (this.tracked.size === 0) {
      this.cancelFlush?.();
      this.cancelFlush = null;
      if (this.idleCloseMs <= 0) this.dropSocket();
      else this.idleTimer = setTimeout(() => this.dropSocket(), this.idleCloseMs);
    }
  }

  private cancelIdleClose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private readonly onConnect = (): void => {
    const reconnect = this.connectedOnce;
    this.connectedOnce = true;
    if (!reconnect) return;
    // The server forgot our rooms with the old connection: join again, and reload what was missed meanwhile.
    for (const entry of this.tracked.values()) {
      this.subscribe(entry);
      void this.refetchSnapshot(entry.target.travelId);
    }
  };

  private readonly onDisconnect = (reason?: string): void => {
    for (const entry of this.tracked.values()) {
      if (entry.state.status !== 'refused') this.setState(entry, { status: 'offline' });
    }
    // The server closed the socket (it does when the session ends) and Socket.IO will not retry by itself: one
    // attempt tells a passing restart from an ended session, which the handshake then refuses.
    if (reason === 'io server disconnect') this.socket?.connect();
  };

  private readonly onConnectError = (err?: { data?: { code?: string } }): void => {
    this.onDisconnect();
    if (err?.data?.code === SESSION_EXPIRED_CODE && this.socketToken !== null) {
      this.close();
      this.onSessionRefused();
    }
  };

  private setState(entry: Tracked, state: LiveState): void {
    entry.state = state;
    for (const listener of entry.listeners) listener(state);
  }

  private requestFlush(): void {
    if (this.cancelFlush) return;
    this.cancelFlush = this.schedule(this.flush);
  }

  private flushEntry(entry: Tracked): void {
    const travelId = entry.target.travelId;
    const devices = entry.pendingDevices;
    const locations = entry.pendingLocations;
    entry.pendingDevices = null;
    entry.pendingLocations = [];
    if (!devices && locations.length === 0) return;

    const last = locations.at(-1);
    this.patchTravel(travelId, (travel) => ({
      ...travel,
      ...(devices ? { devices } : {}),
      ...(last ? { last_position: last.last_position } : {}),
    }));
    if (locations.length > 0) this.appendLocations(travelId, locations);
  }

  /** Every cached copy of the travel (by id, by code) gets the update. */
  private patchTravel(travelId: string, update: (travel: Travel) => Travel): void {
    this.queryClient.setQueriesData<Travel>(
      { queryKey: travelKeys.all, predicate: (query) => isTravel(query.state.data, travelId) },
      (travel) => (travel && isTravel(travel, travelId) ? update(travel) : travel),
    );
  }

  /** The travelled path grows with each position, when it is loaded. */
  private appendLocations(travelId: string, events: TravelLocationEvent[]): void {
    this.queryClient.setQueryData<TravelLocation[]>(travelKeys.locations(travelId), (path) => {
      if (!path) return path;
      const next = [...path];
      for (const event of events) {
        const point = { createdAt: event.createdAt, location: event.last_position as LatLng, mac: event.mac };
        const previous = next.at(-1);
        if (previous && previous.createdAt === point.createdAt && previous.mac === point.mac) continue;
        next.push(point);
      }
      return next;
    });
  }

  private refetchSnapshot(travelId: string): Promise<unknown> {
    return Promise.all([this.refetchTravel(travelId), this.queryClient.invalidateQueries({ queryKey: travelKeys.locations(travelId) })]);
  }

  /** Every cached copy of the travel, and the list that shows its status. */
  private refetchTravel(travelId: string): Promise<unknown> {
    return Promise.all([
      this.queryClient.invalidateQueries({ queryKey: travelKeys.all, predicate: (query) => isTravel(query.state.data, travelId) }),
      this.queryClient.invalidateQueries({ queryKey: travelKeys.list }),
    ]);
  }
}
