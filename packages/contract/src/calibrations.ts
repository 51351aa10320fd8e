import { z } from './zod-locale';
import { IsoDate } from './common';
import { formatMegabytes } from './firmware';
import { cleanText } from './values';

/**
 * Calibration certificates per sensor (X12, ADR 0077): a PDF from an accredited laboratory, its dates and, optionally,
 * the reference and measured points it lists. The certificate in force is a device's latest calibration; it is
 * "due" within CALIBRATION_DUE_DAYS of its due date and "overdue" after it.
 */

/** Largest certificate PDF (10 MB). */
export const CALIBRATION_MAX_BYTES = 10 * 1024 * 1024;
/** Days before its due date from which a certificate is listed as due and announced. */
export const CALIBRATION_DUE_DAYS = 30;
/** Reference/measured pairs a certificate may list. */
export const CALIBRATION_MAX_POINTS = 30;

export const CALIBRATION_MESSAGES = {
  notFound: 'Certificado de calibração não encontrado.',
  deviceNotFound: 'Dispositivo não encontrado.',
  fileRequired: 'Envie o certificado de calibração em PDF.',
  fileEmpty: 'O arquivo do certificado está vazio.',
  notPdf: 'O certificado deve ser um arquivo PDF válido.',
  oneFile: 'Envie um único arquivo.',
  notMultipart: 'Envie os dados e o certificado como formulário (multipart/form-data).',
  fileTooLarge: (maxBytes: number) => `O certificado deve ter no máximo ${formatMegabytes(maxBytes)}.`,
  fileMissing: 'O arquivo deste certificado não está mais disponível.',
  duplicate: 'Este certificado já foi registrado para este dispositivo.',
  dateFormat: (label: string) => `${label}: informe uma data válida (AAAA-MM-DD).`,
  dueBeforeCalibration: 'A data de vencimento deve ser posterior à data de calibração.',
  calibratedInFuture: 'A data de calibração não pode estar no futuro.',
  validityTooLong: 'O certificado não pode valer mais de 10 anos.',
  pointsFormat: 'Os pontos de calibração devem ser uma lista de pares de referência e medição.',
  tooManyPoints: `Informe no máximo ${CALIBRATION_MAX_POINTS} pontos de calibração.`,
  saved: 'Certificado de calibração registrado com sucesso!',
  saveFailed: 'Não foi possível registrar o certificado de calibração.',
  listFailed: 'Não foi possível carregar os certificados de calibração.',
  downloadFailed: 'Não foi possível baixar o certificado.',
  /** The badges of the device screens and the texts of reports. */
  dueOn: (date: string) => `Calibração vence em ${date}`,
  overdue: 'Calibração vencida',
  none: 'Sem certificado de calibração',
} as const;

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

/** A day of the calendar as the certificate prints it, "YYYY-MM-DD" (no time, no zone). */
export const calendarDate = (label: string) =>
  z
    .string({ error: () => CALIBRATION_MESSAGES.dateFormat(label) })
    .trim()
    .refine(isCalendarDate, CALIBRATION_MESSAGES.dateFormat(label));

/** Days from `from` to `to`, both "YYYY-MM-DD" (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** "2027-03-15" → "15/03/2027". */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

export const CalibrationStatus = z.enum(['valid', 'due', 'overdue']);
export type CalibrationStatus = z.infer<typeof CalibrationStatus>;

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
  return { status, text: status === 'overdue' ? CALIBRATION_MESSAGES.overdue : CALIBRATION_MESSAGES.dueOn(formatCalendarDate(dueAt)) };
}

const pointValue = (label: string) =>
  z.number({ message: `${label}: esperado um número.` }).finite(`${label}: esperado um número.`).min(-100, `${label} fora da faixa (-100 a 200).`).max(200, `${label} fora da faixa (-100 a 200).`);

/** One line of a certificate's table: the reference standard's value and the sensor's reading, in °C or % RH. */
export const CalibrationPoint = z.object({
  quantity: z.enum(['temperature', 'humidity'], { message: 'Grandeza deve ser temperature ou humidity.' }).default('temperature'),
  reference: pointValue('Valor de referência'),
  measured: pointValue('Valor medido'),
  /** The expanded uncertainty the laboratory states, when it does. */
  uncertainty: z.number({ message: 'Incerteza: esperado um número.' }).finite().min(0, 'A incerteza não pode ser negativa.').max(50, 'Incerteza fora da faixa (0 a 50).').nullable().optional(),
});
export type CalibrationPoint = z.infer<typeof CalibrationPoint>;

export const CalibrationPoints = z.array(CalibrationPoint, { message: CALIBRATION_MESSAGES.pointsFormat }).max(CALIBRATION_MAX_POINTS, CALIBRATION_MESSAGES.tooManyPoints);

/** The text fields of the upload form (multipart, before the `certificate` file); `points` is JSON text. */
export const CalibrationFields = z.object({
  calibrated_at: calendarDate('Data da calibração'),
  due_at: calendarDate('Data de vencimento'),
  laboratory: cleanText('O laboratório', { min: 1, max: 120, requiredMessage: 'Informe o laboratório.' }),
  certificate_number: cleanText('O número do certificado', { min: 1, max: 60, requiredMessage: 'Informe o número do certificado.' }),
  points: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: CALIBRATION_MESSAGES.pointsFormat });
        return z.NEVER;
      }
      const points = CalibrationPoints.safeParse(parsed);
      if (!points.success) {
        ctx.addIssue({ code: 'custom', message: points.error.issues[0]?.message ?? CALIBRATION_MESSAGES.pointsFormat });
        return z.NEVER;
      }
      return points.data;
    }),
});
export type CalibrationFields = z.infer<typeof CalibrationFields>;

export const Calibration = z.object({
  _id: z.string(),
  device_id: z.string(),
  calibrated_at: z.string(),
  due_at: z.string(),
  laboratory: z.string(),
  certificate_number: z.string(),
  points: z.array(CalibrationPoint),
  file_name: z.string(),
  file_size: z.number().int(),
  sha256: z.string(),
  created_at: IsoDate,
  created_by: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** The device's certificate in force (its latest calibration). */
  current: z.boolean(),
  /** Where this certificate stands today. */
  status: CalibrationStatus,
});
export type Calibration = z.infer<typeof Calibration>;

export const CalibrationList = z.array(Calibration);

/** A device whose certificate in force is due within CALIBRATION_DUE_DAYS or overdue (GET /api/calibrations/due). */
export const CalibrationDue = z.object({
  device: z.object({ _id: z.string(), name: z.string(), mac: z.string(), enterprise: z.object({ _id: z.string(), name: z.string() }).nullable() }),
  calibration: z.object({ _id: z.string(), certificate_number: z.string(), laboratory: z.string(), calibrated_at: z.string(), due_at: z.string() }),
  status: z.enum(['due', 'overdue']),
  /** Days until the due date; negative once overdue. */
  days: z.number().int(),
});
export type CalibrationDue = z.infer<typeof CalibrationDue>;
export const CalibrationDueList = z.array(CalibrationDue);

export const CalibrationLimits = z.object({ max_bytes: z.number().int() });
export type CalibrationLimits = z.infer<typeof CalibrationLimits>;
