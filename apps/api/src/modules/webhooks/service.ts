import { z } from 'zod';
import {
  Profile,
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_MAX_PER_ENTERPRISE,
  WEBHOOK_MESSAGES as M,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TEST_EVENT,
  type CreatedWebhook,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookDelivery,
} from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import { asSystem } from '../../lib/audit-context';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { EventBus } from '../../realtime/event-bus';
import { adminEmails } from '../billing/repository';
import { composeMail, mailText, quoted } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import type { OutgoingClient } from '../../lib/outgoing/outgoing-client';
import type { AppMetrics } from '../../metrics/metrics';
import { postSigned } from './outgoing-post';
import {
  claimAttempt,
  countWebhooks,
  deleteOldDeliveries,
  deleteWebhook,
  disableFailing,
  enterpriseOfDelivery,
  failDelivery,
  failPending,
  findDelivery,
  findWebhook,
  insertSingleDelivery,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  markFailing,
  markSucceeded,
  recordOutcome,
  reopenForRedelivery,
  takeOverdue,
  takeUnqueued,
  updateWebhook,
} from './repository';
import { newMessageId, newWebhookSecret, signedHeaders } from './signature';

export const WEBHOOK_DELIVER_JOB = 'webhook-deliver';
const DeliverPayload = z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1) });
type DeliverPayload = z.infer<typeof DeliverPayload>;

/** Attempts this process makes at once, over all enterprises. */
const WORKERS = 4;
/** Attempts one enterprise may have in flight here at once: a receiver that hangs holds at most these workers. */
const PER_ENTERPRISE = 2;
/** How long an attempt over its enterprise's share waits before asking again. */
const SHARE_WAIT_SECONDS = 5;
/** An attempt not finished after this (its process died) is handed over again by the sweep. */
const OVERDUE_GRACE_MS = 2 * 60_000;
const DELIVERY_LOG_DAYS = 30;
const DELIVERIES_LISTED = 100;
const DAY_MS = 86_400_000;

function enterpriseOf(scope: TenantScope): string {
  if (scope.kind === 'enterprise') return scope.enterpriseId;
  throw forbidden();
}

/**
 * Webhooks (X13, ADR 66). Events are written to the outbox by the transactions that make them (outbox.ts); after the
 * commit `relay` hands the new deliveries to the job queue, and each attempt is a job: the signed POST, its outcome in
 * the delivery log, and on a failure the next attempt queued after the schedule's delay (same `webhook-id`). A webhook
 * failing for WEBHOOK_DISABLE_AFTER_DAYS without a success is disabled and its enterprise's administrators e-mailed.
 */
