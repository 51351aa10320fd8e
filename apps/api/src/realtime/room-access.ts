import { travelTopics } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import type { CodeExpiry } from './code-expiry';
import type { TenantScope } from '../lib/tenant-scope';
import type { SessionService } from '../modules/auth/session-service';
import type { TravelService } from '../modules/travels/service';
import { scopeOf } from '../plugins/auth';
import type { AccessChangedEvent } from './event-bus';
import { sessionsRoom, type RealtimeServer, type RealtimeSocket } from './socket-auth';
import { leaveTravel, placeInTravelRoom, travelPositionRoom, travelRoom } from './travel-rooms';

/**
 * What a socket may receive of a travel now: nothing, everything, or the position only (ADR 36); for a code, the
 * milliseconds before its link expires (null: no expiry yet, or not a code).
 */
interface Verdict {
  may: 'none' | 'all' | 'position';
  msLeft: number | null;
}
const NONE: Verdict = { may: 'none', msLeft: null };

interface Deps {
  travels: TravelService;
  codeExpiry: CodeExpiry;
  sessions: SessionService;
  log: { error(obj: unknown, msg: string): void };
}

/**
 * Access ends when it ends (issue 9, item 5): a socket stays in a travel's room only while it would be let in
 * now. When a travel changes (responsible, devices, status) its room's sockets are checked again; when a user's
 * or an enterprise's access changes (`access.changed`), their sockets read their session again (profile and
 * enterprise may have changed) and check each of their rooms. A socket that no longer qualifies leaves the room;
 * one whose session ended is disconnected. Only this process's sockets: with several processes the change is
 * forwarded to the others (plugins/realtime.ts).
 */
export class RoomAccess {
  constructor(
    private readonly io: RealtimeServer,
    private readonly deps: Deps,
  ) {}

  /** Checks every socket in the travel's rooms: one query per distinct scope or code, not per socket. */
  async travelChanged(travelId: string): Promise<void> {
    const sockets = [...this.localSockets(travelRoom(travelId)), ...this.localSockets(travelPositionRoom(travelId))];
    const verdicts = new Map<string, Promise<Verdict>>();
    await Promise.all(
      sockets.map(async (socket) => {
        const code = socket.data.travels.get(travelId);
        if (code === undefined) return;
        const scope = socket.data.auth?.scope ?? null;
        const key = `${code ?? ''}|${JSON.stringify(scope)}`;
        let verdict = verdicts.get(key);
        if (!verdict) {
          verdict = this.mayWatch(travelId, code, scope);
          verdicts.set(key, verdict);
        }
        await this.apply(socket, travelId, await verdict);
      }),
    );
  }

  /** Checks every room of the sockets of a user, or of every user of an enterprise. */
  async accessChanged(event: AccessChangedEvent): Promise<void> {
    await Promise.all(this.localSockets(sessionsRoom(event)).map((socket) => this.recheckSocket(socket)));
  }

  private async recheckSocket(socket: RealtimeSocket): Promise<void> {
    const auth = socket.data.auth;
    if (!auth) return;
    const session = await this.deps.sessions.current(auth.sessionId);
    if (!session) {
      socket.disconnect(true);
      return;
    }
    auth.scope = scopeOf(session);
    auth.enterpriseId = session.enterpriseId;
    for (const [travelId, code] of [...socket.data.travels]) {
      await this.apply(socket, travelId, await this.mayWatch(travelId, code, auth.scope));
    }
  }

  /**
   * A socket that may no longer watch leaves; one whose code now shows the position only moves to that room. A
   * socket that followed a code (now revoked or expired) is told the travel changed as it leaves: its page asks
   * again and shows why the link stopped (ADR 36). It learns nothing new: it knew the travel's id.
   */
  private async apply(socket: RealtimeSocket, travelId: string, verdict: Verdict): Promise<void> {
    const byCode = typeof socket.data.travels.get(travelId) === 'string';
    if (verdict.may !== 'none') {
      await placeInTravelRoom(socket, travelId, verdict.may === 'position');
      // The managers may have moved the expiry.
      if (byCode) this.deps.codeExpiry.arm(socket, travelId, verdict.msLeft);
      return;
    }
    leaveTravel(socket, travelId);
    if (byCode) socket.emit(travelTopics.changed(travelId), { travelId });
  }

  /** The rules of `subscribe`, without the guessing limit (the code was already accepted once). */
  private async mayWatch(travelId: string, code: string | null, scope: TenantScope | null): Promise<Verdict> {
    try {
      if (code === null) return scope !== null && (await this.deps.travels.watchable(scope, travelId)) ? { may: 'all', msLeft: null } : NONE;
      const watch = await this.deps.travels.watchableByCode(code, scope);
      if (watch.travelId !== travelId) return NONE;
      return { may: watch.positionOnly ? 'position' : 'all', msLeft: watch.msLeft };
    } catch (err) {
      if (err instanceof AppError) return NONE;
      // Unknown is not allowed: the socket leaves, and the page's next subscription asks again.
      this.deps.log.error({ err, travelId }, 'live room access check failed');
      return NONE;
    }
  }

  private localSockets(room: string): RealtimeSocket[] {
    const ids = this.io.of('/').adapter.rooms.get(room);
    if (!ids) return [];
    const sockets: RealtimeSocket[] = [];
    for (const id of ids) {
      const socket = this.io.of('/').sockets.get(id);
      if (socket) sockets.push(socket);
    }
    return sockets;
  }
}
