import { createHash } from 'node:crypto';
import { INVOICE_STATUS_LABELS } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { Semaphore } from '../../lib/semaphore';
import type { AuthContext } from '../../plugins/auth';
import { renderInvoicePdf } from '../../reports/pdf/invoice-document';
import { loadOrCreateSigningIdentity, type SigningIdentity } from '../../reports/signing/certificate';
import { signPdfWithTimestamp } from '../../reports/signing/sign-pdf';
import type { Timestamper } from '../../reports/signing/tsa-client';
import type { SigningSource } from '../reports/render/render-task';
import { findInvoiceInScope, toInvoiceDetail } from './repository';

/** One page drawn and signed takes some 50 ms of CPU: a few at once keep the event loop answering others. */
const RENDERS_AT_ONCE = 2;

export interface InvoicePdf {
  data: Buffer;
  filename: string;
}

/**
 * Invoice PDFs signed with the reports' certificate (ADR 10, ADR 30). Drawn in the request (one page; no job): the
 * invoice is looked up within the caller's reach (another enterprise's id is a 404, as for the JSON), rendered,
 * signed, and the SHA-256 of the bytes handed out is recorded so /report/validator recognises the file.
 */
export class InvoicePdfService {
  private identity: Promise<SigningIdentity> | undefined;
  private readonly gate = new Semaphore(RENDERS_AT_ONCE);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly signing: SigningSource,
    /** REPORT_TSA_URL's (ADR 79): an invoice is generated at each download, so one the TSA missed is not retried. */
    private readonly timestamper?: Timestamper,
  ) {}

  async pdf(auth: AuthContext, id: string): Promise<InvoicePdf> {
    const invoice = await toInvoiceDetail(this.db, await findInvoiceInScope(this.db, auth.scope, id));
    const issuer = await this.db.selectFrom('users').select(['name', 'username']).where('id', '=', auth.userId).executeTakeFirstOrThrow();
    const documentId = crypto.randomUUID();
    const generatedAt = this.clock.now();
    const data = await this.gate.run(async () => {
      const pdf = await renderInvoicePdf({
        documentId,
        generatedAt,
        timeZone: this.config.reportTimeZone,
        issuer,
        invoice: {
          number: invoice.number,
          enterprise: invoice.enterprise.name,
          issuedAt: new Date(invoice.data),
          dueAt: new Date(invoice.due_at),
          periodStart: new Date(invoice.period_start),
          periodEnd: new Date(invoice.period_end),
          planName: invoice.plan.name,
          cycleName: invoice.modo,
          amountCents: invoice.valor,
          kind: invoice.kind,
          planValueCents: invoice.plan_value_cents,
          upgradedFrom: invoice.upgraded_from
            ? { planName: invoice.upgraded_from.plan_name, cycleName: invoice.upgraded_from.cicle_name, valueCents: invoice.upgraded_from.value_cents }
            : null,
          statusLabel: INVOICE_STATUS_LABELS[invoice.status],
          payable: invoice.pending,
          method: invoice.metodo,
          txid: invoice.transacao,
          paidAt: invoice.paid_at ? new Date(invoice.paid_at) : null,
          endToEndId: invoice.payment?.end_to_end_id ?? null,
        },
        receiver: { name: this.config.pixReceiverName, city: this.config.pixReceiverCity, pixKey: this.config.pixKey ?? null },
        bankAccount: this.config.bankAccount,
      });
      const signed = await signPdfWithTimestamp(
        pdf,
        await this.signingIdentity(),
        { reason: `Fatura nº ${invoice.number} emitida pela plataforma Sentinela`, location: 'Brasil', name: 'Sentinela', signingTime: generatedAt },
        this.timestamper,
      );
      return signed.data;
    });
    await this.db
      .insertInto('invoice_documents')
      .values({
        id: documentId,
        invoice_id: invoice.id,
        sha256: createHash('sha256').update(data).digest('hex'),
        generated_at: generatedAt,
        generated_by: auth.userId,
      })
      .execute();
    return { data, filename: `fatura-${invoice.number}.pdf` };
  }

  private signingIdentity(): Promise<SigningIdentity> {
    // Made at most once per process (the reports' own load at start creates the platform certificate when missing).
    this.identity ??= loadOrCreateSigningIdentity(this.signing).catch((error: unknown) => {
      this.identity = undefined;
      throw error;
    });
    return this.identity;
  }
}
