import { timingSafeEqual } from 'node:crypto';
import {
  BILLING_MESSAGES, Profile, pixAmountToCents,
  type Invoice, type InvoiceDetail, type InvoiceListQuery, type InvoiceListResponse, type InvoicePix, type PixWebhookBody,
} from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { AppError, conflict } from '../../lib/errors';
import { sha256 } from '../../lib/tokens';
import type { AuthContext } from '../../plugins/auth';
import { composeMail } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import { receiptMail, type MailInvoice } from './emails';
import { billedEnterprise } from './enterprise-scope';
import { pixPayment } from './pix-code';
import { adminEmails, findInvoiceInScope, invoiceQuery, reactivateIfSettled, toInvoice, toInvoiceDetail } from './repository';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type WebhookOutcome = 'paid' | 'unknown_txid' | 'amount_mismatch' | 'not_payable' | 'replay';

/** Invoices of an enterprise, their PIX code, and their payment by webhook or by hand (issue 13, ADR 27). */
export class BillingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly log: JobLog,
  ) {}

  async list(auth: AuthContext, query: InvoiceListQuery): Promise<InvoiceListResponse> {
    // The super admin naming no enterprise lists every one.
    const enterpriseId = await billedEnterprise(this.db, auth, query.enterprise_id);
    let base = invoiceQuery(this.db);
    if (enterpriseId) base = base.where('i.enterprise_id', '=', enterpriseId);
    if (query.status) base = base.where('i.status', '=', query.status);
    const number = query.search ? /^(?:n[º°o.]?\s*)?(\d{1,9})$/i.exec(query.search)?.[1] : undefined;
    if (number) {
      // A number typed ("123", "nº 123") is the invoice's number, not a fragment of a txid.
      base = base.where('i.number', '=', Number(number));
    } else if (query.search) {
      const pattern = `%${escapeLike(query.search)}%`;
      base = base.where((eb) =>
        eb.or([
          eb('i.plan_name', 'ilike', pattern),
          eb('i.cycle_name', 'ilike', pattern),
          eb('i.txid', 'ilike', pattern),
          eb('e.name', 'ilike', pattern),
        ]),
      );
    }
    const { total } = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .orderBy('i.issued_at', 'desc')
      .orderBy('i.number', 'desc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    const subscription = enterpriseId
      ? await this.db.selectFrom('subscriptions').select(['status', 'restricted_at']).where('enterprise_id', '=', enterpriseId).executeTakeFirst()
      : undefined;
    return {
      data: rows.map(toInvoice),
      total: Number(total),
      page: query.page,
      limit: query.limit,
      subscription: subscription ? { status: subscription.status, restricted_at: subscription.restricted_at?.toISOString() ?? null } : null,
    };
  }

  /** One invoice within the caller's reach; another enterprise's id is a 404, as one that does not exist. */
  private async scoped(auth: AuthContext, id: string) {
    return findInvoiceInScope(this.db, auth.scope, id);
  }

  async get(auth: AuthContext, id: string): Promise<InvoiceDetail> {
    const row = await this.scoped(auth, id);
    const detail = await toInvoiceDetail(this.db, row);
    // Who marked it paid and why is the platform's record, not the customer's.
    return auth.scope.kind === 'all' ? detail : { ...detail, payment: detail.payment ? { ...detail.payment, marked_by: null, reason: null } : null };
  }

  async pix(auth: AuthContext, id: string): Promise<InvoicePix> {
    const row = await this.scoped(auth, id);
    if (row.status === 'paid') throw conflict(BILLING_MESSAGES.alreadyPaid);
    if (row.status === 'cancelled') throw conflict(BILLING_MESSAGES.cancelled);
    const key = this.config.pixKey;
    if (!key) throw conflict(BILLING_MESSAGES.pixNotConfigured);
    return pixPayment({ key, name: this.config.pixReceiverName, city: this.config.pixReceiverCity }, row.amount_cents, row.txid);
  }

  /** The super admin settles an invoice by hand (a transfer seen in the bank statement, say): who and why are kept. */
  async markPaid(auth: AuthContext, id: string, reason: string): Promise<Invoice> {
    const row = await this.scoped(auth, id);
    const now = this.clock.now();
    const updated = await this.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('invoices')
        .set({ status: 'paid', method: 'manual', paid_at: now, paid_by: auth.userId, paid_reason: reason })
        .where('id', '=', row.id)
        .where('status', 'in', ['pending', 'overdue'])
        .executeTakeFirst();
      if (done.numUpdatedRows === 0n) return false;
      await reactivateIfSettled(trx, row.enterprise_id);
      return true;
    });
    if (!updated) throw conflict(row.status === 'cancelled' ? BILLING_MESSAGES.cancelled : BILLING_MESSAGES.alreadyPaid);
    this.log.info({ invoiceId: row.id, by: auth.userId, reason }, 'invoice marked paid by hand');
    await this.sendReceipt(row.enterprise_id, row, now, 'Manual');
    return toInvoice(await invoiceQuery(this.db).where('i.id', '=', row.id).executeTakeFirstOrThrow());
  }

  /** Whether the webhook's bearer token is the configured one (compared in constant time, as hashes). */
  webhookAuthorized(header: string | undefined): boolean {
    const token = this.config.pixWebhookToken;
    // 404, not 503: the address is simply not in service here (a 5xx would have the PSP retry for ever).
    if (!token) throw new AppError('NOT_FOUND', BILLING_MESSAGES.webhookNotConfigured);
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    return !!match && timingSafeEqual(sha256(match[1]!), sha256(token));
  }

  /**
   * The PSP tells of received PIX. Each is recorded once by its endToEndId (a replay changes nothing); an invoice is
   * paid only when its txid is known, it is still open, and the amount is exactly its own. Anything else is kept
   * and logged for the platform to sort out (a refund, say), and the PSP still gets its 200.
   */
  async receivePix(body: PixWebhookBody): Promise<WebhookOutcome[]> {
    const outcomes: WebhookOutcome[] = [];
    for (const item of body.pix) {
      const cents = pixAmountToCents(item.valor);
      const paidAt = new Date(item.horario);
      const now = this.clock.now();
      const result = await this.db.transaction().execute(async (trx) => {
        const fresh = await trx
          .insertInto('pix_received')
          .values({ end_to_end_id: item.endToEndId, txid: item.txid ?? null, amount_cents: cents, paid_at: paidAt, received_at: now, invoice_id: null, outcome: 'unknown_txid' })
          .onConflict((oc) => oc.column('end_to_end_id').doNothing())
          .returning('end_to_end_id')
          .executeTakeFirst();
        if (!fresh) return { outcome: 'replay' as const };
        const invoice = item.txid
          ? await trx.selectFrom('invoices').select(['id', 'enterprise_id', 'status', 'amount_cents']).where('txid', '=', item.txid).forUpdate().executeTakeFirst()
          : undefined;
        let outcome: Exclude<WebhookOutcome, 'replay'> = 'unknown_txid';
        if (invoice) {
          if (invoice.status !== 'pending' && invoice.status !== 'overdue') outcome = 'not_payable';
          else if (invoice.amount_cents !== cents) outcome = 'amount_mismatch';
          else outcome = 'paid';
        }
        if (outcome === 'paid' && invoice) {
          await trx
            .updateTable('invoices')
            .set({ status: 'paid', method: 'pix', paid_at: paidAt, paid_end_to_end_id: item.endToEndId })
            .where('id', '=', invoice.id)
            .execute();
          await reactivateIfSettled(trx, invoice.enterprise_id);
        }
        await trx.updateTable('pix_received').set({ outcome, invoice_id: invoice?.id ?? null }).where('end_to_end_id', '=', item.endToEndId).execute();
        return { outcome, invoice };
      });
      outcomes.push(result.outcome);
      if (result.outcome === 'paid' && result.invoice) {
        this.log.info({ endToEndId: item.endToEndId, invoiceId: result.invoice.id }, 'invoice paid by PIX');
        const row = await invoiceQuery(this.db).where('i.id', '=', result.invoice.id).executeTakeFirstOrThrow();
        await this.sendReceipt(row.enterprise_id, row, paidAt, 'PIX');
      } else {
        this.log.warn({ endToEndId: item.endToEndId, txid: item.txid ?? null, valor: item.valor, outcome: result.outcome }, 'PIX received changed no invoice');
      }
    }
    return outcomes;
  }

  private async sendReceipt(enterpriseId: string, invoice: MailInvoice, paidAt: Date, method: 'PIX' | 'Manual'): Promise<void> {
    try {
      for (const to of await adminEmails(this.db, enterpriseId, Profile.EnterpriseAdmin)) {
        await this.mail.send(composeMail(receiptMail(to, invoice, paidAt, method)));
      }
    } catch (err) {
      // The payment is recorded; a receipt that could not be queued must not turn the PSP's call into a retry.
      this.log.error({ err, enterpriseId }, 'payment receipt not queued');
    }
  }
}
