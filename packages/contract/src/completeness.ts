import { z } from './zod-locale';
import { IsoDate } from './common';
import { boundedInt } from './values';

// The rule of silence and gaps (issue 14 item 3, ADR 0035) is in silence.ts, without zod (ADR 0048).
export {
  SILENCE_FACTOR,
  MIN_SILENCE_MS,
  DEFAULT_REPORT_INTERVAL_SECONDS,
  JSON_SEQ_MODULO,
  effectiveIntervalSeconds,
  silenceThresholdMs,
  silentForMs,
  formatSilence,
  silenceLabel,
  formatGapDuration,
} from './silence';

/** The interval set in a device's configuration (seconds): one second to one day. */
export const reportIntervalSeconds = boundedInt('O intervalo esperado entre leituras (segundos)', 1, 86_400);

/** Where a device's expected interval came from. */
export const INTERVAL_SOURCES = ['configured', 'learned', 'period', 'default'] as const;
export type IntervalSource = (typeof INTERVAL_SOURCES)[number];
export const INTERVAL_SOURCE_LABELS: Record<IntervalSource, string> = {
  configured: 'configurado',
  learned: 'aprendido das leituras',
  period: 'mediana das leituras do período',
  default: 'padrão',
};

export const CoverageGap = z.object({ start: IsoDate, end: IsoDate, durationMs: z.number() });
export type CoverageGap = z.infer<typeof CoverageGap>;

/** GET /api/beacon-device/history/mac/:mac/coverage: completeness of a device's readings over a period. */
export const Coverage = z.object({
  /** Where counting starts: the period's start, or when the device came into service if later (`since`). */
  from: IsoDate,
  /** The period's end, or now when the period reaches into the future. */
  to: IsoDate,
  expectedIntervalSeconds: z.number(),
  intervalSource: z.enum(INTERVAL_SOURCES),
  thresholdMs: z.number(),
  expected: z.number().int(),
  received: z.number().int(),
  /** received / expected, at most 100; null when the period is too short to expect anything. */
  percent: z.number().nullable(),
  /** Oldest first; at most MAX_LISTED_GAPS (gapCount tells how many there were). */
  gaps: z.array(CoverageGap),
  gapCount: z.number().int(),
  gapTotalMs: z.number(),
  /** Readings lost between sensor and gateway by the sequence counters; null without counters in the period. */
  lost: z.number().int().nullable(),
  /**
   * When the period starts before the device was registered (or linked to its enterprise), the time before is not
   * missing data: counting starts at that moment, and this says when and why (issue 26). Null otherwise.
   */
  since: z.object({ at: IsoDate, reason: z.enum(['created', 'linked']) }).nullable(),
});
export type Coverage = z.infer<typeof Coverage>;

/** How screens and reports say where counting started: "desde o cadastro do dispositivo". */
export const COVERAGE_SINCE_LABELS = { created: 'desde o cadastro do dispositivo', linked: 'desde o vínculo do dispositivo à empresa' } as const;

export const MAX_LISTED_GAPS = 500;
