import type { OpenAlarmCounts, OpenAlarmsEvent } from '@sentinela/contract';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

/** What changed: the alarms the server named, or 'all' after a reconnection (messages may have been lost). */
export type AlarmChanges = OpenAlarmsEvent['changes'] | 'all';
export type AlarmsListener = (changes: AlarmChanges) => void;

/** The part of a Socket.IO client this uses (a fake in component tests). */
export interface AlarmsSocket {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, payload: unknown, ack: (answer: unknown) => void): unknown;
  disconnect(): unknown;
}

interface LiveAlarms {
  /** The open alarms the user may see, as the server counted them last; null until the first answer. */
  counts: OpenAlarmCounts | null;
  onChanges(listener: AlarmsListener): () => void;
}

const LiveAlarmsContext = createContext<LiveAlarms>({ counts: null, onChanges: () => () => {} });

/**
 * The signed-in shell's open-alarms feed (issue 11, item 5): one Socket.IO connection per tab with the session's
 * token, subscribed to the alarms of what the user may see. The header badge reads the counts; screens that show
 * alarms (the list, a device's Alarmes tab) listen for changes and reload what they show.
 */
export function LiveAlarmsProvider({ token, connect, children }: { token: string; connect?: (token: string) => AlarmsSocket; children: ReactNode }) {
  const [counts, setCounts] = useState<OpenAlarmCounts | null>(null);
  const listeners = useRef(new Set<AlarmsListener>());
  const [value] = useState(() => ({
    onChanges(listener: AlarmsListener) {
      listeners.current.add(listener);
      return () => void listeners.current.delete(listener);
    },
  }));

  useEffect(() => {
    let stop: (() => void) | undefined;
    let ended = false;
    // Socket.IO's client and the schemas its messages are parsed with load right after the shell's first paint, in
    // one chunk of their own (the badge shows no count until the first answer anyway: ADR 0040, ADR 0048).
    import('./live-alarms-feed').then(
      (feed) => {
        if (!ended) stop = feed.listenTo((connect ?? feed.connectSocket)(token), listeners.current, setCounts);
      },
      // The chunk could not load (offline): the badge stays without a count, as while connecting.
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
export function useAlarmChanges(listener: AlarmsListener): void {
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
