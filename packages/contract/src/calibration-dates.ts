/**
 * The calendar of calibration certificates (X12, ADR 0077), without zod: the device screens' first load reads a
 * device's due date with these (ADR 0048), the server and reports with the same rules.
 */

/** Days before its due date from which a certificate is listed as due and announced. */
export const CALIBRATION_DUE_DAYS = 30;

/** What the screens and reports say of a certificate's state. */
export const CALIBRATION_STATE_TEXTS = {
  dueOn: (date: string) => `Calibração vence em ${date}`,
  overdue: 'Calibração vencida',
  none: 'Sem certificado de calibração',
} as const;

export type CalibrationStatus = 'valid' | 'due' | 'overdue';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether "YYYY-MM-DD" names a day of the calendar (no 31 of April) between 1970 and 2199. */
export function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970 || year > 2199) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Days from `from` to `to`, both "YYYY-MM-DD" (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** "2027-03-15" → "15/03/2027". */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/**
 * Where a certificate due on `dueAt` stands on the day `today` ("YYYY-MM-DD" both): valid through its due date,
 * "due" from CALIBRATION_DUE_DAYS before it, "overdue" the day after. One rule for the server and the screens.
 */
export function calibrationStatus(dueAt: string, today: string): CalibrationStatus {
  const days = daysBetween(today, dueAt);
  if (days < 0) return 'overdue';
  return days <= CALIBRATION_DUE_DAYS ? 'due' : 'valid';
}

/** The badge of a device whose certificate is due or overdue ("Calibração vence em 15/03/2027"), or null. */
export function calibrationBadge(dueAt: string | null | undefined, today: string): { status: 'due' | 'overdue'; text: string } | null {
  if (!dueAt) return null;
  const status = calibrationStatus(dueAt, today);
  if (status === 'valid') return null;
  return { status, text: status === 'overdue' ? CALIBRATION_STATE_TEXTS.overdue : CALIBRATION_STATE_TEXTS.dueOn(formatCalendarDate(dueAt)) };
}
