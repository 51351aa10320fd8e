// Without zod: the web's device lists and cards import these on their first paint (ADR 0048); completeness.ts
// re-exports them with the schemas.
import { pluralize } from './text-format';

/**
 * Data completeness and freshness (issue 14 item 3, ADR 0035): one rule, shared by the server (coverage, gaps in
 * reports) and the web (cards, lists and the map turning to "Sem dados há …", gaps in charts).
 *
 * - A device's expected interval between readings is the one set in its configuration, else the one the ingestion
 *   learned from its readings, else (a device never heard twice) DEFAULT_REPORT_INTERVAL_SECONDS.
 * - A device is silent, and a stretch without readings is a gap, once it lasts longer than SILENCE_FACTOR expected
 *   intervals, and never less than MIN_SILENCE_MS (gateways upload in batches: a device reporting every few seconds
 *   must not flicker between fresh and silent between two uploads).
 */
export const SILENCE_FACTOR = 3;
export const MIN_SILENCE_MS = 2 * 60_000;
export const DEFAULT_REPORT_INTERVAL_SECONDS = 300;
/** Sequence counters of Sentinela's own JSON format are 16-bit: 0…65535, then 0 again (ADR 0035). */
export const JSON_SEQ_MODULO = 65_536;

export function effectiveIntervalSeconds(expected: number | null | undefined): number {
  return expected !== null && expected !== undefined && expected > 0 ? expected : DEFAULT_REPORT_INTERVAL_SECONDS;
}

/** How long without readings makes a device silent (ms). */
export function silenceThresholdMs(expectedIntervalSeconds: number | null | undefined): number {
  return Math.max(MIN_SILENCE_MS, SILENCE_FACTOR * effectiveIntervalSeconds(expectedIntervalSeconds) * 1000);
}

/** For how long a device has been silent (ms), or null while it is not (or has never reported at all). */
export function silentForMs(lastSyncIso: string | null | undefined, expectedIntervalSeconds: number | null | undefined, nowMs: number): number | null {
  if (!lastSyncIso) return null;
  const since = nowMs - Date.parse(lastSyncIso);
  return since > silenceThresholdMs(expectedIntervalSeconds) ? since : null;
}

/** "12 min", "3 h", "2 dias": rounded down, never below one minute. */
export function formatSilence(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.floor(hours / 24);
  return pluralize(days, 'dia', 'dias');
}

export function silenceLabel(ms: number): string {
  return `Sem dados há ${formatSilence(ms)}`;
}

/** "2 h 05 min", "3 min 20 s", "1 d 4 h": a gap's duration in tables and reports. */
export function formatGapDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  return `${seconds} s`;
}
