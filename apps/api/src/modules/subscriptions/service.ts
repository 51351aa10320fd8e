import {
  PLAN_MESSAGES, Profile, SUBSCRIPTION_MESSAGES, formatBRL, invoiceLine,
  type Invoice, type Subscription, type SubscriptionChangeBody, type SubscriptionChangeResponse, type SubscriptionStanding,
} from '@sentinela/contract';
import { sql } from 'kysely';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import type { BillingCycle } from '../billing/cycle';
import { cycleMonths } from '../billing/cycle';
import { billedEnterprise } from '../billing/enterprise-scope';
import { newTxid } from '../billing/pix-code';
import { adminEmails, invoiceQuery, toInvoice } from '../billing/repository';
import { composeMail, mailText, ours } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import { isUpgrade, proratedCents } from './proration';
import { oldestOverdueInvoice, refuseWhenRestricted } from './restriction';

const DAY = 86_400_000;
const day = (d: Date) => d.toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' });

type Effect = SubscriptionChangeResponse['effect'];
export interface ChangeOutcome {
  effect: Effect;
  message: string;
  invoiceId: string | null;
  enterpriseId: string;
}

/**
 * The enterprise's subscription (issue 13 items 1 and 6, ADR 32): read it, change it — an upgrade at once with a
 * pro-rated invoice, anything else at the next cycle — and cancel a change still waiting.
 */
