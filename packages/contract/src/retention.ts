import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { boundedInt, cleanText, queryField } from './values';

/**
 * Retention (issue 25 point 5, ADR 0081): how long an enterprise's readings and report files are kept, and a legal hold
 * that keeps everything. Five years and a day by default; in GxP mode readings are kept at least that long (RDC 430).
 */
export const RETENTION_DEFAULT_DAYS = 1827;
/** The shortest retention an enterprise may choose; GxP mode raises it for readings to the default. */
export const RETENTION_MIN_DAYS = 30;
export const RETENTION_MAX_DAYS = 36600;

export const RETENTION_MESSAGES = {
  enterpriseRequired: 'Informe a empresa.',
  enterpriseNotFound: 'Empresa não encontrada.',
  gxpMinimum: `No modo GxP as leituras são guardadas por pelo menos ${RETENTION_DEFAULT_DAYS} dias (5 anos).`,
  holdReasonRequired: 'Informe o motivo da retenção legal.',
  reasonRequired: 'Informe o motivo da alteração.',
  fileRemoved: 'O arquivo deste relatório foi removido pela política de retenção da empresa.',
} as const;

export const RetentionQuery = z.object({ enterprise_id: queryField(z.uuid(RETENTION_MESSAGES.enterpriseNotFound)) });

export const RetentionSettings = z.object({
  enterprise_id: z.string(),
  readings_days: z.number().int(),
  report_files_days: z.number().int(),
  legal_hold: z.boolean(),
  legal_hold_reason: z.string().nullable(),
  /** The shortest readings retention this enterprise may choose now (higher in GxP mode). */
  minimum_readings_days: z.number().int(),
});
export type RetentionSettings = z.infer<typeof RetentionSettings>;

export const RetentionBody = z
  .object({
    readings_days: boundedInt('O prazo das leituras (dias)', RETENTION_MIN_DAYS, RETENTION_MAX_DAYS),
    report_files_days: boundedInt('O prazo dos arquivos de relatório (dias)', RETENTION_MIN_DAYS, RETENTION_MAX_DAYS),
    legal_hold: z.boolean({ message: 'Informe se a retenção legal está ativa.' }),
    legal_hold_reason: cleanText('O motivo da retenção legal', { max: 500, multiline: true }).nullish(),
    /** The reason for the change (required in GxP mode; the trail keeps it). */
    reason: changeReason(),
  })
  .superRefine((body, ctx) => {
    if (body.legal_hold && !body.legal_hold_reason) ctx.addIssue({ code: 'custom', path: ['legal_hold_reason'], message: RETENTION_MESSAGES.holdReasonRequired });
  });
export type RetentionBody = z.infer<typeof RetentionBody>;

/** What one run of the retention job removed (kept in the audit trail, per enterprise). */
export interface RetentionRun {
  readings: number;
  partitions: string[];
  reportFiles: number;
}
