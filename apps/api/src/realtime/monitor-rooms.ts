import type { Namespace, Socket } from 'socket.io';
import { MONITOR_LINK_MESSAGES, monitorTopics, MSG, type MonitorSnapshotAck } from '@sentinela/contract';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import type { ClientMeta } from '../modules/auth/session-service';
import type { MonitorLinkService } from '../modules/monitor-links/service';
import type { AlarmChangedEvent, ReadingsStoredEvent } from './event-bus';
import type { Limit } from '../lib/rate-limits/rate-limits';
import { clientAddress, type RealtimeServer } from './socket-auth';
import { FLOOD_FACTOR } from './travel-rooms';

/**
 * Live monitors of wall displays (ADR 26), in their own Socket.IO namespace so that nothing of the signed-in rooms
 * (sessions, travels, Locais) is reachable with a monitor token. The handshake carries the link's token; a socket
 * joins its link's room and one room per device and travel the link shows. When a reading, an alarm or a travel of
 * those changes, the rooms get `monitor-changed` (one emit per stored batch, whatever the number of devices) and the
 * page asks for a `snapshot` through the socket: the data goes only to who holds the link, and the page's opening
 * (HTTP) and its connection are the uses written to the access log, never each update.
 */
export const monitorLinkRoom = (linkId: string) => `link:${linkId}`;
export const monitorDeviceRoom = (deviceId: string) => `device:${deviceId}`;
export const monitorTravelRoom = (travelId: string) => `travel:${travelId}`;

/** A timer cannot wait longer than ~24.8 days; longer expiries are checked again after a day. */
const MAX_TIMER_MS = 24 * 60 * 60 * 1000;

interface MonitorSocketData {
  linkId: string;
  rooms: Set<string>;
  messages: { windowStart: number; count: number };
}

interface MonitorClientEvents {
  snapshot: (payload: unknown, ack?: (answer: MonitorSnapshotAck) => void) => void;
}

type MonitorNamespace = Namespace<MonitorClientEvents, Record<string, (payload: unknown) => void>, Record<string, never>, MonitorSocketData>;
type MonitorSocket = Socket<MonitorClientEvents, Record<string, (payload: unknown) => void>, Record<string, never>, MonitorSocketData>;

interface Deps {
  links: MonitorLinkService;
  /** Token lookups per address and minute. */
  lookups: Limit;
  /** snapshot requests per socket and minute. */
  messagesPerMinute: number;
  trustProxy: boolean;
  clock: Clock;
  log: { error(obj: unknown, msg: string): void };
}

/** A refused handshake: the client's `connect_error` carries the message, a code and the HTTP status it stands for. */
function refusal(err: AppError): Error {
  return Object.assign(new Error(err.message), { data: { code: err.code, status: err.statusCode, error: err.message } });
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value.slice(0, 100) : null);

