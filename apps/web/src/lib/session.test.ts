import { SESSION_WINDOW_MS } from '@sentinela/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeSession } from '../test/fixtures';
import {
  clearSession,
  dismissExpiredNotice,
  expireSession,
  sessionExpiredNoticePending,
  getSession,
  getSessionDeadline,
  onSessionExpired,
  startSession,
  touchSession,
} from './session';

const T0 = new Date('2024-05-10T12:00:00.000Z').getTime();

describe('session in the browser (P2, P3)', () => {
  it('stores token, user, enterprise and login_time = now + 5 min in sessionStorage', () => {
    vi.useFakeTimers({ now: T0 });
    const session = makeSession(3);
    startSession(session);

    expect(sessionStorage.getItem('token')).toBe('token-123');
    expect(JSON.parse(sessionStorage.getItem('user') ?? '')).toEqual(session.user);
    expect(JSON.parse(sessionStorage.getItem('enterprise') ?? '')).toEqual(session.enterprise);
    expect(Number(sessionStorage.getItem('login_time'))).toBe(T0 + SESSION_WINDOW_MS);
    expect(localStorage.length).toBe(0);
  });

  it('slides the window five minutes ahead on each authorized request', () => {
    vi.useFakeTimers({ now: T0 });
    startSession(makeSession(3));

    vi.advanceTimersByTime(4 * 60_000);
    expect(touchSession()).toBe('token-123');
    expect(getSessionDeadline()).toBe(T0 + 4 * 60_000 + SESSION_WINDOW_MS);

    // 8 minutes after login, but only 4 after the last request: still signed in.
    vi.advanceTimersByTime(4 * 60_000);
    expect(touchSession()).toBe('token-123');
    expect(getSession()).not.toBeNull();
  });

  it('expires after five idle minutes: clears the storage and notifies once', () => {
    vi.useFakeTimers({ now: T0 });
    startSession(makeSession(3));
    const onExpired = vi.fn();
    const unsubscribe = onSessionExpired(onExpired);

    vi.advanceTimersByTime(SESSION_WINDOW_MS + 1);
    expect(touchSession()).toBeNull();
    expect(touchSession()).toBeNull();

    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(getSession()).toBeNull();
    // Only the notice that says why the tab is on /login is left (see the test below).
    expect(sessionStorage.length).toBe(1);
    expect(sessionStorage.getItem('session_expired')).toBe('1');
    unsubscribe();
  });

  it('keeps the session exactly at the deadline', () => {
    vi.useFakeTimers({ now: T0 });
    startSession(makeSession(3));
    vi.advanceTimersByTime(SESSION_WINDOW_MS);
    expect(touchSession()).toBe('token-123');
  });

  it('a reload reads the session back from sessionStorage; corrupt data means signed out', async () => {
    startSession(makeSession(2));
    vi.resetModules();
    const reloaded = await import('./session');
    expect(reloaded.getSession()?.user.profile._id).toBe(2);

    sessionStorage.setItem('user', '{not json');
    vi.resetModules();
    const corrupt = await import('./session');
    expect(corrupt.getSession()).toBeNull();
  });

  it('signing out does not report an expiry', () => {
    startSession(makeSession(3));
    const onExpired = vi.fn();
    const unsubscribe = onSessionExpired(onExpired);
    clearSession();
    expireSession();
    expect(onExpired).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('an expiry leaves a notice in the tab (for a reload or a reopened tab) until the next sign-in or until closed', () => {
    startSession(makeSession(1), T0);
    expect(sessionExpiredNoticePending()).toBe(false);
    expireSession();
    expect(sessionExpiredNoticePending()).toBe(true);
    expect(sessionStorage.getItem('session_expired')).toBe('1');
    startSession(makeSession(1), T0);
    expect(sessionExpiredNoticePending()).toBe(false);
    expireSession();
    dismissExpiredNotice();
    expect(sessionExpiredNoticePending()).toBe(false);
    // Signing out is not an expiry: no notice.
    startSession(makeSession(1), T0);
    clearSession();
    expect(sessionExpiredNoticePending()).toBe(false);
  });
});
