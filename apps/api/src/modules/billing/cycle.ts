import { Profile } from '@sentinela/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { composeMail, type MailContent } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import { invoiceIssuedMail, invoiceOverdueMail, restrictedMail } from './emails';
import { newTxid } from './pix-code';
import { adminEmails } from './repository';

export const BILLING_CYCLE_JOB = 'billing-cycle';
const DAY = 86_400_000;
/** Periods one run catches up on for a subscription (a server stopped for months does not bill years at once). */
const MAX_PERIODS_PER_RUN = 3;

/** Months of a cycle: the documents' rule, "Mensal" is monthly and any other name annual. */
export const cycleMonths = (cycleName: string) => (cycleName.trim().toLowerCase() === 'mensal' ? 1 : 12);

/** `months` after `from`, on the anchor's day of the month (31 Jan → 28/29 Feb → 31 Mar), same time of day (UTC). */
export function addMonths(from: Date, months: number, anchorDay: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(anchorDay, last), from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
}

export interface CycleResult {
  issued: number;
  overdue: number;
  restricted: number;
}

/**
 * The billing cycle (issue 13 items 2 and 4, ADR 27), run by a pg-boss job under the app's clock:
 * 1. each active (or overdue) subscription gets the invoice of its next period once, BILLING_ISSUE_DAYS_BEFORE days
 *    before the period starts, due BILLING_DUE_DAYS after it starts; a plan change asked for on /plans takes effect
 *    with that next period. A unique index (enterprise, period start) makes a second run, or a second server, a no-op;
 * 2. open invoices past their due date become overdue, and so does the subscription (its administrators are warned);
 * 3. an invoice overdue for more than BILLING_GRACE_DAYS restricts the subscription (recorded; nothing is deleted).
 * Each e-mail goes once: only the run whose insert or update changed the row sends it.
 */
