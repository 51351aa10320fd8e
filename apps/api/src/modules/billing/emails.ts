import { formatBRL, pluralize } from '@sentinela/contract';
import { mailText, ours, type MailContent } from '../mail/compose';

const day = (d: Date) => ours(d.toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' }));
/** Amounts, plan and cycle names are the platform's own (plans are the super admin's). */
const brl = (cents: number) => ours(formatBRL(cents));

export interface MailInvoice {
  number: number;
  amount_cents: number;
  due_at: Date;
  period_start: Date;
  period_end: Date;
  plan_name: string;
  cycle_name: string;
}

const financialUrl = (publicUrl: string) => `${publicUrl}/financial`;

export function invoiceIssuedMail(to: string, invoice: MailInvoice, publicUrl: string): MailContent {
  return {
    to,
    subject: mailText`Fatura nº ${invoice.number} do Sentinela: ${brl(invoice.amount_cents)}`,
    paragraphs: [
      mailText`Sua fatura nº ${invoice.number} foi emitida: plano ${ours(invoice.plan_name)} (${ours(invoice.cycle_name)}), período de ${day(invoice.period_start)} a ${day(invoice.period_end)}.`,
      mailText`Valor: ${brl(invoice.amount_cents)}. Vencimento: ${day(invoice.due_at)}.`,
      mailText`Pague por PIX em Financeiro, no botão Pagar Fatura (código copia e cola ou QR code).`,
    ],
    action: { label: mailText`Abrir Financeiro`, url: financialUrl(publicUrl) },
  };
}

export function invoiceOverdueMail(to: string, invoice: MailInvoice, graceDays: number, publicUrl: string): MailContent {
  return {
    to,
    subject: mailText`Fatura nº ${invoice.number} do Sentinela vencida`,
    paragraphs: [
      mailText`A fatura nº ${invoice.number} (${brl(invoice.amount_cents)}) venceu em ${day(invoice.due_at)} e ainda não foi paga.`,
      mailText`Sem o pagamento em até ${ours(pluralize(graceDays, 'dia', 'dias'))} após o vencimento, o acesso da empresa será restrito. Nenhum dado é apagado.`,
    ],
    action: { label: mailText`Pagar Fatura`, url: financialUrl(publicUrl) },
  };
}

export function restrictedMail(to: string, publicUrl: string): MailContent {
  return {
    to,
    subject: mailText`Acesso ao Sentinela restrito por falta de pagamento`,
    paragraphs: [
      mailText`Uma fatura da sua empresa está vencida além do prazo de tolerância e o acesso foi restrito.`,
      mailText`Nenhum dado foi apagado: o acesso volta assim que a fatura for paga.`,
    ],
    action: { label: mailText`Pagar Fatura`, url: financialUrl(publicUrl) },
  };
}

export function receiptMail(to: string, invoice: MailInvoice, paidAt: Date, method: 'PIX' | 'Manual'): MailContent {
  return {
    to,
    subject: mailText`Recibo da fatura nº ${invoice.number} do Sentinela`,
    paragraphs: [
      mailText`Recebemos o pagamento da fatura nº ${invoice.number}: ${brl(invoice.amount_cents)}, em ${day(paidAt)}${ours(method === 'PIX' ? ', por PIX' : '')}.`,
      mailText`Plano ${ours(invoice.plan_name)} (${ours(invoice.cycle_name)}), período de ${day(invoice.period_start)} a ${day(invoice.period_end)}.`,
    ],
    footnotes: [mailText`Obrigado!`],
  };
}
