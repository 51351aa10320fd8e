import { alarmTopics, can, MSG, type AlarmChangeKind, type OpenAlarmCounts, type OpenAlarmsEvent, type z, type AlarmsSubscribeAck } from '@sentinela/contract';
import type { Db } from '../db/database';
import type { TenantScope } from '../lib/tenant-scope';
import type { SessionService } from '../modules/auth/session-service';
import {
  countOpenAlarms,
  countOpenAlarmsByEnterprise,
  countOpenAlarmsByUser,
  macsOfDevices,
  usersOfDevices,
} from '../modules/open-alarms/repository';
import { scopeOf } from '../plugins/auth';
import type { AccessChangedEvent, AlarmChangedEvent } from './event-bus';
import { sessionsRoom, type RealtimeServer, type RealtimeSocket, type SessionWatch } from './socket-auth';
import { withinBudget } from './travel-rooms';

type Ack = z.infer<typeof AlarmsSubscribeAck>;

/**
 * Rooms of the open-alarms feed (the header badge and the live Alarmes tab, issue 11 item 5). A socket joins the
 * room of its scope, as GET /api/alarms/open answers it: the super admin every device's alarms, an enterprise admin
 * its enterprise's, anyone else the alarms of the devices linked to them (one room per user: the count is theirs).
 */
export const allAlarmsRoom = 'alarms:all';
export const enterpriseAlarmsRoom = (enterpriseId: string) => `alarms:enterprise:${enterpriseId}`;
export const userAlarmsRoom = (userId: string) => `alarms:user:${userId}`;

interface Deps {
  db: Db;
  sessions: SessionService;
  watch: SessionWatch;
  /** Whether a room may have sockets (always true when other processes share the rooms). */
  watched: (room: string) => boolean;
  messagesPerMinute: number;
  now?: () => number;
  log: { error(obj: unknown, msg: string): void };
}

interface Change {
  event: AlarmChangedEvent;
  kind: AlarmChangeKind;
}

/**
 * Counts are computed on alarm events only, never per reading: the changes of one turn of the event loop are
 * gathered, then counted once per room that may be watched (one query for all affected enterprises, one for all
 * affected users) and sent to those rooms. One flush runs at a time, so a room receives its counts in order.
 */
export class AlarmRooms {
  private readonly now: () => number;
  private pending: Change[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly io: RealtimeServer,
    private readonly deps: Deps,
  ) {
    this.now = deps.now ?? (() => Date.now());
  }

  /** Listens for `subscribe-alarms` and `unsubscribe-alarms` on every connection. */
  attach(): void {
    this.io.on('connection', (socket) => {
      socket.on(alarmTopics.subscribe, (_payload: unknown, ack?: (answer: unknown) => void) => {
        const reply = typeof ack === 'function' ? ack : () => {};
        if (!withinBudget(socket, this.deps.messagesPerMinute, this.now())) return reply(refuse(MSG.tooManyRequests));
        this.subscribe(socket).then(reply, (err: unknown) => {
          this.deps.log.error({ err }, 'alarms subscription failed');
          reply(refuse(MSG.internalError));
        });
      });
      socket.on(alarmTopics.unsubscribe, (_payload: unknown, ack?: (answer: unknown) => void) => {
        const reply = typeof ack === 'function' ? ack : () => {};
        if (!withinBudget(socket, this.deps.messagesPerMinute, this.now())) return reply(refuse(MSG.tooManyRequests));
        this.leave(socket);
        reply({ ok: true, count: 0, unacknowledged: 0 } satisfies Ack);
      });
    });
  }

  /** An alarm opened, ended or was acknowledged (after its transaction committed). */
  alarmChanged(event: AlarmChangedEvent, kind: AlarmChangeKind): void {
    if (this.closed) return;
    this.pending.push({ event, kind });
    this.schedule();
  }

