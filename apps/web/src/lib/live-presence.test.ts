import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../test/fetch';
import { makeSession } from '../test/fixtures';
import { PRESENCE_INTERVAL_MS, useLivePresence } from './live-presence';
import { clearSession, getSession, isSessionExpired, onSessionExpired, startSession } from './session';

const T0 = Date.parse('2024-05-10T12:00:00Z');
let visibility: DocumentVisibilityState = 'visible';

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

function presenceCalls(requests: { url: string; method: string }[]) {
  return requests.filter((r) => r.url === '/api/session/presence' && r.method === 'POST').length;
}

describe('useLivePresence', () => {
  afterEach(() => {
    clearSession();
    vi.useRealTimers();
    visibility = 'visible';
  });

  function setUp() {
    vi.useFakeTimers({ now: T0 });
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    startSession(makeSession(3));
    return mockFetch(() => jsonResponse({ success: true })).requests;
  }

  it('keeps the session past 5 minutes while the screen is visible', () => {
    const requests = setUp();
    const { unmount } = renderHook(() => useLivePresence());
    vi.advanceTimersByTime(6 * 60_000);
    expect(presenceCalls(requests)).toBe(6);
    // The last beat slid the window: another 4 minutes are still inside it.
    vi.advanceTimersByTime(30_000);
    expect(isSessionExpired()).toBe(false);
    unmount();
    vi.advanceTimersByTime(3 * PRESENCE_INTERVAL_MS);
    expect(presenceCalls(requests)).toBe(6);
  });

  it('stops while the tab is hidden, and a tab hidden for 5 minutes comes back signed out', () => {
    const requests = setUp();
    const expired = vi.fn();
    const unsubscribe = onSessionExpired(expired);
    renderHook(() => useLivePresence());
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    expect(presenceCalls(requests)).toBe(1);
    setVisibility('hidden');
    vi.advanceTimersByTime(6 * 60_000);
    expect(presenceCalls(requests)).toBe(1);
    setVisibility('visible');
    expect(presenceCalls(requests)).toBe(1);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(getSession()).toBeNull();
    unsubscribe();
  });

  it('a tab hidden briefly reports presence again as soon as it is back', () => {
    const requests = setUp();
    renderHook(() => useLivePresence());
    setVisibility('hidden');
    vi.advanceTimersByTime(2 * 60_000);
    setVisibility('visible');
    expect(presenceCalls(requests)).toBe(1);
    vi.advanceTimersByTime(PRESENCE_INTERVAL_MS);
    expect(presenceCalls(requests)).toBe(2);
    expect(isSessionExpired()).toBe(false);
  });

  it('does nothing on a screen that is not live', () => {
    const requests = setUp();
    renderHook(() => useLivePresence(false));
    vi.advanceTimersByTime(3 * PRESENCE_INTERVAL_MS);
    expect(presenceCalls(requests)).toBe(0);
  });
});
