import type { Server, Socket } from 'socket.io';
import { MSG, SESSION_EXPIRED_CODE } from '@sentinela/contract';
import type { Clock } from '../lib/clock';
import type { TenantScope } from '../lib/tenant-scope';
import type { SessionService } from '../modules/auth/session-service';
import { scopeOf } from '../plugins/auth';
import type { AccessChangedEvent, SessionsEndedEvent } from './event-bus';

/** A signed-in socket: its session (by token, as HTTP) and what it may see. */
export interface SocketAuth {
  token: string;
  sessionId: string;
  userId: string;
  enterpriseId: string | null;
  scope: TenantScope;
  expiresAt: Date;
}

export interface SocketData {
  /** null for visitors, who may follow a travel by its tracking code only. */
  auth: SocketAuth | null;
  /** The client's address, for the tracking-code guessing limit. */
  ip: string;
  /**
   * The travel rooms this socket joined and how: null as a signed-in user who may see the travel, else the
   * tracking code it gave. Checked again, the same way, when the travel or the user's access changes.
   */
  travels: Map<string, string | null>;
  /** The Locais feed rooms this socket joined (location-rooms.ts), or null when it does not follow the map. */
  locations: Set<string> | null;
  /** The open-alarms room this socket joined (alarm-rooms.ts), or null when it does not follow open alarms. */
  alarms: Set<string> | null;
  /** subscribe/unsubscribe messages in the current minute (the per-socket budget). */
  messages: { windowStart: number; count: number };
}

/** What clients send: joining and leaving travel rooms and the Locais feed, each answered through the acknowledgement. */
export interface ClientEvents {
  subscribe: (payload: unknown, ack?: (answer: unknown) => void) => void;
  unsubscribe: (payload: unknown, ack?: (answer: unknown) => void) => void;
  'subscribe-locations': (payload: unknown, ack?: (answer: unknown) => void) => void;
  'unsubscribe-locations': (payload: unknown, ack?: (answer: unknown) => void) => void;
  'subscribe-alarms': (payload: unknown, ack?: (answer: unknown) => void) => void;
  'unsubscribe-alarms': (payload: unknown, ack?: (answer: unknown) => void) => void;
}

/**
 * What the server sends: per-travel topics (`travel-logs:{id}` with the device list and, when a device moved,
 * the newest position as a second argument; `travel-location-logs:{id}`; ADR 47).
 */
export type ServerEvents = Record<string, (payload: unknown, position?: unknown) => void>;

/** Between API processes sharing rooms (Redis): changes whose sockets may be connected to another process. */
export interface InterServerEvents {
  travelChanged: (travelId: string) => void;
  /** A batch stored by another process: the travels' part of it, for this process's own feed (ADR 47). */
  travelUpdates: (updates: unknown) => void;
  accessChanged: (event: AccessChangedEvent) => void;
}

export type RealtimeServer = Server<ClientEvents, ServerEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientEvents, ServerEvents, InterServerEvents, SocketData>;

interface Log {
  error(obj: unknown, msg: string): void;
}

/** A refused handshake: the client's `connect_error` carries the message and a code, as HTTP errors do. */
function refusal(code: string, message: string): Error {
  return Object.assign(new Error(message), { data: { code, error: message } });
}

/** The client's address: the first X-Forwarded-For entry behind a trusted proxy, else the connection's. */
export function clientAddress(headers: Record<string, string | string[] | undefined>, address: string | undefined, trustProxy: boolean): string {
  const forwarded = headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return trustProxy && first ? first : (address ?? '');
}

/**
 * Handshake: `auth: { token }` with the session token (checked and renewed like any authorised request), or
 * nothing for a visitor. An unknown, expired or revoked token is refused, never downgraded to a visitor:
 * the client must know its session ended.
 */
export function authenticateSockets(io: RealtimeServer, sessions: SessionService, options: { trustProxy: boolean; log: Log }): void {
  io.use((socket, next) => {
    socket.data.auth = null;
    socket.data.ip = clientAddress(socket.handshake.headers, socket.handshake.address, options.trustProxy);
    socket.data.travels = new Map();
    socket.data.locations = null;
    socket.data.alarms = null;
    socket.data.messages = { windowStart: -Infinity, count: 0 };
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (token === undefined || token === null || token === '') return next();
    if (typeof token !== 'string') return next(refusal(SESSION_EXPIRED_CODE, MSG.sessionExpired));
    sessions.authenticate(token).then(
      (session) => {
        if (!session) return next(refusal(SESSION_EXPIRED_CODE, MSG.sessionExpired));
        socket.data.auth = {
          token,
          sessionId: session.sessionId,
          userId: session.userId,
          enterpriseId: session.enterpriseId,
          scope: scopeOf(session),
          expiresAt: session.expiresAt,
        };
        next();
      },
      (err: unknown) => {
        options.log.error({ err }, 'socket authentication failed');
        next(refusal('INTERNAL', MSG.internalError));
      },
    );
  });
}

/** The room of a session's sockets, by what ended: one session, all of a user's, all of an enterprise's. */
export function sessionsRoom(ended: SessionsEndedEvent): string {
  if ('sessionId' in ended) return `session:${ended.sessionId}`;
  if ('userId' in ended) return `user:${ended.userId}`;
  return `enterprise:${ended.enterpriseId}`;
}

/** Closes at once the sockets of sessions that were ended (through the adapter, on every server). */
export function disconnectEnded(io: RealtimeServer, ended: SessionsEndedEvent): void {
  io.in(sessionsRoom(ended)).disconnectSockets(true);
}

/**
 * Ends a signed-in socket when its session ends. Logout, deactivation and password resets announce it
 * (`disconnectEnded`, through rooms every signed-in socket joins); expiry has no event: at the session's expiry
 * the socket reads it again, without renewing it (a socket left open is not activity), and either waits for
 * the new expiry that the user's requests have pushed or disconnects.
 */
export class SessionWatch {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly sessions: SessionService,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {}

  watch(socket: RealtimeSocket): void {
    const auth = socket.data.auth;
    if (!auth) return;
    void socket.join([
      sessionsRoom({ sessionId: auth.sessionId }),
      sessionsRoom({ userId: auth.userId }),
      ...(auth.enterpriseId ? [sessionsRoom({ enterpriseId: auth.enterpriseId })] : []),
    ]);
    this.schedule(socket, auth.expiresAt);
    socket.once('disconnect', () => {
      clearTimeout(this.timers.get(socket.id));
      this.timers.delete(socket.id);
    });
  }

  /** The session was renewed (a subscription authenticates again). */
  renewed(socket: RealtimeSocket, expiresAt: Date): void {
    if (socket.data.auth) socket.data.auth.expiresAt = expiresAt;
    this.schedule(socket, expiresAt);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(socket: RealtimeSocket, at: Date): void {
    clearTimeout(this.timers.get(socket.id));
    const delay = Math.max(1000, at.getTime() - this.clock.now().getTime() + 500);
    const timer = setTimeout(() => void this.check(socket), delay);
    timer.unref();
    this.timers.set(socket.id, timer);
  }

  private async check(socket: RealtimeSocket): Promise<void> {
    const auth = socket.data.auth;
    if (!auth || socket.disconnected) return;
    try {
      const until = await this.sessions.expiryOf(auth.sessionId);
      if (!until) socket.disconnect(true);
      else this.renewed(socket, until);
    } catch (err) {
      this.log.error({ err }, 'socket session check failed');
      this.schedule(socket, new Date(this.clock.now().getTime() + 60_000));
    }
  }
}
