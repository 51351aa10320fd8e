import { alarmTopics, AlarmsSubscribeAck, OpenAlarmsEvent, SESSION_EXPIRED_CODE, type OpenAlarmCounts } from '@sentinela/contract';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { expireSession } from './session';

/** What changed: the alarms the server named, or 'all' after a reconnection (messages may have been lost). */
export type AlarmChanges = OpenAlarmsEvent['changes'] | 'all';
type Listener = (changes: AlarmChanges) => void;

/** The part of a Socket.IO client this uses (a fake in component tests). */
export interface AlarmsSocket {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, payload: unknown, ack: (answer: unknown) => void): unknown;
  disconnect(): unknown;
}

/**
 * Same origin as the page; the API serves Socket.IO at /socket.io. The client library loads after the shell's first
 * paint, in its own chunk (the badge shows no count until the first answer anyway: ADR 0040).
 */
const connectSocket = async (token: string): Promise<AlarmsSocket> => {
  const { io } = await import('socket.io-client');
  return io({ path: '/socket.io', auth: { token } }) as unknown as AlarmsSocket;
};

interface LiveAlarms {
  /** The open alarms the user may see, as the server counted them last; null until the first answer. */
  counts: OpenAlarmCounts | null;
  onChanges(listener: Listener): () => void;
}

const LiveAlarmsContext = createContext<LiveAlarms>({ counts: null, onChanges: () => () => {} });

/** Subscribes to the open alarms on `socket`; answers the clean-up that disconnects it. */
function listenTo(socket: AlarmsSocket, listeners: ReadonlySet<Listener>, setCounts: (counts: OpenAlarmCounts) => void): () => void {
  let connectedOnce = false;
  const notify = (changes: AlarmChanges) => {
    for (const listener of [...listeners]) listener(changes);
  };
  const subscribe = () => {
    socket.emit(alarmTopics.subscribe, {}, (answer: unknown) => {
      const ack = AlarmsSubscribeAck.safeParse(answer);
      if (ack.success && ack.data.ok) setCounts({ count: ack.data.count, unacknowledged: ack.data.unacknowledged });
    });
    // Changes sent while the connection was down are lost: whoever shows alarms reloads them.
    if (connectedOnce) notify('all');
    connectedOnce = true;
  };
  const onChanged = (payload: unknown) => {
    const event = OpenAlarmsEvent.safeParse(payload);
    if (!event.success) return;
    setCounts({ count: event.data.count, unacknowledged: event.data.unacknowledged });
    notify(event.data.changes);
  };
  const onError = (error: Error & { data?: { code?: string } }) => {
    if (error.data?.code === SESSION_EXPIRED_CODE) expireSession();
  };
  socket.on('connect', subscribe);
  socket.on(alarmTopics.changed, onChanged);
  socket.on('connect_error', onError);
  return () => {
    socket.off('connect', subscribe);
    socket.off(alarmTopics.changed, onChanged);
    socket.off('connect_error', onError);
    socket.disconnect();
  };
}

/**
 * The signed-in shell's open-alarms feed (issue 11, item 5): one Socket.IO connection per tab with the session's
 * token, subscribed to the alarms of what the user may see. The header badge reads the counts; screens that show
 * alarms (the list, a device's Alarmes tab) listen for changes and reload what they show.
 */
export function LiveAlarmsProvider({ token, connect = connectSocket, children }: { token: string; connect?: (token: string) => AlarmsSocket | Promise<AlarmsSocket>; children: ReactNode }) {
  const [counts, setCounts] = useState<OpenAlarmCounts | null>(null);
  const listeners = useRef(new Set<Listener>());
  const [value] = useState(() => ({
    onChanges(listener: Listener) {
      listeners.current.add(listener);
      return () => void listeners.current.delete(listener);
    },
  }));

  useEffect(() => {
    const connection = connect(token);
    if (!(connection instanceof Promise)) return listenTo(connection, listeners.current, setCounts);
    let stop: (() => void) | undefined;
    let ended = false;
    connection.then(
      (socket) => {
        if (ended) socket.disconnect();
        else stop = listenTo(socket, listeners.current, setCounts);
      },
      // The client library could not load (offline): the badge stays without a count, as while connecting.
      () => undefined,
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [connect, token]);

  return <LiveAlarmsContext.Provider value={{ counts, onChanges: value.onChanges }}>{children}</LiveAlarmsContext.Provider>;
}

/** The open alarms the user may see, live; null while not known yet (connecting, or outside the signed-in shell). */
export function useOpenAlarmCounts(): OpenAlarmCounts | null {
  return useContext(LiveAlarmsContext).counts;
}

/** Calls `listener` whenever alarms the user may see change (the listener may change between renders). */
export function useAlarmChanges(listener: Listener): void {
  const { onChanges } = useContext(LiveAlarmsContext);
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onChanges((changes) => latest.current(changes)), [onChanges]);
}

/** Whether a change concerns a device (by MAC). */
export function changesDevice(changes: AlarmChanges, mac: string): boolean {
  return changes === 'all' || changes.some((change) => change.mac.toUpperCase() === mac.toUpperCase());
}
