import { z } from './zod-locale';

/**
 * Building blocks for every value that reaches the database: each accepts only what its column can hold, so
 * that a hostile or careless value is refused with a pt-BR message (400) instead of failing in PostgreSQL (500)
 * or, worse, being stored and breaking every later answer that reads it. Schemas of requests and the reading
 * validator of ingestion use these; nothing that lands in a column is declared with a bare z.string()/z.number().
 */

// ---------------------------------------------------------------------------------------------------------------
// Numbers

/** PostgreSQL `real` (float4): largest finite magnitude, and the smallest non-zero one it stores without underflow. */
export const REAL_MAX = 3.4028234663852886e38;
export const REAL_MIN_NORMAL = 1.1754943508222875e-38;
/** PostgreSQL `integer` (int4) and `smallint`. */
export const INT4_MAX = 2_147_483_647;
export const INT2_MAX = 32_767;

export type NumericColumn = 'real' | 'double precision' | 'integer' | 'smallint';

/** True when `n` can be stored in a column of that type exactly as given (no overflow, underflow, NaN or ±∞). */
export function fitsColumn(n: number, column: NumericColumn): boolean {
  if (!Number.isFinite(n)) return false;
  switch (column) {
    case 'real': {
      const abs = Math.abs(n);
      return abs <= REAL_MAX && (abs === 0 || abs >= REAL_MIN_NORMAL);
    }
    case 'double precision':
      return true;
    case 'integer':
      return Number.isInteger(n) && Math.abs(n) <= INT4_MAX;
    case 'smallint':
      return Number.isInteger(n) && Math.abs(n) <= INT2_MAX;
  }
}

/**
 * What each measure can physically be, whatever the sensor: values outside are errors of the sender, never
 * readings. Alarm limits of devices and travels live within the same bounds (a limit of 10,000 °C is a typo).
 * `minMagnitude`: the smallest non-zero magnitude. A `double precision` column stores 1e-300, but PostgreSQL's
 * float arithmetic refuses to underflow (squaring it in a distance fails the whole report), and no position is
 * known to a ten-millionth of a millimetre: below 1e-9 degrees (0.1 mm) a coordinate is noise, refused.
 */
export const MEASURE_BOUNDS = {
  temperature: { min: -80, max: 150, minMagnitude: 0, column: 'real', label: 'Temperatura', unit: '°C' },
  humidity: { min: 0, max: 100, minMagnitude: 0, column: 'real', label: 'Umidade', unit: '%' },
  battery: { min: 0, max: 100, minMagnitude: 0, column: 'real', label: 'Bateria', unit: '%' },
  lat: { min: -90, max: 90, minMagnitude: 1e-9, column: 'double precision', label: 'Latitude', unit: '' },
  lng: { min: -180, max: 180, minMagnitude: 1e-9, column: 'double precision', label: 'Longitude', unit: '' },
} as const satisfies Record<string, { min: number; max: number; minMagnitude: number; column: NumericColumn; label: string; unit: string }>;
export type Measure = keyof typeof MEASURE_BOUNDS;

export type MeasureCheck = 'ok' | 'invalid' | 'out_of_range';

/**
 * One check for a measure's value, shared by request schemas and the ingestion hot path (which cannot afford a
 * schema per reading): a finite number its column can hold, within the measure's physical bounds.
 */
export function checkMeasure(measure: Measure, value: unknown): MeasureCheck {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'invalid';
  const b = MEASURE_BOUNDS[measure];
  if (value < b.min || value > b.max) return 'out_of_range';
  if (value !== 0 && Math.abs(value) < b.minMagnitude) return 'invalid';
  return fitsColumn(value, b.column) ? 'ok' : 'invalid';
}

function rangeText(measure: Measure): string {
  const b = MEASURE_BOUNDS[measure];
  const unit = b.unit ? ` ${b.unit}` : '';
  return `${b.min} a ${b.max}${unit}`;
}

