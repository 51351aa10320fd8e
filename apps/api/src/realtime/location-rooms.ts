import { can, locationTopics, MSG, type LocationDeviceState, type z, type LocationsSubscribeAck } from '@sentinela/contract';
import type { TenantScope } from '../lib/tenant-scope';
import type { SessionService } from '../modules/auth/session-service';
import { scopeOf } from '../plugins/auth';
import type { AccessChangedEvent, ReadingsStoredEvent } from './event-bus';
import { sessionsRoom, type RealtimeServer, type RealtimeSocket, type SessionWatch } from './socket-auth';
import { withinBudget } from './travel-rooms';

type Ack = z.infer<typeof LocationsSubscribeAck>;

/**
 * Rooms of the Locais map's live feed. Who may see which device is the device scope of GET /api/locations/devices:
 * the super admin every device, an enterprise admin its enterprise's, anyone else the devices linked to them.
 * The first two join one room each; a user joins one room per linked device, so that every process (with Redis)
 * sends each socket only what it may see, without a per-socket filter.
 */
export const allLocationsRoom = 'locations:all';
export const enterpriseLocationsRoom = (enterpriseId: string) => `locations:enterprise:${enterpriseId}`;
export const deviceLocationsRoom = (deviceId: string) => `locations:device:${deviceId}`;

interface Deps {
  sessions: SessionService;
  watch: SessionWatch;
  /** The devices linked to a user (for user-scoped sockets). */
  devicesOfUser: (userId: string) => Promise<string[]>;
  messagesPerMinute: number;
  now?: () => number;
  log: { error(obj: unknown, msg: string): void };
}

export class LocationRooms {
  private readonly now: () => number;

  constructor(
    private readonly io: RealtimeServer,
    private readonly deps: Deps,
  ) {
    this.now = deps.now ?? (() => Date.now());
  }

  /** Listens for `subscribe-locations` and `unsubscribe-locations` on every connection. */
  attach(): void {
    this.io.on('connection', (socket) => {
      socket.on(locationTopics.subscribe, (_payload: unknown, ack?: (answer: unknown) => void) => {
        const reply = typeof ack === 'function' ? ack : () => {};
        if (!withinBudget(socket, this.deps.messagesPerMinute, this.now())) return reply(refuse(MSG.tooManyRequests));
        this.subscribe(socket).then(reply, (err: unknown) => {
          this.deps.log.error({ err }, 'locations subscription failed');
          reply(refuse(MSG.internalError));
        });
      });
      socket.on(locationTopics.unsubscribe, (_payload: unknown, ack?: (answer: unknown) => void) => {
        const reply = typeof ack === 'function' ? ack : () => {};
        if (!withinBudget(socket, this.deps.messagesPerMinute, this.now())) return reply(refuse(MSG.tooManyRequests));
        this.leave(socket);
        reply({ ok: true } satisfies Ack);
      });
    });
  }

  /** Sends each stored device's newest values to the rooms that may see it. */
  readingsStored(event: ReadingsStoredEvent, watched: (room: string) => boolean): void {
    const byEnterprise = new Map<string, LocationDeviceState[]>();
    const all: LocationDeviceState[] = [];
    for (const device of event.devices) {
      const state: LocationDeviceState = {
        _id: device.deviceId,
        temperature: device.temperature,
        humidity: device.humidity,
        battery: device.battery,
        lastSyncDate: device.lastSyncAt.toISOString(),
      };
      all.push(state);
      if (device.enterpriseId) {
        const list = byEnterprise.get(device.enterpriseId) ?? [];
        list.push(state);
        byEnterprise.set(device.enterpriseId, list);
      }
      const deviceRoom = deviceLocationsRoom(device.deviceId);
      if (watched(deviceRoom)) this.io.to(deviceRoom).emit(locationTopics.devices, [state]);
    }
    if (all.length > 0 && watched(allLocationsRoom)) this.io.to(allLocationsRoom).emit(locationTopics.devices, all);
    for (const [enterpriseId, states] of byEnterprise) {
      const room = enterpriseLocationsRoom(enterpriseId);
      if (watched(room)) this.io.to(room).emit(locationTopics.devices, states);
    }
  }

  /**
   * A user's (or an enterprise's) access changed: their subscribed sockets join the rooms of their new scope and are
   * told so (`location-devices-changed`), since their lists may have gained or lost devices.
   */
  async accessChanged(event: AccessChangedEvent): Promise<void> {
    const ids = this.io.of('/').adapter.rooms.get(sessionsRoom(event));
    if (!ids) return;
    await Promise.all(
      [...ids].map(async (id) => {
        const socket = this.io.of('/').sockets.get(id);
        if (!socket?.data.locations || !socket.data.auth) return;
        try {
          const session = await this.deps.sessions.current(socket.data.auth.sessionId);
          if (!session || !can(session.profileId, 'locations:read')) return this.leave(socket);
          await this.join(socket, scopeOf(session));
          // Its devices may be others now: the page fetches its list again (ADR 0049).
          socket.emit(locationTopics.changed, {});
        } catch (err) {
          // Unknown is not allowed: the socket leaves, and the page subscribes again after its next load.
          this.deps.log.error({ err }, 'locations room access check failed');
          this.leave(socket);
        }
      }),
    );
  }

  private async subscribe(socket: RealtimeSocket): Promise<Ack> {
    const auth = socket.data.auth;
    if (!auth) return refuse(MSG.unauthenticated);
    const session = await this.deps.sessions.authenticate(auth.token);
    if (!session) return refuse(MSG.sessionExpired);
    auth.scope = scopeOf(session);
    this.deps.watch.renewed(socket, session.expiresAt);
    if (!can(session.profileId, 'locations:read')) return refuse(MSG.forbidden);
    await this.join(socket, auth.scope);
    if (socket.disconnected) return refuse(MSG.sessionExpired);
    return { ok: true };
  }

  private async join(socket: RealtimeSocket, scope: TenantScope): Promise<void> {
    const rooms = await this.roomsOf(scope);
    this.leave(socket);
    socket.data.locations = rooms;
    await socket.join([...rooms]);
  }

  private async roomsOf(scope: TenantScope): Promise<Set<string>> {
    if (scope.kind === 'all') return new Set([allLocationsRoom]);
    if (scope.kind === 'enterprise') return new Set([enterpriseLocationsRoom(scope.enterpriseId)]);
    return new Set((await this.deps.devicesOfUser(scope.userId)).map(deviceLocationsRoom));
  }

  private leave(socket: RealtimeSocket): void {
    for (const room of socket.data.locations ?? []) void socket.leave(room);
    socket.data.locations = null;
  }
}

const refuse = (error: string): Ack => ({ ok: false, error });
