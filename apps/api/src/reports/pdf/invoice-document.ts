/**
 * An invoice as a PDF (issue 13 item 5, ADR 30): who is charged, for what period and plan, how much, when it falls
 * due, how it was paid, and how to pay it. Unsigned: the caller signs the bytes (signing/sign-pdf.ts) like a report.
 * Pure: data in, bytes out.
 */
import { formatBRL, invoiceLine } from '@sentinela/contract';
import { zonedClock } from '../format';
import { generatedLine } from '../texts';
import {
  COLOR,
  CONTENT_WIDTH,
  drawFields,
  drawNote,
  drawSectionTitle,
  ensureSpace,
  FONT,
  horizontalRule,
  PAGE,
  renderDocument,
  textAt,
  textRightAt,
  type Field,
} from './layout';
import { toWinAnsi } from './win-ansi';

export interface InvoiceDocumentInput {
  /** The id this rendering is recorded under (what the validator finds); printed in the footer. */
  documentId: string;
  generatedAt: Date;
  timeZone: string;
  issuer: { name: string; username: string };
  invoice: {
    number: number;
    enterprise: string;
    issuedAt: Date;
    dueAt: Date;
    periodStart: Date;
    periodEnd: Date;
    planName: string;
    cycleName: string;
    amountCents: number;
    /** 'proration': the difference an upgrade charges for the days left (ADR 75). */
    kind: 'cycle' | 'proration';
    /** The plan's full price per cycle when issued (shown for reference on a pro-rated invoice). */
    planValueCents: number | null;
    upgradedFrom: { planName: string; cycleName: string; valueCents: number | null } | null;
    /** pt-BR status (Em aberto, Paga, Vencida, Cancelada). */
    statusLabel: string;
    payable: boolean;
    /** PIX or Manual. */
    method: string;
    txid: string;
    paidAt: Date | null;
    endToEndId: string | null;
  };
  /** The platform as the receiver of the payment. */
  receiver: { name: string; city: string; pixKey: string | null };
  /** The platform's receiving bank account, when configured. */
  bankAccount: { name: string; bank_name: string; agencia: string; conta: string; type: string } | null;
}

export const INVOICE_TEXTS = {
  kind: 'Fatura',
  title: (number: number) => `Fatura nº ${number}`,
  documentLabel: 'Documento',
  identification: 'Identificação',
  items: 'Itens',
  description: 'Descrição',
  amount: 'Valor',
  total: 'Total',
  payment: 'Pagamento',
  howToPay: 'Como pagar',
} as const;

export async function renderInvoicePdf(input: InvoiceDocumentInput): Promise<Buffer> {
  const clock = zonedClock(input.timeZone);
  const day = (d: Date) => clock.dateTime(d).slice(0, 10);
  const { invoice } = input;
  const title = INVOICE_TEXTS.title(invoice.number);
  const period = `${day(invoice.periodStart)} a ${day(invoice.periodEnd)}`;
  // The words every place uses for what the invoice charges: a period, or an upgrade's pro-rated difference.
  const line = invoiceLine(
    {
      kind: invoice.kind,
      plan: { _id: null, name: invoice.planName, cicle_id: null, cicle_name: invoice.cycleName },
      period_start: invoice.periodStart.toISOString(),
      period_end: invoice.periodEnd.toISOString(),
      plan_value_cents: invoice.planValueCents,
      upgraded_from: invoice.upgradedFrom
        ? { plan_name: invoice.upgradedFrom.planName, cicle_name: invoice.upgradedFrom.cycleName, value_cents: invoice.upgradedFrom.valueCents }
        : null,
    },
    (iso) => day(new Date(iso)),
  );
  return renderDocument(
    {
      meta: {
        title: `${title} - ${invoice.enterprise}`,
        subject: `${invoice.enterprise}, ${invoice.planName} (${invoice.cycleName}), ${period}`,
        keywords: `Sentinela, fatura ${invoice.number}, ${input.documentId}`,
        createdAt: input.generatedAt,
      },
      heading: { title, subtitle: invoice.enterprise, reportId: input.documentId, kind: INVOICE_TEXTS.kind },
      furniture: {
        runningTitle: `${title} - ${invoice.enterprise}`,
        generated: generatedLine(clock.dateTime(input.generatedAt), input.timeZone, input.issuer),
        reportId: input.documentId,
        idLabel: INVOICE_TEXTS.documentLabel,
      },
    },
    (doc) => drawInvoiceBody(doc, input, line, period, (d) => clock.dateTime(d)),
  );
}