/** The pt-BR message of a failed measure check. */
export function measureMessage(measure: Measure, problem: Exclude<MeasureCheck, 'ok'>, label: string = MEASURE_BOUNDS[measure].label): string {
  return problem === 'invalid'
    ? `${label} inválida: esperado um número.`
    : `${label} fora da faixa permitida (${rangeText(measure)}).`;
}

/** A measure's value in a request body: a JSON number within its physical bounds and its column. */
export function measureValue(measure: Measure, label: string = MEASURE_BOUNDS[measure].label) {
  return z.number({ message: measureMessage(measure, 'invalid', label) }).superRefine((n, ctx) => {
    const problem = checkMeasure(measure, n);
    if (problem !== 'ok') ctx.addIssue({ code: 'custom', message: measureMessage(measure, problem, label) });
  });
}

/**
 * A measure's value as forms send it: a number, a numeric string (decimal comma accepted) or blank/null for
 * "no value". "Infinity", "NaN", "1e999" and anything the column cannot hold are refused.
 */
export function measureInput(measure: Measure, label: string = MEASURE_BOUNDS[measure].label) {
  return z
    .union([z.number(), z.string(), z.null()], { message: measureMessage(measure, 'invalid', label) })
    .transform((v, ctx): number | null => {
      if (v === null) return null;
      let n: number;
      if (typeof v === 'number') n = v;
      else {
        const text = v.trim();
        if (text === '') return null;
        // Only plain decimal notation: Number() would also read "Infinity", "0x1F" and "1e999".
        if (!/^[+-]?\d+(?:[.,]\d+)?$/.test(text)) {
          ctx.addIssue({ code: 'custom', message: measureMessage(measure, 'invalid', label) });
          return z.NEVER;
        }
        n = Number(text.replace(',', '.'));
      }
      const problem = checkMeasure(measure, n);
      if (problem !== 'ok') {
        ctx.addIssue({ code: 'custom', message: measureMessage(measure, problem, label) });
        return z.NEVER;
      }
      return n;
    });
}

/**
 * Alarm limits as clients send them, one schema for every call that takes them (D4 `PUT /api/devices/{id}`, T9
 * `PUT /api/travels/edit-travel-device`, the devices of `POST /api/travels`): each limit a number or a numeric string
 * (the documents' device config holds "strings parsed as numbers"), null or blank for "no limit", absent for
 * "unchanged".
 */
export const AlarmLimitsInput = z.object({
  temperature: z
    .object({ min: measureInput('temperature', 'Temperatura mínima').optional(), max: measureInput('temperature', 'Temperatura máxima').optional() })
    .optional(),
  humidity: z.object({ min: measureInput('humidity', 'Umidade mínima').optional(), max: measureInput('humidity', 'Umidade máxima').optional() }).optional(),
});

/** An integer within [min, max] (which must lie within `integer`); `coerce` reads it from a query string. */
export function boundedInt(label: string, min: number, max: number, options: { coerce?: boolean } = {}) {
  if (!fitsColumn(min, 'integer') || !fitsColumn(max, 'integer')) throw new Error(`boundedInt(${label}): bounds beyond int4`);
  const message = `${label} deve ser um número inteiro entre ${min} e ${max}.`;
  const base = options.coerce ? z.coerce.number({ message }) : z.number({ message });
  return base.int({ message }).min(min, { message }).max(max, { message });
}

// ---------------------------------------------------------------------------------------------------------------
// Text

/** C0 and C1 control characters and DEL; single-line text refuses all of them, multi-line text keeps tab and newlines. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Half of a surrogate pair without the other half: not text in any encoding (PostgreSQL refuses it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Characters that reverse how the text around them is displayed: a way to disguise names and file names. */
const BIDI_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/;

export interface TextRule {
  /** Longest text accepted, in characters (after trimming). */
  max: number;
  /** Shortest; 1 makes the field required (an empty or blank text is refused with `requiredMessage`). */
  min?: number;
  /** Keep tab and line breaks (messages, notes, addresses typed in a text area). */
  multiline?: boolean;
  requiredMessage?: string;
}

