import { z } from './zod-locale';
import { IsoDate } from './common';
import { formatMegabytes } from './firmware';
import { cleanText } from './values';
import { CALIBRATION_STATE_TEXTS, isCalendarDate } from './calibration-dates';

export * from './calibration-dates';

/**
 * Calibration certificates per sensor (X12, ADR 0077): a PDF from an accredited laboratory, its dates and, optionally,
 * the reference and measured points it lists. The certificate in force is a device's latest calibration; it is
 * "due" within CALIBRATION_DUE_DAYS of its due date and "overdue" after it.
 */

/** Largest certificate PDF (10 MB). */
export const CALIBRATION_MAX_BYTES = 10 * 1024 * 1024;
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
  ...CALIBRATION_STATE_TEXTS,
} as const;

/** A day of the calendar as the certificate prints it, "YYYY-MM-DD" (no time, no zone). */
export const calendarDate = (label: string) =>
  z
    .string({ error: () => CALIBRATION_MESSAGES.dateFormat(label) })
    .trim()
    .refine(isCalendarDate, CALIBRATION_MESSAGES.dateFormat(label));

export const CalibrationStatus = z.enum(['valid', 'due', 'overdue']);

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
