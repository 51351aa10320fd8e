import { z } from './zod-locale';
import { IsoDate, pageNumber } from './common';
import { boundedInstant, boundedInt, cleanText, queryField } from './values';

/**
 * Invoices and payment by PIX (issue 13 items 2 and 3, ADR 27). Money is integer centavos end to end: `valor` is
 * centavos (R$ 149,90 is 14990), never a floating-point number of reais. Field names of the documents (`id`, `data`,
 * `modo`, `transacao`, `metodo`, `valor`, `pending`) are kept; the rest are new.
 */

export const BILLING_MESSAGES = {
  invoiceNotFound: 'Fatura não encontrada.',
  enterpriseNotFound: 'Empresa não encontrada.',
  noEnterprise: 'Sua conta não pertence a uma empresa.',
  pixNotConfigured: 'Pagamento por PIX não configurado neste servidor.',
  notPayable: 'Esta fatura não está em aberto: não há o que pagar.',
  alreadyPaid: 'Esta fatura já está paga.',
  cancelled: 'Esta fatura foi cancelada.',
  webhookNotConfigured: 'Webhook PIX não configurado neste servidor.',
  webhookUnauthorized: 'Credencial do webhook PIX inválida.',
  markedPaid: 'Fatura marcada como paga.',
} as const;

export const INVOICE_STATUSES = ['pending', 'paid', 'overdue', 'cancelled'] as const;
export const INVOICE_KINDS = ['cycle', 'proration'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  pending: 'Em aberto',
  paid: 'Paga',
  overdue: 'Vencida',
  cancelled: 'Cancelada',
};

export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'overdue', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * R$ with decimal comma and dot thousands (document 000 §9), from integer centavos, without floating point. The one
 * money formatter of server and web: amounts kept in reais (a plan cycle's `value`) go through money.ts'
 * `numberToCents`.
 */
export function formatBRL(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.trunc(cents));
  const reais = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const centavos = (abs % 100).toString().padStart(2, '0');
  return `${negative ? '-' : ''}R$ ${reais},${centavos}`;
}

export const Invoice = z.object({
  id: z.string(),
  /** Sequential, human-readable number (Nº 123). */
  number: z.number().int(),
  enterprise: z.object({ _id: z.string(), name: z.string() }),
  /** When the invoice was issued (the documents' `data`). */
  data: IsoDate,
  due_at: IsoDate,
  period_start: IsoDate,
  period_end: IsoDate,
  plan: z.object({ _id: z.string().nullable(), name: z.string(), cicle_id: z.string().nullable(), cicle_name: z.string() }),
  /** The billing cycle's name (Mensal, Anual). */
  modo: z.string(),
  /** The PIX transaction id (txid) of this invoice: it goes in the BR Code and comes back in the PSP's webhook. */
  transacao: z.string(),
  /** How it is paid: PIX, or by hand (marked paid by the platform administrator). */
  metodo: z.enum(['PIX', 'Manual']),
  /** Amount in integer centavos. */
  valor: z.number().int(),
  status: z.enum(INVOICE_STATUSES),
  /** True while it can be paid (pending or overdue): "Pagar Fatura" shows only then. */
  pending: z.boolean(),
  paid_at: IsoDate.nullable(),
  /** 'cycle': a period of the plan; 'proration': the difference an upgrade charges for the days left (ADR 32, 75). */
  kind: z.enum(INVOICE_KINDS).default('cycle'),
  /** The invoiced cycle's full price when issued, in centavos (null on invoices issued before it was kept). */
  plan_value_cents: z.number().int().nullable().default(null),
  /** A pro-rated upgrade's plan left behind, with its price then. */
  upgraded_from: z.object({ plan_name: z.string(), cicle_name: z.string(), value_cents: z.number().int().nullable() }).nullable().default(null),
});
export type Invoice = z.infer<typeof Invoice>;

/** Super admin only: how and by whom an invoice was settled. */
export const InvoiceDetail = Invoice.extend({
  payment: z
    .object({
      end_to_end_id: z.string().nullable(),
      marked_by: z.object({ _id: z.string(), name: z.string() }).nullable(),
      reason: z.string().nullable(),
    })
    .nullable(),
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

export const InvoiceListQuery = z.object({
  /** Super admin: the enterprise whose invoices to list (all enterprises without it). Others: ignored if their own, else 404. */
  enterprise_id: queryField(z.uuid(BILLING_MESSAGES.enterpriseNotFound)),
  /** Number, plan, cycle, status or txid. */
  search: queryField(cleanText('A busca', { max: 100 })),
  status: queryField(z.enum(INVOICE_STATUSES, { message: 'Situação de fatura inválida.' })),
  page: pageNumber(),
  limit: boundedInt('Faturas por página', 1, 100, { coerce: true }).default(10),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

export const SubscriptionState = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Set once overdue beyond the grace period (BILLING_GRACE_DAYS): the account is restricted until paid. */
  restricted_at: IsoDate.nullable(),
});

export const InvoiceListResponse = z.object({
  data: z.array(Invoice),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** The listed enterprise's subscription state (null for the super admin's all-enterprises list or no subscription). */
  subscription: SubscriptionState.nullable(),
});
export type InvoiceListResponse = z.infer<typeof InvoiceListResponse>;

/** GET /api/invoices/{id}/pix: the PIX "copia e cola" code and its QR code (a PNG data: URL). */
export const InvoicePix = z.object({ brcode: z.string(), qrcode: z.string() });
export type InvoicePix = z.infer<typeof InvoicePix>;

export const MarkPaidBody = z.object({
  reason: cleanText('O motivo', { min: 3, max: 500, multiline: true, requiredMessage: 'Informe o motivo da baixa manual.' }),
});
export type MarkPaidBody = z.infer<typeof MarkPaidBody>;

/** Amounts of the API Pix: reais with exactly two decimals, as text ("123.45"). */
export const PIX_AMOUNT = /^\d{1,10}\.\d{2}$/;

/** One received PIX as the Banco Central's API Pix webhook sends it (extra fields are ignored). */
export const PixWebhookItem = z.object({
  endToEndId: z.string().regex(/^[A-Za-z0-9]{1,35}$/, 'endToEndId inválido.'),
  txid: z.string().regex(/^[A-Za-z0-9]{1,35}$/, 'txid inválido.').optional(),
  valor: z.string().regex(PIX_AMOUNT, 'valor inválido (use 123.45).'),
  horario: boundedInstant('horario', { requireOffset: true }),
  chave: z.string().max(77).optional(),
  infoPagador: z.string().max(140).optional(),
});
export const PixWebhookBody = z.object({ pix: z.array(PixWebhookItem).min(1, 'Nenhum PIX na notificação.').max(1000, 'No máximo 1000 PIX por notificação.') });
export type PixWebhookBody = z.infer<typeof PixWebhookBody>;

/** "123.45" → 12345, without floating point. */
export function pixAmountToCents(valor: string): number {
  const [reais, centavos] = valor.split('.') as [string, string];
  return Number(reais) * 100 + Number(centavos);
}

/** The platform's receiving bank account (document 000's fields: name, agencia, bank_name, conta, type), from settings. */
export const BankAccount = z.object({
  name: z.string(),
  bank_name: z.string(),
  agencia: z.string(),
  conta: z.string(),
  type: z.string(),
});
export type BankAccount = z.infer<typeof BankAccount>;

/** GET /api/financial/bank-account: null when the server has none configured (the screen then shows none). */
export const BankAccountResponse = z.object({ bank_account: BankAccount.nullable() });
export type BankAccountResponse = z.infer<typeof BankAccountResponse>;
