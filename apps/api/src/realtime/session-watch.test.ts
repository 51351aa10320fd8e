import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../lib/clock';
import type { SessionService } from '../modules/auth/session-service';
import { SessionWatch, type RealtimeSocket } from './socket-auth';

/**
 * A socket left open is not activity: at its session's expiry the watch reads the session again and closes the
 * socket, unless the user's requests pushed the expiry forward meanwhile. Timers are faked; the clock is manual.
 */
const MINUTE = 60_000;

function fakeSocket(expiresAt: Date) {
  const listeners = new Map<string, () => void>();
  const socket = {
    id: 'socket-1',
    disconnected: false,
    data: {
      ip: '127.0.0.1',
      auth: { token: 't', sessionId: 's-1', userId: 'u-1', enterpriseId: 'e-1', scope: { kind: 'all' }, expiresAt },
    },
    joined: [] as string[],
    join(rooms: string[]) {
      this.joined.push(...rooms);
    },
    once(event: string, listener: () => void) {
      listeners.set(event, listener);
    },
    disconnect: vi.fn(function (this: { disconnected: boolean }) {
      this.disconnected = true;
    }),
    fire(event: string) {
      listeners.get(event)?.();
    },
  };
  return socket;
}

describe('SessionWatch', () => {
  let clock: ManualClock;
  let expiry: Date | null;
  let watch: SessionWatch;
  const sessions = { expiryOf: vi.fn(async () => expiry) } as unknown as SessionService;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
    watch = new SessionWatch(sessions, clock, { error: () => {} });
  });
  afterEach(() => {
    watch.close();
    vi.useRealTimers();
  });

  const advance = async (ms: number) => {
    clock.advance(ms);
    await vi.advanceTimersByTimeAsync(ms);
  };

  it('joins the rooms that session ends are announced to', () => {
    const socket = fakeSocket(new Date(clock.now().getTime() + 5 * MINUTE));
    watch.watch(socket as unknown as RealtimeSocket);
    expect(socket.joined).toEqual(['session:s-1', 'user:u-1', 'enterprise:e-1']);
  });

  it('closes the socket when the session expired without activity', async () => {
    expiry = null;
    const socket = fakeSocket(new Date(clock.now().getTime() + 5 * MINUTE));
    watch.watch(socket as unknown as RealtimeSocket);
    await advance(4 * MINUTE);
    expect(socket.disconnect).not.toHaveBeenCalled();
    await advance(MINUTE + 1000);
    expect(socket.disconnect).toHaveBeenCalledWith(true);
  });

  it('waits for the new expiry when requests renewed the session', async () => {
    const socket = fakeSocket(new Date(clock.now().getTime() + 5 * MINUTE));
    expiry = new Date(clock.now().getTime() + 8 * MINUTE);
    watch.watch(socket as unknown as RealtimeSocket);
    await advance(5 * MINUTE + 1000);
    expect(socket.disconnect).not.toHaveBeenCalled();
    expect(socket.data.auth.expiresAt).toEqual(expiry);
    expiry = null;
    await advance(3 * MINUTE);
    expect(socket.disconnect).toHaveBeenCalledWith(true);
  });

  it('forgets a socket that disconnected by itself', async () => {
    expiry = null;
    const socket = fakeSocket(new Date(clock.now().getTime() + 5 * MINUTE));
    watch.watch(socket as unknown as RealtimeSocket);
    socket.fire('disconnect');
    await advance(6 * MINUTE);
    expect(socket.disconnect).not.toHaveBeenCalled();
  });
});
