import { checkMeasure, INSTANT_MAX_MS, INSTANT_MIN_MS, measureMessage, type Measure } from '@sentinela/contract';
import { dayjs } from '../../lib/dayjs';
import { parseNumberField, type NumberField } from '../../lib/number-field';

/**
 * The history filter (spec 001 "Device history", §3 history filter params) in its three forms:
 * - the form the user edits (numbers and datetime-local text, a UTC switch),
 * - the applied filter, kept in the URL query so a view can be shared and restored (bulletproof-react),
 * - the API query (minTemp, maxTemp, minHum, maxHum, dateInit, dateEnd, dateInitUtc, dateEndUtc, isUtc).
 * Dates typed with the switch on Não are local times; with Sim they are UTC. Either way the instants they mean
 * travel as dateInitUtc/dateEndUtc, which the server prefers; dateInit/dateEnd carry the typed text.
 */

export const DEFAULT_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

/** Format of a datetime-local input (minutes; seconds when the browser sends them). */
const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';


export interface FilterFormValues {
  minTemp: NumberField;
  maxTemp: NumberField;
  minHum: NumberField;
  maxHum: NumberField;
  dateInit: string;
  dateEnd: string;
  isUtc: boolean;
}

export interface HistoryFilterState {
  minTemp: number | null;
  maxTemp: number | null;
  minHum: number | null;
  maxHum: number | null;
  /** ISO instants. */
  from: string;
  to: string;
  isUtc: boolean;
}

export type FilterErrors = Partial<Record<keyof FilterFormValues, string>>;

const NUMBER_KEYS = ['minTemp', 'maxTemp', 'minHum', 'maxHum'] as const;

const NUMBER_LABELS: Record<(typeof NUMBER_KEYS)[number], string> = {
  minTemp: 'Temperatura mínima',
  maxTemp: 'Temperatura máxima',
  minHum: 'Umidade mínima',
  maxHum: 'Umidade máxima',
};

const NUMBER_MEASURES: Record<(typeof NUMBER_KEYS)[number], Measure> = { minTemp: 'temperature', maxTemp: 'temperature', minHum: 'humidity', maxHum: 'humidity' };

/** Default window: two days ago until now. */
export function defaultFilter(now: Date): HistoryFilterState {
  return {
    minTemp: null,
    maxTemp: null,
    minHum: null,
    maxHum: null,
    from: new Date(now.getTime() - DEFAULT_WINDOW_MS).toISOString(),
    to: now.toISOString(),
    isUtc: false,
  };
}

/**
 * The instant a typed datetime-local value means: local time, or UTC with the switch on Sim. An end typed to
 * the minute covers that whole minute, so "até 10:30" keeps the readings of 10:30:xx.
 */
export function typedToInstant(value: string, isUtc: boolean, edge: 'start' | 'end'): Date | null {
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(text)) return null;
  const parsed = isUtc ? dayjs.utc(text) : dayjs(text);
  if (!parsed.isValid()) return null;
  const minutePrecision = text.length === INPUT_FORMAT.length;
  const instant = edge === 'end' && minutePrecision ? parsed.add(59_999, 'millisecond').toDate() : parsed.toDate();
  // The server takes instants from 1970 to 2199 only (ADR 11).
  return instant.getTime() >= INSTANT_MIN_MS && instant.getTime() < INSTANT_MAX_MS ? instant : null;
}

/** The datetime-local text of an instant, in UTC or local time. */
export function instantToTyped(iso: string, isUtc: boolean): string {
  return (isUtc ? dayjs.utc(iso) : dayjs(iso)).format(INPUT_FORMAT);
}

/** The form showing an applied filter. */
export function filterToForm(filter: HistoryFilterState): FilterFormValues {
  const number = (value: number | null) => (value === null ? '' : value);
  return {
    minTemp: number(filter.minTemp),
    maxTemp: number(filter.maxTemp),
    minHum: number(filter.minHum),
    maxHum: number(filter.maxHum),
    dateInit: instantToTyped(filter.from, filter.isUtc),
    dateEnd: instantToTyped(filter.to, filter.isUtc),
    isUtc: filter.isUtc,
  };
}

/**
 * Validates the form and turns it into a filter. An empty end means now; an empty start, two days before the end.
 */
