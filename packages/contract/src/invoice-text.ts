import { formatBRL, type Invoice } from './billing';
import { isMonthlyCycle } from './site';

/**
 * What an invoice charges, in the words of every place that shows it (the Financeiro screen, its detail, /plans, the
 * signed PDF, the e-mail): a period of a plan, or, for a pro-rated upgrade, the difference for the days left, with the
 * new plan's full price for reference (issue 26, ADR 75). Dates are formatted by the caller (its time zone).
 */
export interface InvoiceLine {
  /** The charged line: "Plano Profissional (Mensal), período de 01/11/2026 a 01/12/2026". */
  description: string;
  /** Said under it, for a pro-rated invoice: the full price it is not. */
  reference: string | null;
  /** A short name of the kind, for tables and badges. */
  kindLabel: string;
}

type LineInvoice = Pick<Invoice, 'kind' | 'plan' | 'period_start' | 'period_end' | 'plan_value_cents' | 'upgraded_from'>;

/** "R$ 149,90/mês" */
export function priceWithCycle(cents: number, cycleName: string): string {
  return `${formatBRL(cents)}${isMonthlyCycle(cycleName) ? '/mês' : '/ano'}`;
}

export const INVOICE_KIND_LABELS = { cycle: 'Mensalidade do plano', proration: 'Upgrade pró-rata' } as const;

export function invoiceLine(invoice: LineInvoice, day: (iso: string) => string): InvoiceLine {
  const plan = `${invoice.plan.name} (${invoice.plan.cicle_name})`;
  const period = `${day(invoice.period_start)} a ${day(invoice.period_end)}`;
  if (invoice.kind !== 'proration') {
    return { description: `Plano ${plan}, período de ${period}`, reference: null, kindLabel: INVOICE_KIND_LABELS.cycle };
  }
  const from = invoice.upgraded_from;
  const change = from ? `Upgrade de ${from.plan_name} (${from.cicle_name}) para ${plan}` : `Upgrade para o plano ${plan}`;
  const full = invoice.plan_value_cents === null ? null : priceWithCycle(invoice.plan_value_cents, invoice.plan.cicle_name);
  const before = from?.value_cents != null ? `; o plano anterior custava ${priceWithCycle(from.value_cents, from.cicle_name)}` : '';
  return {
    description: `${change}: diferença pró-rata pelos dias de ${period}`,
    reference: full
      ? `Valor proporcional, não o preço cheio: o plano ${invoice.plan.name} custa ${full}${before}. Esta fatura cobra só a diferença pelos dias restantes do período já faturado.`
      : 'Valor proporcional: esta fatura cobra só a diferença de preço pelos dias restantes do período já faturado.',
    kindLabel: INVOICE_KIND_LABELS.proration,
  };
}