export class MonitorRooms {
  private readonly nsp: MonitorNamespace;
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    io: RealtimeServer,
    private readonly deps: Deps,
  ) {
    this.nsp = io.of(monitorTopics.namespace) as unknown as MonitorNamespace;
  }

  attach(): void {
    this.nsp.use((socket, next) => {
      const ip = clientAddress(socket.handshake.headers, socket.handshake.address, this.deps.trustProxy);
      const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
      this.deps.lookups.consume(ip).then((answer) => {
        if (!answer.allowed) return next(refusal(new AppError('TOO_MANY_REQUESTS', MONITOR_LINK_MESSAGES.tooManyLookups)));
        if (typeof auth.token !== 'string') return next(refusal(new AppError('UNAUTHENTICATED', MONITOR_LINK_MESSAGES.invalid)));
        // Browsers cannot set headers on a WebSocket: the client headers of P4 come in the handshake's auth.
        const meta: ClientMeta = { client: text(auth.client), clientVersion: text(auth.clientVersion), clientOs: text(auth.clientOs), ip };
        return this.deps.links.open(auth.token, meta, 'live').then((link) => {
          socket.data.linkId = link.id;
          socket.data.rooms = new Set();
          socket.data.messages = { windowStart: -Infinity, count: 0 };
          this.scheduleExpiry(socket, link.expires_at);
          next();
        });
      }).catch((err: unknown) => {
        if (err instanceof AppError) return next(refusal(err));
        this.deps.log.error({ err }, 'monitor socket authentication failed');
        next(refusal(new AppError('INTERNAL', MSG.internalError)));
      });
    });

    this.nsp.on('connection', (socket) => {
      void socket.join(monitorLinkRoom(socket.data.linkId));
      void this.joinTargets(socket);
      socket.on('disconnect', () => {
        clearTimeout(this.timers.get(socket.id));
        this.timers.delete(socket.id);
      });
      socket.on('snapshot', (_payload, ack) => {
        const reply = typeof ack === 'function' ? ack : () => {};
        if (!this.withinBudget(socket)) return reply({ ok: false, status: 429, error: MSG.tooManyRequests });
        this.snapshot(socket).then(reply, (err: unknown) => {
          this.deps.log.error({ err }, 'monitor snapshot failed');
          reply({ ok: false, status: 500, error: MSG.internalError });
        });
      });
    });
  }

  /** After a stored batch: the monitors of its devices (and of their travels) are told to refresh. */
  readingsStored(event: ReadingsStoredEvent, watched: (room: string) => boolean): void {
    const rooms = new Set<string>();
    for (const device of event.devices) {
      rooms.add(monitorDeviceRoom(device.deviceId));
      if (device.travelId) rooms.add(monitorTravelRoom(device.travelId));
    }
    this.nudge(rooms, watched);
  }

  alarmChanged(event: AlarmChangedEvent, watched: (room: string) => boolean): void {
    const rooms = new Set([monitorDeviceRoom(event.deviceId)]);
    if (event.travelId) rooms.add(monitorTravelRoom(event.travelId));
    this.nudge(rooms, watched);
  }

  /** A travel's devices or status changed: its monitors refresh (and re-join the rooms of its devices). */
  travelChanged(travelId: string, watched: (room: string) => boolean): void {
    this.nudge(new Set([monitorTravelRoom(travelId)]), watched);
  }

  /** A revoked link's monitors close now (through the adapter, on every server); the page then says why. */
  revoked(linkId: string): void {
    this.nsp.in(monitorLinkRoom(linkId)).disconnectSockets(true);
  }

  /** Whether any socket of this process is in the room. */
  hasRoom(room: string): boolean {
    return this.nsp.adapter.rooms.has(room);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.nsp.local.disconnectSockets(true);
  }

  private nudge(rooms: Set<string>, watched: (room: string) => boolean): void {
    const targets = [...rooms].filter(watched);
    // One emit for all rooms: a socket in several of them gets it once.
    if (targets.length > 0) this.nsp.to(targets).emit(monitorTopics.changed, {});
  }

  private async snapshot(socket: MonitorSocket): Promise<MonitorSnapshotAck> {
    try {
      const link = await this.deps.links.current(socket.data.linkId);
      const view = await this.deps.links.view(link);
      await this.joinTargets(socket);
      return { ok: true, view };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Revoked or expired meanwhile: the answer says so (the page then closes its socket; closing it here could
      // drop the answer before it is written).
      return { ok: false, status: err.statusCode, error: err.message };
    }
  }

  /** Joins the rooms of what the link shows now (a travel may have gained or lost devices) and leaves the rest. */
  private async joinTargets(socket: MonitorSocket): Promise<void> {
    try {
      const link = await this.deps.links.current(socket.data.linkId);
      const targets = await this.deps.links.targets(link);
      const next = new Set([...targets.deviceIds.map(monitorDeviceRoom), ...targets.travelIds.map(monitorTravelRoom)]);
      if (socket.disconnected) return;
      for (const room of socket.data.rooms) if (!next.has(room)) void socket.leave(room);
      socket.data.rooms = next;
      await socket.join([...next]);
    } catch (err) {
      if (err instanceof AppError) socket.disconnect(true);
      else this.deps.log.error({ err }, 'monitor rooms not joined');
    }
  }

  private withinBudget(socket: MonitorSocket): boolean {
    const budget = socket.data.messages;
    const now = Date.now();
    if (now - budget.windowStart >= 60_000) {
      budget.windowStart = now;
      budget.count = 0;
    }
    budget.count++;
    if (budget.count > this.deps.messagesPerMinute * FLOOD_FACTOR) socket.disconnect(true);
    return budget.count <= this.deps.messagesPerMinute;
  }

  /** Closes the socket when its link expires (checked again by then: the link may have been revoked already). */
  private scheduleExpiry(socket: MonitorSocket, expiresAt: Date): void {
    clearTimeout(this.timers.get(socket.id));
    const remaining = expiresAt.getTime() - this.deps.clock.now().getTime();
    const timer = setTimeout(() => {
      if (remaining > MAX_TIMER_MS) return this.scheduleExpiry(socket, expiresAt);
      socket.disconnect(true);
    }, Math.max(1000, Math.min(remaining + 500, MAX_TIMER_MS)));
    timer.unref();
    this.timers.set(socket.id, timer);
  }
}