/** Identification, the item, payment and how to pay. */
function drawInvoiceBody(doc: PDFKit.PDFDocument, input: InvoiceDocumentInput, line: ReturnType<typeof invoiceLine>, period: string, dateTime: (d: Date) => string): void {
  const { invoice } = input;
  const day = (d: Date) => dateTime(d).slice(0, 10);
  drawFields(doc, [
    { label: 'Empresa', value: invoice.enterprise, wide: true },
    { label: 'Número', value: String(invoice.number) },
    { label: 'Tipo', value: line.kindLabel },
    { label: 'Situação', value: invoice.statusLabel },
    { label: 'Emissão', value: day(invoice.issuedAt) },
    { label: 'Vencimento', value: day(invoice.dueAt) },
    { label: 'Plano', value: invoice.planName },
    { label: 'Ciclo', value: invoice.cycleName },
    { label: 'Período', value: period, wide: true },
  ]);

  drawSectionTitle(doc, INVOICE_TEXTS.items, 60);
  drawItems(doc, line.description, formatBRL(invoice.amountCents));
  if (line.reference) drawParagraph(doc, line.reference);

  drawSectionTitle(doc, INVOICE_TEXTS.payment, 60);
  // The txid (up to 35 characters) gets a whole row: in a half-width cell it wrapped mid-code, hard to copy.
  const payment: Field[] = [
    { label: 'Forma', value: invoice.method },
    { label: 'Transação (txid)', value: invoice.txid, wide: true },
  ];
  if (invoice.paidAt) payment.push({ label: 'Pago em', value: dateTime(invoice.paidAt) });
  if (invoice.endToEndId) payment.push({ label: 'Identificador PIX', value: invoice.endToEndId, wide: true });
  drawFields(doc, payment);

  if (invoice.payable) {
    drawSectionTitle(doc, INVOICE_TEXTS.howToPay, 60);
    const ways: Field[] = [];
    if (input.receiver.pixKey) {
      ways.push(
        { label: 'Chave PIX', value: input.receiver.pixKey },
        { label: 'Favorecido', value: `${input.receiver.name} (${input.receiver.city})` },
      );
    }
    if (input.bankAccount) {
      const account = input.bankAccount;
      ways.push(
        { label: 'Banco', value: account.bank_name },
        { label: 'Titular', value: account.name },
        { label: 'Agência', value: account.agencia },
        { label: `Conta ${account.type.toLowerCase()}`, value: account.conta },
      );
    }
    if (ways.length) drawFields(doc, ways);
    drawNote(
      doc,
      input.receiver.pixKey
        ? `Pague por PIX em Financeiro, no botão Pagar Fatura: o código informa o valor e a transação ${invoice.txid}.`
        : 'Pague em Financeiro, no botão Pagar Fatura.',
    );
  }
}

/** The one line an invoice charges, and its total. */
function drawItems(doc: PDFKit.PDFDocument, description: string, amount: string): void {
  ensureSpace(doc, 60);
  const amountWidth = 110;
  let y = doc.y;
  doc.save().rect(PAGE.left, y - 3, CONTENT_WIDTH, 16).fill(COLOR.headerFill).restore();
  doc.font(FONT.bold).fontSize(9).fillColor(COLOR.text);
  textAt(doc, INVOICE_TEXTS.description, PAGE.left + 4, y);
  textRightAt(doc, INVOICE_TEXTS.amount, PAGE.right - 4, y);
  y += 18;
  doc.font(FONT.regular);
  // The description wraps (a pro-rated upgrade's is long); the amount stays on its first line.
  const described = toWinAnsi(description);
  const width = CONTENT_WIDTH - amountWidth - 8;
  doc.text(described, PAGE.left + 4, y, { width });
  textRightAt(doc, amount, PAGE.right - 4, y, amountWidth);
  y += Math.max(16, doc.heightOfString(described, { width }) + 5);
  horizontalRule(doc, y - 3, COLOR.hairline);
  doc.font(FONT.bold).fontSize(11);
  textAt(doc, INVOICE_TEXTS.total, PAGE.left + 4, y + 2);
  textRightAt(doc, amount, PAGE.right - 4, y + 2, amountWidth);
  doc.font(FONT.regular).fontSize(9);
  doc.x = PAGE.left;
  doc.y = y + 24;
}

/** A note of several lines under the items (a pro-rated invoice's full price for reference). */
function drawParagraph(doc: PDFKit.PDFDocument, text: string): void {
  const printable = toWinAnsi(text);
  doc.font(FONT.italic).fontSize(9).fillColor(COLOR.muted);
  const height = doc.heightOfString(printable, { width: CONTENT_WIDTH });
  ensureSpace(doc, height + 8);
  const y = doc.y;
  doc.text(printable, PAGE.left, y, { width: CONTENT_WIDTH });
  doc.font(FONT.regular).fillColor(COLOR.text);
  doc.x = PAGE.left;
  doc.y = y + height + 10;
}
