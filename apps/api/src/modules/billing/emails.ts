import { formatBRL, pluralize } from '@sentinela/contract';
import type { MailContent } from '../mail/compose';

const day = (d: Date) => d.toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' });

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
    subject: `Fatura nº ${invoice.number} do Sentinela: ${formatBRL(invoice.amount_cents)}`,
    paragraphs: [
      `Sua fatura nº ${invoice.number} foi emitida: plano ${invoice.plan_name} (${invoice.cycle_name}), período de ${day(invoice.period_start)} a ${day(invoice.period_end)}.`,
      `Valor: ${formatBRL(invoice.amount_cents)}. Vencimento: ${day(invoice.due_at)}.`,
      'Pague por PIX em Financeiro, no botão Pagar Fatura (código copia e cola ou QR code).',
    ],
    action: { label: 'Abrir Financeiro', url: financialUrl(publicUrl) },
  };
}

export function invoiceOverdueMail(to: string, invoice: MailInvoice, graceDays: number, publicUrl: string): MailContent {
  return {
    to,
    subject: `Fatura nº ${invoice.number} do Sentinela vencida`,
    paragraphs: [
      `A fatura nº ${invoice.number} (${formatBRL(invoice.amount_cents)}) venceu em ${day(invoice.due_at)} e ainda não foi paga.`,
      `Sem o pagamento em até ${pluralize(graceDays, 'dia', 'dias')} após o vencimento, o acesso da empresa será restrito. Nenhum dado é apagado.`,
    ],
    action: { label: 'Pagar Fatura', url: financialUrl(publicUrl) },
  };
}

export function restrictedMail(to: string, publicUrl: string): MailContent {
  return {
    to,
    subject: 'Acesso ao Sentinela restrito por falta de pagamento',
    paragraphs: [
      'Uma fatura da sua empresa está vencida além do prazo de tolerância e o acesso foi restrito.',
      'Nenhum dado foi apagado: o acesso volta assim que a fatura for paga.',
    ],
    action: { label: 'Pagar Fatura', url: financialUrl(publicUrl) },
  };
}

export function receiptMail(to: string, invoice: MailInvoice, paidAt: Date, method: 'PIX' | 'Manual'): MailContent {
  return {
    to,
    subject: `Recibo da fatura nº ${invoice.number} do Sentinela`,
    paragraphs: [
      `Recebemos o pagamento da fatura nº ${invoice.number}: ${formatBRL(invoice.amount_cents)}, em ${day(paidAt)}${method === 'PIX' ? ', por PIX' : ''}.`,
      `Plano ${invoice.plan_name} (${invoice.cycle_name}), período de ${day(invoice.period_start)} a ${day(invoice.period_end)}.`,
    ],
    footnotes: ['Obrigado!'],
  };
}
