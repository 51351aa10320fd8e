import { formatQuantity, formatRange } from '@sentinela/contract';

/** pt-BR display formats (P7). Missing values show as "--", as the documents do. */
export const EMPTY = '--';

// Numbers, ranges and counts inside sentences come from the contract's one helper, shared with the server's texts
// (device events, alarms, reports): a decimal comma with two digits, "a" between the ends of a range, "1 minuto".
export { formatDecimal, formatRange, pluralize } from '@sentinela/contract';

type DateInput = string | number | Date | null | undefined;

const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** 1.234 */
export function formatInteger(value: number): string {
  return integer.format(value);
}

// dayjs's reading of a date in UTC mode, without dayjs (~4 kB gzip: these formats are on the device lists' first
// paint, ADR 0048): "YYYY-MM-DD[T ]HH:mm:ss.SSS" without an offset is UTC; anything else is what Date makes of it.
const NO_OFFSET = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;

function readUtc(value: string | number | Date): Date {
  const parts = typeof value === 'string' && !/z$/i.test(value) ? NO_OFFSET.exec(value) : null;
  if (!parts) return new Date(value);
  const [, year, month, day, hours, minutes, seconds, fraction] = parts.map((part) => part || undefined);
  return new Date(
    Date.UTC(Number(year), Number(month ?? 1) - 1, Number(day ?? 1), Number(hours ?? 0), Number(minutes ?? 0), Number(seconds ?? 0), Number((fraction ?? '0').slice(0, 3))),
  );
}

const two = (n: number) => String(n).padStart(2, '0');
const TOKENS: Record<string, (date: Date) => string> = {
  YYYY: (date) => String(date.getFullYear()),
  MM: (date) => two(date.getMonth() + 1),
  DD: (date) => two(date.getDate()),
  HH: (date) => two(date.getHours()),
  H: (date) => String(date.getHours()),
  mm: (date) => two(date.getMinutes()),
  ss: (date) => two(date.getSeconds()),
};

function formatLocal(value: DateInput, pattern: string): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  // Server times are UTC; strings without an offset are read as UTC too, then shown in local time.
  const date = readUtc(value);
  return Number.isNaN(date.getTime()) ? EMPTY : pattern.replace(/YYYY|MM|DD|HH|H|mm|ss/g, (token) => TOKENS[token]!(date));
}

/** Today's calendar day in local time, "YYYY-MM-DD" (calibration due dates are compared with it). */
export const todayIso = (now: Date = new Date()) => `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;

/** DD/MM/YYYY in local time (invoice dates). */
export const formatDate = (value: DateInput) => formatLocal(value, 'DD/MM/YYYY');
/** DD/MM/YYYY HH:mm:ss in local time. */
export const formatDateTime = (value: DateInput) => formatLocal(value, 'DD/MM/YYYY HH:mm:ss');
/** DD/MM/YYYY HH:mm:ss in local time with its offset, "28/11/2026 11:05:42 (UTC-03:00)" (a signature's timestamp). */
export function formatDateTimeWithZone(value: DateInput): string {
  const text = formatDateTime(value);
  if (text === EMPTY) return text;
  const offset = -readUtc(value as string | number | Date).getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${text} (UTC${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)})`;
}
/** DD/MM HH:mm:ss in local time (travel rows and readings). */
export const formatShortDateTime = (value: DateInput) => formatLocal(value, 'DD/MM HH:mm:ss');
/** HH:mm in local time ("Atualizado às" of the monitor page, alarms since). */
export const formatTimeOfDay = (value: DateInput) => formatLocal(value, 'HH:mm');
/** DD/MM/YYYY H:mm:ss in local time (last update of a travel's device card). */
export const formatCardDateTime = (value: DateInput) => formatLocal(value, 'DD/MM/YYYY H:mm:ss');
/** DD/MM/YYYY HH:mm in local time (report periods). */
export const formatDateTimeMinutes = (value: DateInput) => formatLocal(value, 'DD/MM/YYYY HH:mm');

function formatMeasure(value: number | null | undefined, unit: string): string {
  return value === null || value === undefined || Number.isNaN(value) ? EMPTY : formatQuantity(value, unit);
}

/** 23,50 °C */
export const formatTemperature = (value: number | null | undefined) => formatMeasure(value, '°C');
/** 45,10 % */
export const formatHumidity = (value: number | null | undefined) => formatMeasure(value, '%');
/** Limits or an observed range: "-15,29 a -14,00 °C", "mínimo 2,00 °C"; `none` when neither end is set. */
export const formatTemperatureRange = (min: number | null | undefined, max: number | null | undefined, none?: string) => formatRange(min, max, '°C', { none });
export const formatHumidityRange = (min: number | null | undefined, max: number | null | undefined, none?: string) => formatRange(min, max, '%', { none });

/** Cuts text longer than `max` characters and adds an ellipsis (P6: email 30, enterprise name 20). */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

export const EMAIL_MAX_LENGTH = 30;
export const ENTERPRISE_NAME_MAX_LENGTH = 20;