export function formToFilter(
  values: FilterFormValues,
  now: Date,
): { ok: true; filter: HistoryFilterState } | { ok: false; errors: FilterErrors } {
  const errors: FilterErrors = {};
  const numbers = {} as Record<(typeof NUMBER_KEYS)[number], number | null>;
  for (const key of NUMBER_KEYS) {
    const value = parseNumberField(values[key]);
    // The server's check of a filter value: within the measure's physical bounds.
    const problem = value === null || Number.isNaN(value) ? 'ok' : checkMeasure(NUMBER_MEASURES[key], value);
    if (Number.isNaN(value)) errors[key] = `${NUMBER_LABELS[key]} deve ser um número.`;
    else if (problem !== 'ok') errors[key] = measureMessage(NUMBER_MEASURES[key], problem, NUMBER_LABELS[key]);
    numbers[key] = Number.isNaN(value) ? null : value;
  }
  if (numbers.minTemp !== null && numbers.maxTemp !== null && numbers.minTemp > numbers.maxTemp) {
    errors.maxTemp = 'A temperatura mínima não pode ser maior que a máxima.';
  }
  if (numbers.minHum !== null && numbers.maxHum !== null && numbers.minHum > numbers.maxHum) {
    errors.maxHum = 'A umidade mínima não pode ser maior que a máxima.';
  }

  const to = values.dateEnd.trim() === '' ? now : typedToInstant(values.dateEnd, values.isUtc, 'end');
  if (!to) errors.dateEnd = 'Data final inválida.';
  const from =
    values.dateInit.trim() === ''
      ? new Date((to ?? now).getTime() - DEFAULT_WINDOW_MS)
      : typedToInstant(values.dateInit, values.isUtc, 'start');
  if (!from) errors.dateInit = 'Data inicial inválida.';
  if (from && to && from > to) errors.dateEnd = 'A data inicial deve ser anterior à data final.';

  if (Object.keys(errors).length > 0 || !from || !to) return { ok: false, errors };
  return { ok: true, filter: { ...numbers, from: from.toISOString(), to: to.toISOString(), isUtc: values.isUtc } };
}

/** URL query keys the applied filter is kept in (the API's names). */
const URL_KEYS = ['minTemp', 'maxTemp', 'minHum', 'maxHum', 'dateInitUtc', 'dateEndUtc', 'isUtc'] as const;

/** Writes the applied filter into a copy of the URL query, keeping its other keys (tab) and dropping the page. */
export function filterToSearch(filter: HistoryFilterState, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of URL_KEYS) next.delete(key);
  next.delete('page');
  for (const key of NUMBER_KEYS) {
    const value = filter[key];
    if (value !== null) next.set(key, String(value));
  }
  next.set('dateInitUtc', filter.from);
  next.set('dateEndUtc', filter.to);
  next.set('isUtc', String(filter.isUtc));
  return next;
}

function numberParam(params: URLSearchParams, key: string): number | null {
  const text = params.get(key);
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function instantParam(params: URLSearchParams, key: string): string | null {
  const text = params.get(key);
  if (!text) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** The applied filter of a URL query; what is missing or unreadable falls back to the defaults. */
export function filterFromSearch(params: URLSearchParams, now: Date): HistoryFilterState {
  const defaults = defaultFilter(now);
  const to = instantParam(params, 'dateEndUtc') ?? defaults.to;
  let from = instantParam(params, 'dateInitUtc') ?? new Date(Date.parse(to) - DEFAULT_WINDOW_MS).toISOString();
  if (from > to) from = new Date(Date.parse(to) - DEFAULT_WINDOW_MS).toISOString();
  return {
    minTemp: numberParam(params, 'minTemp'),
    maxTemp: numberParam(params, 'maxTemp'),
    minHum: numberParam(params, 'minHum'),
    maxHum: numberParam(params, 'maxHum'),
    from,
    to,
    isUtc: params.get('isUtc') === 'true',
  };
}

/** The filter as the history calls take it (spec 001 §3), as a query string. */
export function filterToApiQuery(filter: HistoryFilterState): string {
  const query = new URLSearchParams();
  for (const key of NUMBER_KEYS) {
    const value = filter[key];
    if (value !== null) query.set(key, String(value));
  }
  const typedFormat = 'YYYY-MM-DDTHH:mm:ss';
  const typed = (iso: string) => (filter.isUtc ? dayjs.utc(iso) : dayjs(iso)).format(typedFormat);
  query.set('dateInit', typed(filter.from));
  query.set('dateEnd', typed(filter.to));
  query.set('dateInitUtc', filter.from);
  query.set('dateEndUtc', filter.to);
  query.set('isUtc', String(filter.isUtc));
  return query.toString();
}
