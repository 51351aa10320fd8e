import { silenceLabel, silentForMs } from '@sentinela/contract';
import { useEffect, useState } from 'react';

/**
 * Freshness of a device (ADR 0035): a device silent for longer than the contract's threshold shows
 * "Sem dados há X min" instead of the colour of its last reading. Screens read the time from useNow, which ticks by
 * itself, so a card turns silent while the screen stays open and no event arrives.
 */

/** How often screens re-check silence: the label counts whole minutes. */
export const FRESHNESS_TICK_MS = 30_000;

/** The current time, re-rendering the caller every `everyMs`. */
export function useNow(everyMs = FRESHNESS_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export interface Silence {
  ms: number;
  /** "Sem dados há 12 min". */
  label: string;
}

/** The device's silence at `now`, or null while it reports on time (or never reported). */
export function silenceOf(lastSync: string | null | undefined, expectedIntervalSeconds: number | null | undefined, now: number): Silence | null {
  const ms = silentForMs(lastSync, expectedIntervalSeconds, now);
  return ms === null ? null : { ms, label: silenceLabel(ms) };
}