export class WebhookService {
  private readonly inFlight = new Map<string, number>();
  private relayScheduled = false;
  private relaying: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Pick<AppConfig, 'webhookTimeoutSeconds' | 'publicUrl'>,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    events: EventBus,
    private readonly log: JobLog,
    /** The shared outgoing-request guard (ADR 55); WEBHOOK_ALLOW_PRIVATE opens it to local receivers. */
    private readonly outgoing: OutgoingClient,
    private readonly metrics: AppMetrics,
  ) {
    jobs.define<DeliverPayload>({
      name: WEBHOOK_DELIVER_JOB,
      schema: DeliverPayload,
      concurrency: WORKERS,
      // The schedule is ours (WEBHOOK_RETRY_DELAYS_SECONDS), each retry a new job: pg-boss retries nothing.
      retryLimit: 0,
      deleteAfterSeconds: 24 * 60 * 60,
      expireInSeconds: config.webhookTimeoutSeconds + 60,
      handler: (data) => this.attempt(data.deliveryId, data.attempt),
      onFinalFailure: async (data, error) => log.error({ err: error, ...data }, 'webhook attempt crashed; the sweep retries it'),
    });
    // After the commits that wrote deliveries: hand them to the queue (several events of one tick, one statement).
    const soon = () => this.relaySoon();
    for (const event of ['alarm.opened', 'alarm.closed', 'alarm.acknowledged', 'travel.changed', 'report.finished'] as const) events.on(event, soon);
  }

  // --- administration (routes) ---

  list(scope: TenantScope): Promise<Webhook[]> {
    return listWebhooks(this.db, enterpriseOf(scope));
  }

  async create(scope: TenantScope, createdBy: string, body: CreateWebhookBody): Promise<CreatedWebhook> {
    const enterpriseId = enterpriseOf(scope);
    this.checkUrl(body.url);
    if ((await countWebhooks(this.db, enterpriseId)) >= WEBHOOK_MAX_PER_ENTERPRISE) throw conflict(M.tooMany);
    const secret = newWebhookSecret();
    const id = await insertWebhook(this.db, { enterpriseId, createdBy, url: body.url, description: body.description ?? null, events: body.events, secret, at: this.clock.now() });
    return { ...(await this.visible(enterpriseId, id)), secret };
  }

  async update(scope: TenantScope, id: string, body: UpdateWebhookBody): Promise<Webhook> {
    const enterpriseId = enterpriseOf(scope);
    await this.visible(enterpriseId, id);
    if (body.url !== undefined) this.checkUrl(body.url);
    await updateWebhook(this.db, enterpriseId, id, body, this.clock.now());
    if (body.enabled === false) await failPending(this.db, id, 'Webhook desativado.');
    return this.visible(enterpriseId, id);
  }

  async remove(scope: TenantScope, id: string): Promise<void> {
    if (!(await deleteWebhook(this.db, enterpriseOf(scope), id))) throw notFound(M.notFound);
  }

  async deliveries(scope: TenantScope, id: string): Promise<WebhookDelivery[]> {
    const webhook = await this.visible(enterpriseOf(scope), id);
    return listDeliveries(this.db, webhook._id, { limit: DELIVERIES_LISTED });
  }

  /** "Testar": a `webhook.test` event to this webhook alone, one attempt, through the queue like any other. */
  async test(scope: TenantScope, id: string): Promise<WebhookDelivery> {
    const webhook = await this.visible(enterpriseOf(scope), id);
    if (!webhook.enabled) throw conflict(M.disabled);
    const now = this.clock.now();
    const payload = JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: now.toISOString(),
      data: { webhook_id: webhook._id, message: 'Teste de webhook do Sentinela.' },
    });
    const deliveryId = await insertSingleDelivery(this.db, { webhookId: webhook._id, messageId: newMessageId(), event: WEBHOOK_TEST_EVENT, payload, at: now });
    // The answer is the delivery as queued, read before the job is sent: a fast worker must not change what it says.
    const queued = await this.deliveryOf(webhook._id, deliveryId);
    await this.jobs.send(WEBHOOK_DELIVER_JOB, { deliveryId, attempt: 1 }, `webhook:${deliveryId}:1`);
    return queued;
  }

  /** "Reenviar": one more attempt of a finished delivery, now, with the same `webhook-id` and body. */
  async redeliver(scope: TenantScope, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const enterpriseId = enterpriseOf(scope);
    const delivery = await findDelivery(this.db, enterpriseId, id, deliveryId);
    if (!delivery) throw notFound(M.deliveryNotFound);
    if (!delivery.enabled) throw conflict(M.disabled);
    const reopened = await reopenForRedelivery(this.db, deliveryId, this.clock.now());
    if (!reopened) throw conflict('Esta entrega ainda está em andamento.');
    const queued = await this.deliveryOf(id, deliveryId);
    await this.jobs.send(WEBHOOK_DELIVER_JOB, { deliveryId, attempt: reopened.attempts + 1 }, `webhook:${deliveryId}:${reopened.attempts + 1}`);
    return queued;
  }

  // --- delivery ---

  /** Queues the deliveries recorded since the last relay, after the current tick's commits. */
  relaySoon(): void {
    if (this.relayScheduled) return;
    this.relayScheduled = true;
    // As the system, not as the request whose commit woke the relay (ADR 0060).
    setImmediate(() =>
      asSystem('webhooks', () => {
        this.relayScheduled = false;
        this.relaying = this.relaying.then(() => this.relay()).catch((err: unknown) => this.log.error({ err }, 'webhook deliveries not queued; the sweep queues them'));
      }),
    );
  }

  /** Hands every unqueued delivery to the job queue (one statement per thousand). Returns how many. */
  async relay(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await takeUnqueued(this.db, this.clock.now(), 1000);
      await this.sendJobs(taken);
      total += taken.length;
      if (taken.length < 1000) return total;
    }
  }

  /**
   * Every minute (jobs plugin): queues what was not queued and what is overdue (a job lost with its process), and
   * drops deliveries older than the log keeps.
   */
  async sweep(): Promise<void> {
    await this.relay();
    const now = this.clock.now();
    await this.sendJobs(await takeOverdue(this.db, now, OVERDUE_GRACE_MS, 1000));
    await deleteOldDeliveries(this.db, new Date(now.getTime() - DELIVERY_LOG_DAYS * DAY_MS));
  }

  /** Waits for a relay already scheduled (tests, shutdown). */
  async settled(): Promise<void> {
    await this.relaying;
  }

  /**
   * One attempt (the job): claimed once, POSTed signed, recorded; on a failure the next attempt is queued after the
   * schedule's delay, or the delivery fails when the schedule is spent (or it was a single attempt: a test, a
   * redelivery). Tests drive it directly under a manual clock.
   */
  async attempt(deliveryId: string, attempt: number): Promise<void> {
    const enterpriseId = await enterpriseOfDelivery(this.db, deliveryId);
    if (!enterpriseId) return;
    // A fair share: an enterprise whose receiver hangs waits for its own attempts, not everyone else.
    const busy = this.inFlight.get(enterpriseId) ?? 0;
    if (busy >= PER_ENTERPRISE) {
      await this.jobs.send(WEBHOOK_DELIVER_JOB, { deliveryId, attempt }, `webhook:${deliveryId}:${attempt}`, { startAfterSeconds: SHARE_WAIT_SECONDS });
      return;
    }
    this.inFlight.set(enterpriseId, busy + 1);
    try {
      await this.attemptClaimed(deliveryId, attempt);
    } finally {
      const left = (this.inFlight.get(enterpriseId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(enterpriseId, left);
      else this.inFlight.delete(enterpriseId);
    }
  }

  private async attemptClaimed(deliveryId: string, attempt: number): Promise<void> {
    const leaseMs = this.config.webhookTimeoutSeconds * 1000 + OVERDUE_GRACE_MS;
    const delivery = await claimAttempt(this.db, deliveryId, attempt, this.clock.now(), leaseMs);
    if (!delivery) return;
    if (!delivery.enabled) return failDelivery(this.db, deliveryId, 'Webhook desativado.');
    const startedAt = this.clock.now();
    // The signature's timestamp is the wall clock's: receivers compare it with theirs to refuse replays.
    const headers = signedHeaders(delivery.secret, delivery.message_id, delivery.payload, new Date());
    const outcome = await postSigned(this.outgoing, delivery.url, headers, delivery.payload, { timeoutMs: this.config.webhookTimeoutSeconds * 1000 });
    if (outcome.detail) this.log.warn({ webhookId: delivery.webhook_id, detail: outcome.detail }, 'webhook attempt got no answer');
    const now = this.clock.now();
    const ok = outcome.error === null;
    const delay = WEBHOOK_RETRY_DELAYS_SECONDS[delivery.attempts - 1];
    const retry = !ok && delivery.retry_on_failure && delay !== undefined;
    let disabled = false;
    await this.db.transaction().execute(async (trx) => {
      await recordOutcome(trx, {
        delivery,
        startedAt,
        status: outcome.status,
        durationMs: outcome.durationMs,
        error: outcome.error,
        // Asked for with "Reenviar": a single attempt after the first (a test's first attempt is not one).
        manual: !delivery.retry_on_failure && delivery.attempts > 1,
        next: ok ? { status: 'succeeded' } : retry ? { status: 'pending', at: new Date(now.getTime() + delay * 1000) } : { status: 'failed' },
      });
      if (ok) return markSucceeded(trx, delivery.webhook_id, now);
      const since = await markFailing(trx, delivery.webhook_id, now);
      if (since && now.getTime() - since.getTime() >= WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) {
        disabled = await disableFailing(trx, delivery.webhook_id, `Desativado automaticamente: falhas sem nenhum sucesso desde ${since.toISOString()}.`, now);
      }
    });
    // Per attempt (issue 25 point 1): delivered, to be retried, or failed for good.
    this.metrics.webhookDeliveries.inc({ outcome: ok ? 'delivered' : retry ? 'retry' : 'failed' });
    if (disabled) {
      this.log.warn({ webhookId: delivery.webhook_id, url: delivery.url }, 'webhook disabled after failing for days');
      await this.tellAdmins(delivery.enterprise_id, delivery.url);
      return;
    }
    if (retry) await this.jobs.send(WEBHOOK_DELIVER_JOB, { deliveryId, attempt: delivery.attempts + 1 }, `webhook:${deliveryId}:${delivery.attempts + 1}`, { startAfterSeconds: delay });
  }

  // --- helpers ---

  private async sendJobs(taken: readonly { id: string; attempt: number }[]): Promise<void> {
    if (taken.length === 0) return;
    await this.jobs.sendMany(WEBHOOK_DELIVER_JOB, taken.map((t) => ({ data: { deliveryId: t.id, attempt: t.attempt }, key: `webhook:${t.id}:${t.attempt}` })));
  }

  private checkUrl(url: string): void {
    if (!this.outgoing.urlAllowed(url)) throw badRequest(M.urlNotAllowed);
  }

  private async visible(enterpriseId: string, id: string): Promise<Webhook> {
    const webhook = await findWebhook(this.db, enterpriseId, id);
    if (!webhook) throw notFound(M.notFound);
    return webhook;
  }

  private async deliveryOf(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const [found] = await listDeliveries(this.db, webhookId, { limit: 1, deliveryId });
    if (!found) throw notFound(M.deliveryNotFound);
    return found;
  }

  private async tellAdmins(enterpriseId: string, url: string): Promise<void> {
    const link = `${this.config.publicUrl}/integrations`;
    for (const to of await adminEmails(this.db, enterpriseId, Profile.EnterpriseAdmin)) {
      await this.mail.send(
        composeMail({
          to,
          subject: mailText`Webhook desativado no Sentinela`,
          paragraphs: [
            // The address is the administrator's words: quoted like every name (ADR 59).
            mailText`O webhook ${quoted(url)} foi desativado: as entregas falharam por ${WEBHOOK_DISABLE_AFTER_DAYS} dias sem nenhum sucesso.`,
            mailText`Corrija o destino e ative o webhook de novo em Integrações; as entregas que falharam podem ser reenviadas pelo registro de entregas.`,
          ],
          action: { label: mailText`Abrir Integrações`, url: link },
        }),
      );
    }
  }
}
