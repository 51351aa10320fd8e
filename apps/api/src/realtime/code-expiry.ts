import { travelTopics } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import type { TravelService } from '../modules/travels/service';
import type { RealtimeSocket } from './socket-auth';
import { leaveTravel } from './travel-rooms';

/** setTimeout's longest delay; a later expiry is checked again then (and re-armed). */
const MAX_TIMER_MS = 2_147_000_000;

/**
 * Ends a tracking code's live room when its link expires (ADR 36): from that instant HTTP refuses the code, so the
 * socket that joined with it must stop receiving too. Each (socket, travel) joined by code has one timer, armed at
 * subscription and re-armed when the travel changes (its managers may move the expiry). When it fires the code is
 * checked again: still good (the expiry moved), the timer is re-armed; not, the socket leaves and is told the
 * travel changed, so its page asks again and shows why.
 */
export class CodeExpiry {
  private readonly timers = new WeakMap<RealtimeSocket, Map<string, NodeJS.Timeout>>();

  constructor(private readonly deps: { travels: TravelService; log: { error(obj: unknown, msg: string): void } }) {}

  /** (Re)arms the timer of a socket's code room; `msLeft` null: the link has no expiry yet. */
  arm(socket: RealtimeSocket, travelId: string, msLeft: number | null): void {
    let mine = this.timers.get(socket);
    if (!mine) {
      mine = new Map();
      this.timers.set(socket, mine);
      socket.once('disconnect', () => this.clearAll(socket));
    }
    clearTimeout(mine.get(travelId));
    mine.delete(travelId);
    if (msLeft === null) return;
    mine.set(travelId, setTimeout(() => void this.fire(socket, travelId), Math.min(Math.max(msLeft, 0), MAX_TIMER_MS)));
  }

  private clearAll(socket: RealtimeSocket): void {
    for (const timer of this.timers.get(socket)?.values() ?? []) clearTimeout(timer);
    this.timers.delete(socket);
  }

  private async fire(socket: RealtimeSocket, travelId: string): Promise<void> {
    this.timers.get(socket)?.delete(travelId);
    const code = socket.data.travels.get(travelId);
    // Left, or now in the room as a user who may see the travel: the code no longer matters.
    if (typeof code !== 'string' || socket.disconnected) return;
    try {
      const watch = await this.deps.travels.watchableByCode(code, socket.data.auth?.scope ?? null);
      if (watch.travelId === travelId) return this.arm(socket, travelId, watch.msLeft);
    } catch (err) {
      if (!(err instanceof AppError)) this.deps.log.error({ err, travelId }, 'tracking code expiry check failed');
    }
    leaveTravel(socket, travelId);
    socket.emit(travelTopics.changed(travelId), { travelId });
  }
}