  /** A user's (or an enterprise's) access changed: their subscribed sockets move to their new scope's room and get its counts. */
  async accessChanged(event: AccessChangedEvent): Promise<void> {
    const ids = this.io.of('/').adapter.rooms.get(sessionsRoom(event));
    if (!ids) return;
    await Promise.all(
      [...ids].map(async (id) => {
        const socket = this.io.of('/').sockets.get(id);
        if (!socket?.data.alarms || !socket.data.auth) return;
        try {
          const session = await this.deps.sessions.current(socket.data.auth.sessionId);
          if (!session || !can(session.profileId, 'devices:read')) return this.leave(socket);
          socket.data.auth.scope = scopeOf(session);
          const counts = await this.join(socket, socket.data.auth.scope);
          socket.emit(alarmTopics.changed, { ...counts, changes: [] } satisfies OpenAlarmsEvent);
        } catch (err) {
          // Unknown is not allowed: the socket leaves, and the page subscribes again after its next load.
          this.deps.log.error({ err }, 'alarms room access check failed');
          this.leave(socket);
        }
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    await this.running;
  }

  private schedule(): void {
    if (this.closed || this.running || this.scheduled || this.pending.length === 0) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.closed || this.running) return;
    const changes = this.pending;
    this.pending = [];
    this.running = this.send(changes).catch((err: unknown) => this.deps.log.error({ err, changes: changes.length }, 'open alarm counts not sent'));
    await this.running;
    this.running = null;
    this.schedule();
  }

  private async send(changes: Change[]): Promise<void> {
    const { db, watched } = this.deps;
    const deviceIds = [...new Set(changes.map((c) => c.event.deviceId))];
    const macs = await macsOfDevices(db, deviceIds);
    const described = changes.flatMap(({ event, kind }) => {
      const mac = macs.get(event.deviceId);
      return mac ? [{ deviceId: event.deviceId, enterpriseId: event.enterpriseId, change: { alarmId: event.alarmId, mac, kind } }] : [];
    });
    if (described.length === 0) return;

    if (watched(allAlarmsRoom)) {
      const counts = await countOpenAlarms(db, { kind: 'all' });
      this.emit(allAlarmsRoom, counts, described.map((d) => d.change));
    }

    const enterpriseIds = [...new Set(described.flatMap((d) => (d.enterpriseId ? [d.enterpriseId] : [])))].filter((id) => watched(enterpriseAlarmsRoom(id)));
    for (const [enterpriseId, counts] of await countOpenAlarmsByEnterprise(db, enterpriseIds)) {
      this.emit(enterpriseAlarmsRoom(enterpriseId), counts, described.filter((d) => d.enterpriseId === enterpriseId).map((d) => d.change));
    }

    const links = (await usersOfDevices(db, deviceIds)).filter((link) => watched(userAlarmsRoom(link.user_id)));
    const devicesOf = new Map<string, Set<string>>();
    for (const link of links) devicesOf.set(link.user_id, (devicesOf.get(link.user_id) ?? new Set()).add(link.device_id));
    for (const [userId, counts] of await countOpenAlarmsByUser(db, [...devicesOf.keys()])) {
      const devices = devicesOf.get(userId)!;
      this.emit(userAlarmsRoom(userId), counts, described.filter((d) => devices.has(d.deviceId)).map((d) => d.change));
    }
  }

  private emit(room: string, counts: OpenAlarmCounts, changes: OpenAlarmsEvent['changes']): void {
    this.io.to(room).emit(alarmTopics.changed, { ...counts, changes } satisfies OpenAlarmsEvent);
  }

  private async subscribe(socket: RealtimeSocket): Promise<Ack> {
    const auth = socket.data.auth;
    if (!auth) return refuse(MSG.unauthenticated);
    const session = await this.deps.sessions.authenticate(auth.token);
    if (!session) return refuse(MSG.sessionExpired);
    auth.scope = scopeOf(session);
    this.deps.watch.renewed(socket, session.expiresAt);
    if (!can(session.profileId, 'devices:read')) return refuse(MSG.forbidden);
    const counts = await this.join(socket, auth.scope);
    if (socket.disconnected) return refuse(MSG.sessionExpired);
    return { ok: true, ...counts };
  }

  /** Joins the scope's room first, then counts: a change after the count reaches the socket as an event. */
  private async join(socket: RealtimeSocket, scope: TenantScope): Promise<OpenAlarmCounts> {
    const room = roomOf(scope);
    if (!socket.data.alarms?.has(room)) {
      this.leave(socket);
      socket.data.alarms = new Set([room]);
      await socket.join(room);
    }
    return countOpenAlarms(this.deps.db, scope);
  }

  private leave(socket: RealtimeSocket): void {
    for (const room of socket.data.alarms ?? []) void socket.leave(room);
    socket.data.alarms = null;
  }
}

function roomOf(scope: TenantScope): string {
  if (scope.kind === 'all') return allAlarmsRoom;
  if (scope.kind === 'enterprise') return enterpriseAlarmsRoom(scope.enterpriseId);
  return userAlarmsRoom(scope.userId);
}

const refuse = (error: string): Ack => ({ ok: false, error });