/** Why `text` cannot be stored as text of this rule, or null when it can. Exposed for hand-written validators. */
export function textProblem(text: string, label: string, rule: { max: number; multiline?: boolean }): string | null {
  if ((rule.multiline ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE).test(text) || LONE_SURROGATE.test(text) || BIDI_OVERRIDE.test(text)) {
    return `${label} contém caracteres inválidos.`;
  }
  if (text.length > rule.max) return `${label} deve ter no máximo ${rule.max} caracteres.`;
  return null;
}

/**
 * Text that a `text` column holds and every screen shows safely: trimmed, Unicode-normalised (NFC, so "é" typed
 * two ways is one name), no control characters, no unpaired surrogates, no direction overrides, bounded length.
 */
export function cleanText(label: string, rule: TextRule) {
  const min = rule.min ?? 0;
  const requiredMessage = rule.requiredMessage ?? `Informe ${label.toLowerCase()}.`;
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? (min > 0 ? requiredMessage : undefined) : `${label} deve ser um texto.`) })
    .transform((v, ctx) => {
      const text = v.trim();
      const problem = textProblem(text, label, rule);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      if (text.length < min) {
        // Nothing typed is asked for; something too short is told its minimum.
        ctx.addIssue({ code: 'custom', message: text.length === 0 ? requiredMessage : `${label} deve ter no mínimo ${min} caracteres.` });
        return z.NEVER;
      }
      return text.normalize('NFC');
    });
}

/**
 * A secret as typed (passwords): never trimmed nor normalised, since its exact characters are what was hashed,
 * but no control characters (NUL above all) and no unpaired surrogates, and bounded.
 */
export function secretText(label: string, rule: { max: number; requiredMessage: string }) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? undefined : `${label} deve ser um texto.`) })
    .min(1, rule.requiredMessage)
    .max(rule.max, `${label} deve ter no máximo ${rule.max} caracteres.`)
    .refine((v) => !CONTROL_SINGLE_LINE.test(v) && !LONE_SURROGATE.test(v), `${label} contém caracteres inválidos.`);
}

/** A query-string field: an empty one ('', as forms send blank fields) is absent. */
export function queryField<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
}

/** Optional text: absent, null or blank become null (the column's "no value"). */
export function optionalText(label: string, rule: Omit<TextRule, 'min' | 'requiredMessage'>) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), cleanText(label, rule).nullable().optional());
}

// ---------------------------------------------------------------------------------------------------------------
// Instants

/**
 * Instants the product accepts anywhere: readings, filters, report periods. PostgreSQL holds far more
 * (4713 BC to 294276 AD) and JavaScript a little less (±275,760 years); keeping to 1970–2199 leaves every
 * instant representable by both, and every partition computation sane.
 */
export const INSTANT_MIN_MS = Date.UTC(1970, 0, 1);
export const INSTANT_MAX_MS = Date.UTC(2200, 0, 1);

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const ISO_DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** The instant in ms of an ISO-8601 text, or null when it is not one or lies outside the accepted years. */
export function parseBoundedInstant(text: string, options: { requireOffset?: boolean } = {}): number | null {
  if (text.length > 40 || !(options.requireOffset ? ISO_WITH_OFFSET : ISO_DATE_OR_INSTANT).test(text)) return null;
  const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
  // Date.parse rolls 2026-02-30 over into March: a calendar date that does not exist is refused.
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || ms < INSTANT_MIN_MS || ms >= INSTANT_MAX_MS) return null;
  return ms;
}

/**
 * An instant in a request, kept as the text the client sent (ISO-8601; with `requireOffset` an offset or Z is
 * required, since a time without one is ambiguous). Refused outside 1970–2199 with a pt-BR message.
 */
export function boundedInstant(label: string, options: { requireOffset?: boolean } = {}) {
  return z.string({ message: `${label} não é uma data válida.` }).trim().refine((v) => parseBoundedInstant(v, options) !== null, {
    message: `${label} não é uma data válida (use AAAA-MM-DD, entre 1970 e 2199).`,
  });
}
