import { INSTANT_MAX_MS, INSTANT_MIN_MS } from '@sentinela/contract';
import { dayjs } from '../../lib/dayjs';
import type { ReportListFilters } from './api/list-reports';

/** The two datetime-local fields of /reports, as typed (local time, to the minute). */
export interface PeriodForm {
  dateInit: string;
  dateEnd: string;
}

const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * The instant a typed local date/time means; '' is no limit (null, spec 001 §5). An end typed to the minute covers
 * that whole minute, so "até 10:30" keeps what was generated at 10:30:xx.
 */
function toInstant(text: string, edge: 'start' | 'end'): string | null | undefined {
  const value = text.trim();
  if (value === '') return null;
  if (!LOCAL_DATETIME.test(value)) return undefined;
  const parsed = dayjs(value);
  if (!parsed.isValid()) return undefined;
  const toMinute = value.length === 'YYYY-MM-DDTHH:mm'.length;
  const instant = edge === 'end' && toMinute ? parsed.add(59_999, 'millisecond') : parsed;
  // The server takes instants from 1970 to 2199 only (ADR 11).
  if (instant.valueOf() < INSTANT_MIN_MS || instant.valueOf() >= INSTANT_MAX_MS) return undefined;
  return instant.toISOString();
}

/** The list filters of the typed period, as ISO instants; an error when a date is unreadable or the period reversed. */
export function periodFormToFilters(form: PeriodForm): { ok: true; filters: ReportListFilters } | { ok: false; error: string } {
  const dateInit = toInstant(form.dateInit, 'start');
  const dateEnd = toInstant(form.dateEnd, 'end');
  if (dateInit === undefined || dateEnd === undefined) return { ok: false, error: 'Data inválida.' };
  if (dateInit && dateEnd && dateInit > dateEnd) return { ok: false, error: 'A data inicial deve ser anterior à data final.' };
  return { ok: true, filters: { dateInit, dateEnd } };
}