export class BillingCycle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly log: JobLog,
  ) {
    jobs.define<{ at: string }>({
      name: BILLING_CYCLE_JOB,
      schema: z.object({ at: z.string() }),
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 60,
      deleteAfterSeconds: 24 * 3600,
      expireInSeconds: 15 * 60,
      handler: async () => {
        const result = await this.run();
        if (result.issued + result.overdue + result.restricted > 0) this.log.info(result, 'billing cycle ran');
      },
      onFinalFailure: async (_data, error) => this.log.error({ err: error }, 'billing cycle failed'),
    });
  }

  /** Queues a run (the jobs plugin calls it every few minutes); one per hour at most, whatever the servers. */
  async queue(): Promise<void> {
    const hour = new Date(Math.floor(this.clock.now().getTime() / 3_600_000) * 3_600_000).toISOString();
    if (await this.jobs.hasPending(BILLING_CYCLE_JOB, hour)) return;
    const done = await this.jobs.jobsFor(BILLING_CYCLE_JOB, hour);
    if (done.some((j) => j.state === 'completed')) return;
    await this.jobs.send(BILLING_CYCLE_JOB, { at: hour }, hour);
  }

  async run(): Promise<CycleResult> {
    const issued = await this.issueDue();
    const overdue = await this.markOverdue();
    const restricted = await this.restrict();
    return { issued, overdue, restricted };
  }

  private async issueDue(): Promise<number> {
    const now = this.clock.now();
    const subscriptions = await this.db
      .selectFrom('subscriptions')
      .select(['enterprise_id', 'started_at'])
      .where('status', 'in', ['active', 'overdue'])
      .execute();
    let issued = 0;
    for (const sub of subscriptions) issued += await this.issueUpTo(sub.enterprise_id, sub.started_at, now);
    return issued;
  }

  /**
   * Issues what one enterprise is due now: right after sign-up or a first plan choice, its first invoice, so that
   * /complete-register step 3 can show it with its PIX code at once (ADR 32) rather than after the next run.
   */
  async issueFor(enterpriseId: string): Promise<number> {
    const sub = await this.db.selectFrom('subscriptions').select('started_at').where('enterprise_id', '=', enterpriseId).executeTakeFirst();
    return sub ? this.issueUpTo(enterpriseId, sub.started_at, this.clock.now()) : 0;
  }

  private async issueUpTo(enterpriseId: string, startedAt: Date, now: Date): Promise<number> {
    let issued = 0;
    for (let i = 0; i < MAX_PERIODS_PER_RUN; i++) {
      try {
        const made = await this.issueNext(enterpriseId, startedAt, now);
        if (!made) break;
        issued += 1;
      } catch (err) {
        this.log.error({ err, enterpriseId }, 'invoice not issued');
        break;
      }
    }
    return issued;
  }

  /** Issues the subscription's next invoice when it is due to be issued; false when there is none to issue yet. */
  private async issueNext(enterpriseId: string, startedAt: Date, now: Date): Promise<boolean> {
    const made = await this.db.transaction().execute(async (trx) => {
      const sub = await trx.selectFrom('subscriptions').select(['plan_cycle_id', 'status']).where('enterprise_id', '=', enterpriseId).forUpdate().executeTakeFirst();
      if (!sub || (sub.status !== 'active' && sub.status !== 'overdue')) return null;
      const last = await trx
        .selectFrom('invoices')
        .select((eb) => eb.fn.max('period_end').as('end'))
        .where('enterprise_id', '=', enterpriseId)
        .where('status', '<>', 'cancelled')
        .where('kind', '=', 'cycle')
        .executeTakeFirst();
      const lastEnd = last?.end ? new Date(last.end as unknown as string | Date) : null;
      const start = lastEnd ?? startedAt;
      if (now.getTime() < start.getTime() - this.config.billingIssueDaysBefore * DAY) return null;
      let cycleId = sub.plan_cycle_id;
      if (lastEnd) {
        // A plan chosen on /plans takes effect with the next period: the invoice charges the new one.
        const change = await trx
          .selectFrom('plan_change_requests')
          .select(['id', 'plan_cycle_id'])
          .where('enterprise_id', '=', enterpriseId)
          .where('status', '=', 'pending')
          .orderBy('requested_at', 'desc')
          .executeTakeFirst();
        if (change) {
          cycleId = change.plan_cycle_id;
          await trx.updateTable('subscriptions').set({ plan_cycle_id: cycleId }).where('enterprise_id', '=', enterpriseId).execute();
          await trx.updateTable('plan_change_requests').set({ status: 'applied' }).where('id', '=', change.id).execute();
        }
      }
      const cycle = await trx
        .selectFrom('plan_cycles as c')
        .innerJoin('plans as p', 'p.id', 'c.plan_id')
        .select(['c.id', 'c.name as cycle_name', 'p.name as plan_name', sql<number>`(c.value * 100)::integer`.as('cents')])
        .where('c.id', '=', cycleId)
        .executeTakeFirstOrThrow();
      const end = addMonths(start, cycleMonths(cycle.cycle_name), startedAt.getUTCDate());
      const values = {
        enterprise_id: enterpriseId, issued_at: now, plan_cycle_id: cycle.id, plan_name: cycle.plan_name, cycle_name: cycle.cycle_name,
        period_start: start, period_end: end, due_at: new Date(start.getTime() + this.config.billingDueDays * DAY),
        amount_cents: Number(cycle.cents), plan_price_cents: Number(cycle.cents), txid: newTxid(),
      };
      const row = await trx
        .insertInto('invoices')
        .values(values)
        .onConflict((oc) => oc.columns(['enterprise_id', 'period_start']).where('status', '<>', 'cancelled').where('kind', '=', 'cycle').doNothing())
        .returning('number')
        .executeTakeFirst();
      return row ? { ...values, number: row.number } : null;
    });
    if (!made) return false;
    await this.tellAdmins(enterpriseId, (to) => invoiceIssuedMail(to, made, this.config.publicUrl));
    return true;
  }

  private async markOverdue(): Promise<number> {
    const now = this.clock.now();
    const rows = await this.db
      .updateTable('invoices')
      .set({ status: 'overdue' })
      .where('status', '=', 'pending')
      .where('due_at', '<', now)
      .returning(['enterprise_id', 'number', 'amount_cents', 'due_at', 'period_start', 'period_end', 'plan_name', 'cycle_name'])
      .execute();
    for (const invoice of rows) {
      await this.db.updateTable('subscriptions').set({ status: 'overdue' }).where('enterprise_id', '=', invoice.enterprise_id).where('status', '=', 'active').execute();
      await this.tellAdmins(invoice.enterprise_id, (to) => invoiceOverdueMail(to, invoice, this.config.billingGraceDays, this.config.publicUrl));
    }
    return rows.length;
  }

  private async restrict(): Promise<number> {
    const now = this.clock.now();
    const limit = new Date(now.getTime() - this.config.billingGraceDays * DAY);
    const rows = await this.db
      .updateTable('subscriptions')
      .set({ status: 'overdue', restricted_at: now })
      .where('restricted_at', 'is', null)
      .where('status', 'in', ['active', 'overdue'])
      .where((eb) =>
        eb.exists(
          eb.selectFrom('invoices as i').select('i.id').whereRef('i.enterprise_id', '=', 'subscriptions.enterprise_id').where('i.status', '=', 'overdue').where('i.due_at', '<', limit),
        ),
      )
      .returning('enterprise_id')
      .execute();
    for (const { enterprise_id } of rows) {
      this.log.warn({ enterpriseId: enterprise_id }, 'subscription restricted: invoice overdue beyond the grace period');
      await this.tellAdmins(enterprise_id, (to) => restrictedMail(to, this.config.publicUrl));
    }
    return rows.length;
  }

  private async tellAdmins(enterpriseId: string, content: (to: string) => MailContent): Promise<void> {
    try {
      for (const to of await adminEmails(this.db, enterpriseId, Profile.EnterpriseAdmin)) await this.mail.send(composeMail(content(to)));
    } catch (err) {
      this.log.error({ err, enterpriseId }, 'billing e-mail not queued');
    }
  }
}
