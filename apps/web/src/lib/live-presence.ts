import { useEffect } from 'react';
import { apiRequest } from './api-client';
import { expireSession, isSessionExpired } from './session';

/** How often a live screen in the foreground reports presence: well inside the 5-minute window. */
export const PRESENCE_INTERVAL_MS = 60_000;

function visible(): boolean {
  return document.visibilityState === 'visible';
}

function reportPresence(): void {
  // A failure needs nothing here: a 401 ends the session through the client (alert and /login), a network error
  // is retried by the next beat, well before the window closes.
  apiRequest('/api/session/presence', { method: 'POST' }).catch(() => {});
}

/**
 * Keeps the session alive while a live screen (a travel followed on the map, a device's history) is visible in the
 * foreground, so that watching counts as activity (issue 11): a control room can leave a shipment on screen. The
 * moment the tab is hidden the beats stop, and a tab that stays hidden for 5 minutes finds its session ended when
 * it comes back, as the documents require (P2).
 */
export function useLivePresence(active = true): void {
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    const start = () => {
      if (timer !== undefined) return;
      // Back from a hidden tab: a window that closed meanwhile ends the session instead of being renewed.
      if (isSessionExpired()) {
        expireSession();
        return;
      }
      reportPresence();
      timer = setInterval(reportPresence, PRESENCE_INTERVAL_MS);
    };
    const onVisibility = () => (visible() ? start() : stop());
    if (visible()) timer = setInterval(reportPresence, PRESENCE_INTERVAL_MS);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      stop();
    };
  }, [active]);
}
