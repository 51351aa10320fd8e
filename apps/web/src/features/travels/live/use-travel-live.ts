import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { io } from 'socket.io-client';
import { useEffect, useState } from 'react';
import { expireSession, getSession, onSessionChange } from '../../../lib/session';
import { TravelLiveController, type LiveSocket, type LiveState } from './controller';

/** Same origin as the page; the API serves Socket.IO at /socket.io (Vite proxies it in development). */
function connect(token: string | null): LiveSocket {
  return io({ path: '/socket.io', auth: token ? { token } : {} }) as unknown as LiveSocket;
}

const controllers = new WeakMap<QueryClient, TravelLiveController>();

/** The app's one live controller (one per query cache). */
export function travelLiveController(queryClient: QueryClient): TravelLiveController {
  let controller = controllers.get(queryClient);
  if (!controller) {
    controller = new TravelLiveController({
      queryClient,
      createSocket: connect,
      getToken: () => getSession()?.token ?? null,
      idleCloseMs: 3_000,
      // The app alerts and goes to /login, as when an HTTP call finds the session ended.
      onSessionRefused: expireSession,
    });
    controllers.set(queryClient, controller);
    // Signing out (or in as someone else) ends the old session's connection and subscriptions.
    const live = controller;
    let token = getSession()?.token ?? null;
    onSessionChange(() => {
      const next = getSession()?.token ?? null;
      if (next !== token) live.close();
      token = next;
    });
  }
  return controller;
}

/**
 * Follows a travel live while the screen shows it: joins its room (by id when signed in, by tracking code for the
 * public view) and leaves it when the travel changes or the screen unmounts.
 */
export function useTravelLive(travelId: string | null, code?: string): LiveState | null {
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ key: string; live: LiveState } | null>(null);
  const key = travelId ? `${travelId}|${code ?? ''}` : null;

  useEffect(() => {
    if (!travelId || !key) return;
    return travelLiveController(queryClient).track({ travelId, code }, (live) => setState({ key, live }));
  }, [queryClient, travelId, code, key]);

  return state && state.key === key ? state.live : null;
}