export class SubscriptionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly log: JobLog,
    private readonly cycle: BillingCycle,
  ) {}

  /** The enterprise the call is about: the caller's own; the super admin must name one. */
  async target(auth: AuthContext, requested: string | undefined): Promise<string> {
    const enterpriseId = await billedEnterprise(this.db, auth, requested);
    if (!enterpriseId) throw new AppError('BAD_REQUEST', 'Informe a empresa.');
    return enterpriseId;
  }

  /** For every user of the enterprise: is a bill overdue, is the subscription restricted (the banner). */
  async standing(auth: AuthContext): Promise<SubscriptionStanding> {
    const enterpriseId = auth.scope.kind === 'all' ? null : auth.scope.enterpriseId;
    if (!enterpriseId) return { status: null, restricted_at: null, restricts_at: null, overdue_invoice: null };
    const sub = await this.db.selectFrom('subscriptions').select(['status', 'restricted_at']).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
    const overdue = sub ? await oldestOverdueInvoice(this.db, enterpriseId) : null;
    return {
      status: sub?.status ?? null,
      restricted_at: sub?.restricted_at?.toISOString() ?? null,
      restricts_at:
        overdue && !sub?.restricted_at ? new Date(new Date(overdue.due_at).getTime() + this.config.billingGraceDays * DAY).toISOString() : null,
      overdue_invoice: overdue,
    };
  }

  async get(auth: AuthContext, requested: string | undefined): Promise<Subscription> {
    return this.read(await this.target(auth, requested));
  }

  private async read(enterpriseId: string): Promise<Subscription> {
    const sub = await this.db
      .selectFrom('subscriptions as s')
      .innerJoin('enterprises as e', 'e.id', 's.enterprise_id')
      .innerJoin('plan_cycles as c', 'c.id', 's.plan_cycle_id')
      .innerJoin('plans as p', 'p.id', 'c.plan_id')
      .select([
        'e.id as enterprise_id', 'e.name as enterprise_name', 's.status', 's.started_at', 's.restricted_at',
        'p.id as plan_id', 'p.name as plan_name', 'c.id as cicle_id', 'c.name as cicle_name', sql<number>`(c.value * 100)::integer`.as('cents'),
      ])
      .where('s.enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    if (!sub) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
    const now = this.clock.now();
    const period = await this.db
      .selectFrom('invoices')
      .select(['period_start', 'period_end'])
      .where('enterprise_id', '=', enterpriseId)
      .where('kind', '=', 'cycle')
      .where('status', '<>', 'cancelled')
      .where('period_start', '<=', now)
      .orderBy('period_start', 'desc')
      .executeTakeFirst();
    const lastEnd = await this.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.max('period_end').as('end'))
      .where('enterprise_id', '=', enterpriseId)
      .where('kind', '=', 'cycle')
      .where('status', '<>', 'cancelled')
      .executeTakeFirst();
    const pending = await this.db
      .selectFrom('plan_change_requests as r')
      .innerJoin('plan_cycles as c', 'c.id', 'r.plan_cycle_id')
      .innerJoin('plans as p', 'p.id', 'c.plan_id')
      .select(['p.id as plan_id', 'p.name as plan_name', 'c.id as cicle_id', 'c.name as cicle_name', sql<number>`(c.value * 100)::integer`.as('cents'), 'r.requested_at'])
      .where('r.enterprise_id', '=', enterpriseId)
      .where('r.status', '=', 'pending')
      .executeTakeFirst();
    const open = await invoiceQuery(this.db)
      .where('i.enterprise_id', '=', enterpriseId)
      .where('i.status', 'in', ['pending', 'overdue'])
      .orderBy('i.issued_at', 'desc')
      .orderBy('i.number', 'desc')
      .executeTakeFirst();
    const end = lastEnd?.end ? new Date(lastEnd.end as unknown as string | Date) : null;
    return {
      enterprise: { _id: sub.enterprise_id, name: sub.enterprise_name },
      current: { plan_id: sub.plan_id, plan_name: sub.plan_name, cicle_id: sub.cicle_id, cicle_name: sub.cicle_name, value_cents: Number(sub.cents) },
      status: sub.status,
      started_at: sub.started_at.toISOString(),
      restricted_at: sub.restricted_at?.toISOString() ?? null,
      period: period ? { start: period.period_start.toISOString(), end: period.period_end.toISOString() } : null,
      pending_change: pending
        ? {
            plan_id: pending.plan_id, plan_name: pending.plan_name, cicle_id: pending.cicle_id, cicle_name: pending.cicle_name,
            value_cents: Number(pending.cents), requested_at: pending.requested_at.toISOString(), starts_at: end?.toISOString() ?? null,
          }
        : null,
      open_invoice: open ? toInvoice(open) : null,
      overdue_invoice: await oldestOverdueInvoice(this.db, enterpriseId),
    };
  }

  /**
   * PUT /api/subscription. The subscription row is locked for the whole decision, so a double click waits for the
   * first and then finds the plan already changed: one pro-rated invoice per change, never two.
   */
  async change(auth: AuthContext, body: SubscriptionChangeBody): Promise<SubscriptionChangeResponse> {
    const outcome = await this.apply(auth, body);
    const invoice = outcome.invoiceId ? await this.invoice(outcome.invoiceId) : null;
    return { success: true, message: outcome.message, effect: outcome.effect, invoice, subscription: await this.read(outcome.enterpriseId) };
  }

  async apply(auth: AuthContext, body: SubscriptionChangeBody): Promise<ChangeOutcome> {
    const enterpriseId = await this.target(auth, body.enterprise_id);
    // Only an offered plan: a retired one keeps its subscribers but is not chosen any more (ADR 28).
    const wanted = await this.db
      .selectFrom('plan_cycles as c')
      .innerJoin('plans as p', 'p.id', 'c.plan_id')
      .select(['c.id', 'c.name as cycle_name', 'p.name as plan_name', sql<number>`(c.value * 100)::integer`.as('cents')])
      .where('c.id', '=', body.cicle_id)
      .where('c.plan_id', '=', body.plan_id)
      .where('p.retired_at', 'is', null)
      .executeTakeFirst();
    if (!wanted) throw notFound(PLAN_MESSAGES.notFound);
    const wantedCents = Number(wanted.cents);
    const now = this.clock.now();
    const result = await this.db.transaction().execute(async (trx) => {
      // The row is locked alone, then its cycle read: a join under FOR UPDATE would keep the cycle of before a
      // concurrent change and miss the row.
      const locked = await trx.selectFrom('subscriptions').select('plan_cycle_id').where('enterprise_id', '=', enterpriseId).forUpdate().executeTakeFirst();
      const current = locked
        ? await trx
            .selectFrom('plan_cycles as c')
            .innerJoin('plans as p', 'p.id', 'c.plan_id')
            .select(['c.id as plan_cycle_id', 'c.name as cycle_name', 'p.name as plan_name', sql<number>`(c.value * 100)::integer`.as('cents')])
            .where('c.id', '=', locked.plan_cycle_id)
            .executeTakeFirstOrThrow()
        : undefined;
      const dropPending = () =>
        trx.updateTable('plan_change_requests').set({ status: 'replaced' }).where('enterprise_id', '=', enterpriseId).where('status', '=', 'pending').execute();
      if (!current) {
        // The first plan: nothing to charge over; its first invoice is issued right after (issueFor).
        await dropPending();
        await trx.insertInto('subscriptions').values({ enterprise_id: enterpriseId, plan_cycle_id: wanted.id, started_at: now }).execute();
        return { effect: 'now' as const, message: PLAN_MESSAGES.chosen, invoiceId: null, first: true };
      }
      if (current.plan_cycle_id === wanted.id) {
        // Asking for the plan one has: a change waiting is dropped (PUT says what the subscription should be).
        const dropped = await dropPending();
        const cancelled = dropped.some((r) => Number(r.numUpdatedRows) > 0);
        return { effect: 'none' as const, message: cancelled ? SUBSCRIPTION_MESSAGES.pendingCancelled : PLAN_MESSAGES.alreadyCurrent, invoiceId: null, first: false };
      }
      const upgrade = isUpgrade({ months: cycleMonths(current.cycle_name), cents: Number(current.cents) }, { months: cycleMonths(wanted.cycle_name), cents: wantedCents });
      if (!upgrade) {
        await dropPending();
        await trx.insertInto('plan_change_requests').values({ enterprise_id: enterpriseId, plan_cycle_id: wanted.id, requested_by: auth.userId, requested_at: now }).execute();
        return { effect: 'next_cycle' as const, message: PLAN_MESSAGES.requested, invoiceId: null, first: false };
      }
      // A new commitment: refused while restricted (ADR 32). Inside the lock, so a payment in between is seen.
      await refuseWhenRestricted(trx, enterpriseId);
      const periods = await trx
        .selectFrom('invoices')
        .select(['period_start', 'period_end'])
        .where('enterprise_id', '=', enterpriseId)
        .where('kind', '=', 'cycle')
        .where('status', '<>', 'cancelled')
        .where('period_end', '>', now)
        .execute();
      const amount = proratedCents(wantedCents - Number(current.cents), periods.map((p) => ({ start: p.period_start, end: p.period_end })), now);
      await dropPending();
      await trx.updateTable('subscriptions').set({ plan_cycle_id: wanted.id }).where('enterprise_id', '=', enterpriseId).execute();
      if (amount === 0) return { effect: 'now' as const, message: SUBSCRIPTION_MESSAGES.upgradedNoCharge, invoiceId: null, first: false };
      const end = new Date(Math.max(...periods.map((p) => p.period_end.getTime())));
      const row = await trx
        .insertInto('invoices')
        .values({
          enterprise_id: enterpriseId, issued_at: now, plan_cycle_id: wanted.id, plan_name: wanted.plan_name, cycle_name: wanted.cycle_name,
          period_start: now, period_end: end, due_at: new Date(now.getTime() + this.config.billingDueDays * DAY), amount_cents: amount,
          txid: newTxid(), kind: 'proration', plan_change_from: current.plan_cycle_id,
          // What the invoice says of itself (ADR 75): the full price of the new plan, and the plan left.
          plan_price_cents: wantedCents, previous_plan_name: current.plan_name, previous_cycle_name: current.cycle_name,
          previous_price_cents: Number(current.cents),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { effect: 'now' as const, message: SUBSCRIPTION_MESSAGES.upgraded, invoiceId: row.id, first: false };
    });
    let invoiceId = result.invoiceId;
    if (result.first) {
      await this.cycle.issueFor(enterpriseId);
      invoiceId = (await this.read(enterpriseId)).open_invoice?.id ?? null;
    } else if (invoiceId) {
      this.log.info({ enterpriseId, invoiceId, by: auth.userId }, 'plan upgraded with a pro-rated invoice');
      await this.mailProration(enterpriseId, await this.invoice(invoiceId));
    }
    return { effect: result.effect, message: result.message, invoiceId, enterpriseId };
  }

  /** DELETE /api/subscription/pending-change: the enterprise stays on its plan. */
  async cancelPending(auth: AuthContext, requested: string | undefined): Promise<string> {
    const enterpriseId = await this.target(auth, requested);
    const done = await this.db
      .updateTable('plan_change_requests')
      .set({ status: 'cancelled' })
      .where('enterprise_id', '=', enterpriseId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (done.numUpdatedRows === 0n) throw conflict(SUBSCRIPTION_MESSAGES.noPendingChange);
    return SUBSCRIPTION_MESSAGES.pendingCancelled;
  }

  private async invoice(id: string): Promise<Invoice> {
    return toInvoice(await invoiceQuery(this.db).where('i.id', '=', id).executeTakeFirstOrThrow());
  }

  private async mailProration(enterpriseId: string, invoice: Invoice): Promise<void> {
    const line = invoiceLine(invoice, (iso) => day(new Date(iso)));
    try {
      for (const to of await adminEmails(this.db, enterpriseId, Profile.EnterpriseAdmin)) {
        await this.mail.send(
          composeMail({
            to,
            subject: mailText`Fatura nº ${invoice.number} do Sentinela: ${ours(formatBRL(invoice.valor))} (upgrade para ${ours(invoice.plan.name)})`,
            paragraphs: [
              mailText`O plano da sua empresa passou a ser ${ours(invoice.plan.name)} (${ours(invoice.plan.cicle_name)}) e já vale.`,
              mailText`A fatura nº ${invoice.number} cobra a diferença de preço pelos dias restantes do período, até ${ours(day(new Date(invoice.period_end)))}: ${ours(formatBRL(invoice.valor))}. Vencimento: ${ours(day(new Date(invoice.due_at)))}.`,
              // The platform's own words about plans it sells (invoice-text.ts), like the plan names above.
              ...(line.reference ? [mailText`${ours(line.reference)}`] : []),
              mailText`Pague por PIX em Financeiro, no botão Pagar Fatura (código copia e cola ou QR code).`,
            ],
            action: { label: mailText`Abrir Financeiro`, url: `${this.config.publicUrl}/financial` },
          }),
        );
      }
    } catch (err) {
      this.log.error({ err, enterpriseId }, 'pro-rated invoice e-mail not queued');
    }
  }
}
