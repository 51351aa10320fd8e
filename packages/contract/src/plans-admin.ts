import { z } from './zod-locale';
import { formatBRL } from './billing';
import { IsoDate } from './common';
import { numberToCents, parseBrlCents } from './money';
import { pluralize } from './text-format';
import { boundedInt, cleanText } from './values';

/**
 * Plans and FAQ administered by the super admin (issue 13, item 1; ADR 28). Money travels as BRL with at most two
 * decimals and is turned into whole centavos here, so no floating-point sum ever reaches the database.
 */
export const PLAN_ADMIN_MESSAGES = {
  created: 'Plano cadastrado com sucesso!',
  updated: 'Plano alterado com sucesso!',
  retired: 'Plano retirado: ele não é mais oferecido, e quem já o assina continua com ele.',
  restored: 'Plano oferecido novamente.',
  deleted: 'Plano excluído.',
  notFound: 'Plano não encontrado.',
  nameTaken: 'Já existe um plano com este nome.',
  hasSubscribers: 'Este plano tem assinantes e não pode ser excluído. Retire-o para deixar de oferecê-lo.',
  cycleInUse: (cycle: string) => `O ciclo ${cycle} deste plano tem assinantes ou pedidos de mudança e não pode ser removido.`,
  cyclesRequired: 'Informe ao menos um ciclo (Mensal ou Anual).',
  cycleRepeated: 'Cada ciclo (Mensal, Anual) pode aparecer uma única vez.',
  cycleName: 'O ciclo deve ser Mensal ou Anual.',
  tooManyFeatures: (max: number) => `Informe no máximo ${max} recursos.`,
  empty: 'Nenhum plano cadastrado.',
} as const;

export const FAQ_ADMIN_MESSAGES = {
  created: 'Pergunta cadastrada com sucesso!',
  updated: 'Pergunta alterada com sucesso!',
  deleted: 'Pergunta excluída.',
  reordered: 'Ordem das perguntas salva.',
  notFound: 'Pergunta não encontrada.',
  orderMismatch: 'A nova ordem deve conter cada pergunta uma única vez. Recarregue a página e tente novamente.',
  tooMany: (max: number) => `O FAQ pode ter no máximo ${max} perguntas.`,
  empty: 'Nenhuma pergunta cadastrada.',
} as const;

/** The device-limit refusal (issue 13, item 1): names the plan, its limit, what the enterprise has and would have. */
export function deviceLimitMessage(plan: string, max: number, current: number, after: number): string {
  const devices = (n: number) => pluralize(n, 'dispositivo', 'dispositivos');
  return `O plano ${plan} permite até ${devices(max)}. A empresa tem ${current} e ficaria com ${after}. Mude de plano ou desvincule dispositivos antes.`;
}

/** Largest price of one cycle: a typo with three extra zeros is refused, a real enterprise plan is not. */
export const PLAN_VALUE_MAX_CENTS = 100_000_000; // R$ 1.000.000,00
export const PLAN_MAX_DEVICES_MAX = 1_000_000;
export const PLAN_FEATURES_MAX = 20;
export const FAQ_ITEMS_MAX = 100;
export const PLAN_CYCLE_NAMES = ['Mensal', 'Anual'] as const;
export type PlanCycleName = (typeof PLAN_CYCLE_NAMES)[number];

const moneyMessage = (label: string) => `${label} deve ser um valor em reais entre 0,00 e ${formatBRL(PLAN_VALUE_MAX_CENTS)}, com no máximo dois decimais.`;

/**
 * A price in BRL as forms and API clients send it (149.9, "149,90", "1.529,00", "R$ 1.529,00") → whole centavos, by
 * the one money parser (money.ts).
 */
export function brlToCents(label: string) {
  const message = moneyMessage(label);
  return z.union([z.number(), z.string()], { message }).transform((v, ctx): number => {
    const cents = typeof v === 'number' ? numberToCents(v) : parseBrlCents(v);
    if (cents === null || cents > PLAN_VALUE_MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return cents;
  });
}

export const PlanCycleInput = z.object({
  name: z.enum(PLAN_CYCLE_NAMES, { message: PLAN_ADMIN_MESSAGES.cycleName }),
  value: brlToCents('O valor'),
});

export const PlanBody = z.object({
  name: cleanText('Nome do plano', { min: 1, max: 60, requiredMessage: 'Informe o nome do plano.' }),
  /** Devices an enterprise on this plan may have; null (or absent): no limit. */
  max_devices: boundedInt('O limite de dispositivos', 1, PLAN_MAX_DEVICES_MAX).nullable().default(null),
  /** One list shown on every cycle's card (ADR 28). */
  features: z
    .array(cleanText('Recurso', { min: 1, max: 120, requiredMessage: 'Um recurso está em branco: preencha-o ou remova-o.' }), { message: 'Informe os recursos do plano.' })
    .max(PLAN_FEATURES_MAX, PLAN_ADMIN_MESSAGES.tooManyFeatures(PLAN_FEATURES_MAX)),
  cycles: z
    .array(PlanCycleInput, { message: PLAN_ADMIN_MESSAGES.cyclesRequired })
    .min(1, PLAN_ADMIN_MESSAGES.cyclesRequired)
    .max(PLAN_CYCLE_NAMES.length, PLAN_ADMIN_MESSAGES.cycleRepeated)
    .refine((cycles) => new Set(cycles.map((c) => c.name)).size === cycles.length, PLAN_ADMIN_MESSAGES.cycleRepeated),
});
export type PlanBody = z.input<typeof PlanBody>;
export type PlanBodyParsed = z.output<typeof PlanBody>;

/** A plan as the administration screen sees it: retired ones too, with how many enterprises subscribe to it. */
export const AdminPlan = z.object({
  _id: z.string(),
  name: z.string(),
  position: z.number().int(),
  max_devices: z.number().int().nullable(),
  retired_at: IsoDate.nullable(),
  features: z.array(z.string()),
  cicle: z.array(z.object({ id: z.string(), name: z.string(), value: z.number(), value_cents: z.number().int() })),
  subscribers: z.number().int(),
});
export type AdminPlan = z.infer<typeof AdminPlan>;
export const AdminPlanList = z.array(AdminPlan);

export const FaqBody = z.object({
  question: cleanText('A pergunta', { min: 1, max: 200, requiredMessage: 'Informe a pergunta.' }),
  answer: cleanText('A resposta', { min: 1, max: 2000, multiline: true, requiredMessage: 'Informe a resposta.' }),
});
export type FaqBody = z.input<typeof FaqBody>;

export const AdminFaqItem = z.object({ _id: z.string(), question: z.string(), answer: z.string(), position: z.number().int() });
export type AdminFaqItem = z.infer<typeof AdminFaqItem>;
export const AdminFaqList = z.array(AdminFaqItem);

/** The whole FAQ in its new order: every item once (a stale screen is refused rather than half applied). */
export const FaqOrderBody = z.object({
  ids: z.array(z.uuid(FAQ_ADMIN_MESSAGES.notFound), { message: FAQ_ADMIN_MESSAGES.orderMismatch }).max(FAQ_ITEMS_MAX, FAQ_ADMIN_MESSAGES.orderMismatch),
});
