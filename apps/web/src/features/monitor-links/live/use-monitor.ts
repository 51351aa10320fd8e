import { CLIENT_NAME, CLIENT_VERSION, monitorTopics, MonitorSnapshotAck, type MonitorView } from '@sentinela/contract';
import { useEffect, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { detectClientOs } from '../../../lib/client-os';
import { fetchMonitor } from '../api/get-monitor';

/**
 * What the monitor page shows:
 * - loading: the first answer has not come yet;
 * - live / offline: the view, with or without the live connection (offline keeps the last view on screen);
 * - closed: the link expired, was revoked or never existed (the server's message says which);
 * - failed: the first load failed for another reason (network, server), retried by the page.
 */
export type MonitorState =
  | { kind: 'loading' }
  | { kind: 'live' | 'offline'; view: MonitorView }
  | { kind: 'closed'; message: string }
  | { kind: 'failed'; message: string };

/** At most one snapshot per this window: a device reporting every second does not make the page ask every second. */
const SNAPSHOT_MIN_INTERVAL_MS = 1000;
/** The first load is tried again after this long when the server could not be reached. */
const RETRY_MS = 15_000;

const isClosedStatus = (status: number) => status === 401 || status === 410;

/**
 * The monitor's view, kept live: the page opens with GET /api/monitor/{token} (one use in the access log), then a
 * socket on the /monitor namespace tells it when something of its devices changed, and it asks the socket for a
 * snapshot (no further HTTP, no further log rows). When the link is revoked or expires, the server closes the
 * socket and the page says why.
 */
export function useMonitor(token: string): MonitorState {
  const [state, setState] = useState<MonitorState>({ kind: 'loading' });

  useEffect(() => {
    let disposed = false;
    let socket: Socket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let throttle: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let pending = false;
    let lastAsked = -Infinity;

    const close = (message: string) => {
      socket?.disconnect();
      socket = null;
      if (!disposed) setState({ kind: 'closed', message });
    };

    const askSnapshot = () => {
      if (!socket?.connected) return;
      if (inFlight) {
        pending = true;
        return;
      }
      const wait = lastAsked + SNAPSHOT_MIN_INTERVAL_MS - Date.now();
      if (wait > 0) {
        pending = true;
        throttle ??= setTimeout(() => {
          throttle = undefined;
          if (pending) {
            pending = false;
            askSnapshot();
          }
        }, wait);
        return;
      }
      inFlight = true;
      lastAsked = Date.now();
      socket.emit(monitorTopics.snapshot, {}, (answer: unknown) => {
        inFlight = false;
        if (disposed) return;
        const parsed = MonitorSnapshotAck.safeParse(answer);
        const ack = parsed.success ? parsed.data : null;
        if (ack?.ok) setState({ kind: 'live', view: ack.view });
        else if (ack && isClosedStatus(ack.status)) return close(ack.error);
        if (pending) {
          pending = false;
          askSnapshot();
        }
      });
    };

    const connect = () => {
      const live = io(monitorTopics.namespace, {
        path: '/socket.io',
        auth: { token, client: CLIENT_NAME, clientVersion: CLIENT_VERSION, clientOs: detectClientOs() },
      });
      socket = live;
      // Updates sent while the connection was down are lost: each (re)connection starts from a snapshot.
      live.on('connect', askSnapshot);
      live.on(monitorTopics.changed, askSnapshot);
      live.on('connect_error', (error: Error & { data?: { status?: number; error?: string } }) => {
        if (error.data?.status && isClosedStatus(error.data.status)) return close(error.data.error ?? error.message);
        setState((current) => (current.kind === 'live' ? { kind: 'offline', view: current.view } : current));
      });
      live.on('disconnect', (reason) => {
        if (disposed) return;
        setState((current) => (current.kind === 'live' ? { kind: 'offline', view: current.view } : current));
        // The server closed it: revoked or expired (the page asks why), else a restart (Socket.IO does not retry this one).
        if (reason === 'io server disconnect') void load(true);
      });
    };

    const load = async (reconnect: boolean) => {
      try {
        const view = await fetchMonitor(token);
        if (disposed) return;
        setState({ kind: socket?.connected ? 'live' : 'offline', view });
        if (reconnect && socket) socket.connect();
        else if (!socket) connect();
      } catch (error) {
        if (disposed) return;
        if (error instanceof ApiError && isClosedStatus(error.status)) return close(error.message);
        const message = errorMessage(error, 'Não foi possível carregar o monitoramento.');
        setState((current) => (current.kind === 'live' || current.kind === 'offline' ? { kind: 'offline', view: current.view } : { kind: 'failed', message }));
        retry = setTimeout(() => void load(reconnect), RETRY_MS);
      }
    };

    void load(false);
    return () => {
      disposed = true;
      clearTimeout(retry);
      clearTimeout(throttle);
      socket?.disconnect();
    };
  }, [token]);

  return state;
}
