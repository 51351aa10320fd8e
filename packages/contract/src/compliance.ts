import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { queryField } from './values';

/** GxP mode (issue 22 point 1, FEATURES X11, ADR 0061). */
export const COMPLIANCE_MESSAGES = {
  enterpriseRequired: 'Informe a empresa.',
  enterpriseNotFound: 'Empresa não encontrada.',
  reasonToTurnOff: 'Informe o motivo para desativar o modo GxP.',
} as const;

/** GET/PUT /api/enterprise/compliance: the super admin names the enterprise with `?enterprise_id=`. */
export const ComplianceQuery = z.object({ enterprise_id: queryField(z.uuid(COMPLIANCE_MESSAGES.enterpriseNotFound)) });

export const ComplianceSettings = z.object({
  enterprise_id: z.string(),
  gxp: z.boolean(),
});
export type ComplianceSettings = z.infer<typeof ComplianceSettings>;

export const ComplianceBody = z.object({
  gxp: z.boolean({ message: 'Informe se o modo GxP fica ativo.' }),
  /** Required to turn GxP mode off (the trail keeps it). */
  reason: changeReason(),
});
export type ComplianceBody = z.infer<typeof ComplianceBody>;
