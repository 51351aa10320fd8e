import { z } from './zod-locale';

/** Reminders and escalation of open, unacknowledged alarms, per enterprise (issue 11 item 4; ADR 24). */
export const ESCALATION_LIMITS = { min: 5, max: 1440 } as const;
export const ESCALATION_DEFAULTS = { reminder_minutes: 30, escalation_minutes: 60 } as const;

export const ESCALATION_MESSAGES = {
  saved: 'Lembretes e escalonamento salvos.',
  enterpriseNotFound: 'Empresa não encontrada.',
  noEnterprise: 'Escolha a empresa cujos lembretes e escalonamento deseja ver ou alterar.',
} as const;

/** 0 (off) or a whole number of minutes within the limits. */
function minutesOrOff(label: string) {
  const message = `${label} deve ser 0 (desligado) ou um número inteiro de minutos entre ${ESCALATION_LIMITS.min} e ${ESCALATION_LIMITS.max}.`;
  return z
    .number({ message })
    .int({ message })
    .refine((n) => n === 0 || (n >= ESCALATION_LIMITS.min && n <= ESCALATION_LIMITS.max), { message });
}

/** GET/PUT /api/enterprise/alarm-escalation. */
export const AlarmEscalationSettings = z.object({
  /** Minutes between reminders while the alarm stays open and unacknowledged; 0: no reminders. */
  reminder_minutes: minutesOrOff('O intervalo dos lembretes'),
  /** Minutes after the alarm's announcement when the enterprise's administrators are told too; 0: never. */
  escalation_minutes: minutesOrOff('O tempo para escalonar'),
});
export type AlarmEscalationSettings = z.infer<typeof AlarmEscalationSettings>;

/** The platform administrator names the enterprise; an enterprise administrator's own is used (another is a 404). */
export const AlarmEscalationQuery = z.object({ enterprise_id: z.uuid(ESCALATION_MESSAGES.enterpriseNotFound).optional() });
