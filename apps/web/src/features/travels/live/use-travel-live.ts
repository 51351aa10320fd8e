import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { expireSession, getSession, onSessionChange } from '../../../lib/session';
import { TravelLiveController, type LiveSocket, type LiveState } from './controller';

type SocketCall = { [K in keyof LiveSocket]: { method: K; args: Parameters<LiveSocket[K]> } }[keyof LiveSocket];

/**
 * Same origin as the page; the API serves Socket.IO at /socket.io (Vite proxies it in development). Socket.IO's client
 * is loaded when a travel is first followed, not with /directions' table (ADR 0086): until it is there, the calls the
 * controller makes are kept and then made, in order, on the real socket (Socket.IO itself buffers emits until it is
 * connected). A socket dropped before its client loaded is never opened.
 */
function connect(token: string | null): LiveSocket {
  let socket: LiveSocket | null = null;
  let dropped = false;
  const pending: SocketCall[] = [];
  const call = (next: SocketCall) => {
    if (next.method === 'disconnect') dropped = true;
    if (socket) (socket[next.method] as (...args: unknown[]) => unknown)(...next.args);
    else pending.push(next);
  };
  import('socket.io-client')
    .then(({ io }) => {
      if (dropped) return;
      socket = io({ path: '/socket.io', auth: token ? { token } : {} }) as unknown as LiveSocket;
      for (const next of pending.splice(0)) (socket[next.method] as (...args: unknown[]) => unknown)(...next.args);
    })
    // A client that failed to load leaves the screen with what HTTP gave it, and the badge says it is not live.
    .catch(() => {
      for (const next of pending.splice(0)) if (next.method === 'on' && next.args[0] === 'connect_error') (next.args[1] as () => void)();
    });
  return {
    on: (...args) => call({ method: 'on', args }),
    off: (...args) => call({ method: 'off', args }),
    emit: (...args) => call({ method: 'emit', args }),
    connect: () => call({ method: 'connect', args: [] }),
    disconnect: () => call({ method: 'disconnect', args: [] }),
  };
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
