import { z } from './zod-locale';
import { IsoDate } from './common';
import { Invoice, SUBSCRIPTION_STATUSES, formatBRL } from './billing';
import { PLAN_MESSAGES } from './onboarding';

/**
 * The enterprise's subscription on /plans: what it has, a change waiting for the next cycle, an upgrade at once with
 * a pro-rated invoice, and what a restricted subscription may not do (issue 13 items 1, 2 and 6; ADR 32).
 */

export const SUBSCRIPTION_MESSAGES = {
  notFound: 'A empresa ainda não tem assinatura.',
  upgraded: 'Plano alterado! O novo plano já vale, e a fatura proporcional aos dias restantes do período foi emitida.',
  upgradedNoCharge: 'Plano alterado! O novo plano já vale; não há diferença a cobrar pelos dias restantes do período.',
  scheduled: 'Troca agendada! O novo plano começa no próximo ciclo.',
  pendingCancelled: 'Troca de plano cancelada. A empresa continua no plano atual.',
  noPendingChange: 'Não há troca de plano agendada.',
} as const;

/** Day as Brazilians write it, in São Paulo's calendar (the due date of an invoice). */
const dayBR = (iso: string) => new Date(iso).toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' });

/** The refusal of a new commitment while restricted, naming the overdue invoice (ADR 32). */
export function restrictedMessage(invoice: { number: number; amount_cents: number; due_at: string }): string {
  return (
    `A assinatura da empresa está restrita porque a fatura nº ${invoice.number} (${formatBRL(invoice.amount_cents)}, vencida em ` +
    `${dayBR(invoice.due_at)}) não foi paga. Pague-a em Financeiro para voltar a cadastrar usuários, vincular dispositivos ou ` +
    'fazer upgrade de plano. Leituras, alarmes, histórico e relatórios continuam funcionando.'
  );
}

const PlanCycleRef = z.object({ plan_id: z.string(), plan_name: z.string(), cicle_id: z.string(), cicle_name: z.string(), value_cents: z.number().int() });
export type PlanCycleRef = z.infer<typeof PlanCycleRef>;

/** The overdue invoice that warns (and, after the grace period, restricts). */
export const OverdueInvoiceRef = z.object({ id: z.string(), number: z.number().int(), valor: z.number().int(), due_at: IsoDate });
export type OverdueInvoiceRef = z.infer<typeof OverdueInvoiceRef>;

/** GET /api/subscription/standing: what every user of the enterprise needs for the banner. */
export const SubscriptionStanding = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  restricted_at: IsoDate.nullable(),
  /** When the restriction starts if nothing is paid (overdue, not yet restricted). */
  restricts_at: IsoDate.nullable(),
  overdue_invoice: OverdueInvoiceRef.nullable(),
});
export type SubscriptionStanding = z.infer<typeof SubscriptionStanding>;

/** GET /api/subscription */
export const Subscription = z.object({
  enterprise: z.object({ _id: z.string(), name: z.string() }),
  current: PlanCycleRef,
  status: z.enum(SUBSCRIPTION_STATUSES),
  started_at: IsoDate,
  restricted_at: IsoDate.nullable(),
  /** The period invoiced now (null before the first invoice). */
  period: z.object({ start: IsoDate, end: IsoDate }).nullable(),
  /** A change chosen for the next cycle (a downgrade or another cycle), cancellable. */
  pending_change: PlanCycleRef.extend({ requested_at: IsoDate, starts_at: IsoDate.nullable() }).nullable(),
  /** The oldest invoice still to pay (the first one on /complete-register step 3, a pro-rated one after an upgrade). */
  open_invoice: Invoice.nullable(),
  overdue_invoice: OverdueInvoiceRef.nullable(),
});
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionQuery = z.object({ enterprise_id: z.uuid('Empresa não encontrada.').optional() });
export type SubscriptionQuery = z.infer<typeof SubscriptionQuery>;

/** PUT /api/subscription: the plan and cycle wanted (the super admin names the enterprise). */
export const SubscriptionChangeBody = z.object({
  plan_id: z.uuid(PLAN_MESSAGES.notFound),
  cicle_id: z.uuid(PLAN_MESSAGES.notFound),
  enterprise_id: z.uuid('Empresa não encontrada.').optional(),
});
export type SubscriptionChangeBody = z.infer<typeof SubscriptionChangeBody>;

export const SubscriptionChangeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** now: an upgrade applied at once; next_cycle: recorded for the next period; none: nothing to change. */
  effect: z.enum(['now', 'next_cycle', 'none']),
  /** The pro-rated invoice of an upgrade (null when there was nothing to charge). */
  invoice: Invoice.nullable(),
  subscription: Subscription,
});
export type SubscriptionChangeResponse = z.infer<typeof SubscriptionChangeResponse>;
