import { SIGNATURE_MESSAGES, type AlarmDelivery, type AlarmType } from '@sentinela/contract';
import { z } from 'zod';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { scopeFor } from '../../lib/tenant-scope';
import { newSecret, sha256 } from '../../lib/tokens';
import type { AlarmChangedEvent, EventBus } from '../../realtime/event-bus';
import { asSystem } from '../../lib/audit-context';
import { FairQueue } from '../../lib/fair-queue';
import type { AlarmService } from '../alarms/service';
import { findDeviceInScope } from '../devices/repository';
import { composeMail, mailText, ours } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import { ACK_PREFIX, type TelegramBot } from '../telegram/bot';
import type { TenantScope } from '../../lib/tenant-scope';
import { recordPushRecipients } from '../push/repository';
import type { PushService } from '../push/service';
import { alarmParts, alarmText, telegramText, type AlarmFacts } from './alarm-message';
import { PermanentDeliveryError } from './channels/delivery-error';
import type { PhoneSenders } from './channels/phone-senders';
import { smsText, whatsappParameters, type PhoneEvent } from './channels/phone-texts';
import type { AppMetrics } from '../../metrics/metrics';
import { flapDecision } from './flapping-guard';
import { elapsedText, reminderText } from './reminder-message';
import {
  findAlarmFacts,
  findDelivery,
  findDeliveryByAckToken,
  findUnannounced,
  insertDeliveries,
  listDeliveries,
  markAnnounced,
  recipientsOf,
  recordAttempt,
  recordCancelled,
  recordError,
  recordSent,
  setAckToken,
  spendAckToken,
  type AlarmFactsRow,
  type ConfiguredChannels,
  type Recipient,
} from './delivery-repository';

export const ALARM_NOTIFY_JOB = 'alarm-notify';
export const ALARM_DELIVER_JOB = 'alarm-deliver';

/**
 * Records an alarm's deliveries to `recipients` and queues a job for each new one, in one transaction with `alsoRecord`
 * (what marks the work done: the announcement, the reminder's number). A failure anywhere leaves none of it, and the
 * retry (a job's, the sweep's) finds the same work to do: recorded apart from their jobs, deliveries left by a failed
 * queueing stayed pending for ever, since the retry's insert skipped them as already there.
 */
export async function queueDeliveries(
  db: Db,
  jobs: JobQueue,
  what: { enterpriseId: string; alarmId: string; event: 'opened' | 'ended' | 'reminder' | 'escalated'; seq?: number; recipients: readonly Recipient[]; at: Date },
  alsoRecord: (trx: Db) => Promise<unknown>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = await insertDeliveries(trx, what.alarmId, what.event, what.recipients, what.at, what.seq ?? 0);
    // Grouped by enterprise (ADR 87): one tenant's backlog cannot take every worker.
    await jobs.sendMany(ALARM_DELIVER_JOB, ids.map((id) => ({ data: { deliveryId: id }, key: `delivery:${id}`, group: what.enterpriseId })), { within: trx });
    await alsoRecord(trx);
    return ids.length;
  });
}

const NotifyPayload = z.object({ alarmId: z.uuid(), event: z.enum(['opened', 'ended']) });
type NotifyPayload = z.infer<typeof NotifyPayload>;
const DeliverPayload = z.object({ deliveryId: z.uuid() });
type DeliverPayload = z.infer<typeof DeliverPayload>;

/** Announcements run at once in this process (each a handful of short queries, then queued deliveries). */
const ANNOUNCE_CONCURRENCY = 4;
/** Announcements one enterprise may have waiting here; beyond, the minute sweep announces them. */
const ANNOUNCE_BACKLOG_PER_ENTERPRISE = 500;

const REFUSED = 'Não foi possível reconhecer este alarme.';
const ALREADY = 'Este alarme já foi reconhecido.';
const GXP_SIGN_ANSWER = 'Modo GxP: assine o reconhecimento no Sentinela (link na mensagem).';
export const TELEGRAM_ACK_MESSAGE = 'Reconhecido pelo Telegram.';

function factsOf(row: AlarmFactsRow): AlarmFacts {
  const travel = row.travel_code
    ? `${row.travel_code}${row.origin_address && row.destiny_address ? ` (${row.origin_address} → ${row.destiny_address})` : ''}`
    : null;
  return {
    // The column's CHECK holds it to the alarm types.
    type: row.type as AlarmType,
    message: row.message,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    temperatureMin: row.temperature_min,
    temperatureMax: row.temperature_max,
    humidityMin: row.humidity_min,
    humidityMax: row.humidity_max,
    deviceName: row.travel_device_name || row.device_name || row.mac,
    mac: row.mac,
    deviceId: row.device_id,
    travel,
    acknowledged: row.acknowledged_at ? { by: row.acknowledged_by_name, at: row.acknowledged_at } : null,
  };
}

/**
 * Alarm delivery (D6, ADR 21, ADR 87). When an alarm opens or ends, this process finds who hears of it right after
 * the commit and records one delivery per person and channel; each delivery is its own job (retried with a growing delay), so ingestion and alarm
 * evaluation never wait on a mail relay or the Bot API, and one dead channel does not hold the others. Each
 * delivery's outcome is kept (the log of "Detalhes do alarme"). Telegram messages of an opened alarm carry a
 * "Reconhecer" button whose data is a one-time token bound to that message's person and chat.
 */
export class AlarmDeliveryService {
  private readonly announcements: FairQueue<NotifyPayload>;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Pick<AppConfig, 'publicUrl' | 'reportTimeZone' | 'alarmFlapMinutes'>,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly telegram: TelegramBot,
    private readonly alarms: AlarmService,
    events: EventBus,
    private readonly log: JobLog,
    private readonly phones: PhoneSenders,
    private readonly push: PushService,
    private readonly metrics: AppMetrics,
  ) {
    // Announcements whose first run here failed, and those the minute sweep found (the live path is `announcements`).
    jobs.define<NotifyPayload>({
      name: ALARM_NOTIFY_JOB,
      schema: NotifyPayload,
      // Each connection here is one more in the job queue's own pool: finding recipients is quick, sending is not.
      concurrency: 1,
      retryLimit: 5,
      retryDelaySeconds: 2,
      retryBackoff: true,
      deleteAfterSeconds: 24 * 60 * 60,
      expireInSeconds: 60,
      handler: (data) => this.fanOut(data),
      onFinalFailure: async (data, error) => log.error({ err: error, ...data }, 'alarm notification given up: no delivery recorded'),
    });
    jobs.define<DeliverPayload>({
      name: ALARM_DELIVER_JOB,
      schema: DeliverPayload,
      concurrency: 3,
      // An enterprise with thousands of messages to send (a whole warehouse out of range) sends them one at a time
      // here, leaving the other workers to the other enterprises (ADR 87).
      groupConcurrency: 1,
      // About 17 minutes over all attempts, as e-mail: a relay or Bot API down for a while still gets the message.
      retryLimit: 9,
      retryDelaySeconds: 2,
      retryBackoff: true,
      deleteAfterSeconds: 24 * 60 * 60,
      expireInSeconds: 2 * 60,
      handler: (data) => this.deliver(data.deliveryId),
      onFinalFailure: async ({ deliveryId }, error) => recordError(this.db, deliveryId, errorText(error), true),
    });
    // After the alarm's transaction committed, in this process, at once (ADR 87): waiting for a job queue's poll on a
    // database that ingestion keeps busy held messages for minutes. Tenants take turns, so one enterprise's burst of
    // alarms never holds another's; each enterprise's announcements run one at a time, in order (an alarm's end is
    // never told before its opening). What fails here is queued as a job and retried; what does not fit the
    // enterprise's line, or was lost with a stopped process, the minute sweep finds (`findUnannounced`).
    this.announcements = new FairQueue<NotifyPayload>({
      concurrency: ANNOUNCE_CONCURRENCY,
      perKeyLimit: ANNOUNCE_BACKLOG_PER_ENTERPRISE,
      run: (data) => asSystem('alarm-announcer', () => this.fanOut(data)),
      overflow: () => this.metrics.alarmAnnouncementsDeferred.inc(),
      failed: (data, err) => {
        log.warn({ err, ...data }, 'alarm announcement failed; queued for a retry');
        this.jobs.send(ALARM_NOTIFY_JOB, data, `alarm:${data.alarmId}:${data.event}`).catch((error: unknown) => log.error({ err: error, ...data }, 'alarm notification not queued'));
      },
    });
    const announce = (e: AlarmChangedEvent, event: NotifyPayload['event']) => {
      // An alarm of a device no enterprise holds has nobody to tell (fanOut only marks it): one shared line.
      if (!this.closed) this.announcements.push(e.enterpriseId ?? '', { alarmId: e.alarmId, event });
    };
    events.on('alarm.opened', (e) => announce(e, 'opened'));
    events.on('alarm.closed', (e) => announce(e, 'ended'));
  }

  /** Stops taking announcements and lets those started finish (the server is closing; the sweep of the next start finds the rest). */
  async close(): Promise<void> {
    this.closed = true;
    await this.announcements.idle();
  }

  /** The channels whose provider is set up on this server. */
  configuredChannels(): ConfiguredChannels {
    return { telegram: this.telegram.configured, sms: this.phones.sms.configured, whatsapp: this.phones.whatsapp.configured };
  }

  /** GET /api/alarms/{id}/deliveries: the delivery log of an alarm the caller may see. */
  async deliveriesOf(scope: TenantScope, alarmId: string): Promise<AlarmDelivery[]> {
    const alarm = await this.db.selectFrom('alarms').select('device_id').where('id', '=', alarmId).executeTakeFirst();
    if (!alarm || !(await findDeviceInScope(this.db, scope, alarm.device_id))) throw notFound('Alarme não encontrado.');
    return listDeliveries(this.db, alarmId);
  }

  private async fanOut({ alarmId, event }: NotifyPayload): Promise<void> {
    // A flapping sensor does not flood a chat (ADR 24): a held opening is asked again by the sweep. Decided first: the
    // many alarms of a flapping sensor stop here, before the rest's queries (ADR 87).
    if ((await flapDecision(this.db, alarmId, event, this.clock.now(), this.config.alarmFlapMinutes)) !== 'announce') return;
    const row = await findAlarmFacts(this.db, alarmId);
    if (!row) return;
    // A device no enterprise holds has nobody to tell; it is still marked, so that the sweep does not ask again.
    const enterpriseId = row.enterprise_id;
    if (enterpriseId) {
      const recipients = await recipientsOf(this.db, { id: row.device_id, enterpriseId }, this.configuredChannels());
      const at = this.clock.now();
      await queueDeliveries(this.db, this.jobs, { enterpriseId, alarmId, event, recipients, at }, (trx) => markAnnounced(trx, alarmId, event, at));
    } else {
      await markAnnounced(this.db, alarmId, event, this.clock.now());
    }
  }

  /**
   * Queues the announcements the live path did not make (the process stopped after the alarm's commit, or the
   * enterprise's line was full): alarms of the last day whose opening or end has not been announced, the opening only
   * once it is a minute old (the live path usually does it). Announcing twice is harmless: a delivery exists once per
   * alarm, event, channel and user.
   */
  async sweep(): Promise<number> {
    const missed = await findUnannounced(this.db, this.clock.now());
    await this.jobs.sendMany(ALARM_NOTIFY_JOB, missed.map((data) => ({ data, key: `alarm:${data.alarmId}:${data.event}` })));
    return missed.length;
  }

  private async deliver(deliveryId: string): Promise<void> {
    const delivery = await findDelivery(this.db, deliveryId);
    // Sent already (an attempt that finished but was not marked done), or given up: nothing to do.
    if (!delivery || delivery.status !== 'pending') return;
    const outcome = await this.attempt(delivery).catch((err: unknown) => {
      this.metrics.alarmNotifications.inc({ channel: delivery.channel, outcome: 'error' });
      throw err;
    });
    if (outcome) this.metrics.alarmNotifications.inc({ channel: delivery.channel, outcome });
  }

  /** One attempt at a pending delivery; its outcome for the metrics (undefined: nothing was tried), or it throws to be retried. */
  private async attempt(delivery: NonNullable<Awaited<ReturnType<typeof findDelivery>>>): Promise<'sent' | 'failed' | 'cancelled' | 'no_recipient' | undefined> {
    const deliveryId = delivery.id;
    const row = await findAlarmFacts(this.db, delivery.alarm_id);
    if (!row) return;
    const facts = factsOf(row);
    const textOptions = { publicUrl: this.config.publicUrl, timeZone: this.config.reportTimeZone };
    const reminder = delivery.event === 'reminder' || delivery.event === 'escalated';
    // Acknowledging or ending the alarm stops its reminders, also those already queued (ADR 24).
    if (reminder && (facts.acknowledged || facts.endedAt)) {
      await recordCancelled(this.db, deliveryId);
      return 'cancelled';
    }
    const text =
      delivery.event === 'reminder' || delivery.event === 'escalated'
        ? reminderText(facts, delivery.event, delivery.created_at, textOptions)
        : alarmText(facts, delivery.event, textOptions);
    await recordAttempt(this.db, deliveryId);
    try {
      let messageId: number | null = null;
      if (delivery.channel === 'email') {
        await this.mail.deliverNow(
          composeMail({
            to: delivery.recipient,
            // alarmText quoted every name users chose (quoteName): its lines are the platform's words.
            subject: mailText`${ours(text.subject)}`,
            paragraphs: [mailText`${ours(text.lines.join('\n'))}`],
            action: { label: mailText`Ver histórico do dispositivo`, url: text.url },
            footnotes: [mailText`Você recebe este e-mail porque ativou as notificações por e-mail em Configurações.`],
          }),
        );
      } else if (delivery.channel === 'telegram') {
        let button: { text: string; data: string } | undefined;
        if ((delivery.event === 'opened' || reminder) && !facts.acknowledged) {
          const token = newSecret(18);
          await setAckToken(this.db, deliveryId, sha256(token));
          button = { text: 'Reconhecer', data: `${ACK_PREFIX}${token}` };
        }
        messageId = await this.telegram.send(delivery.recipient, telegramText(text), button);
      } else if (delivery.channel === 'sms') {
        const sent = await this.phones.sms.send(delivery.recipient, smsText(alarmParts(facts, textOptions), phoneEvent(delivery, facts)));
        this.log.info({ deliveryId, sid: sent.sid, status: sent.status }, 'alarm sms accepted by the provider');
      } else if (delivery.channel === 'whatsapp') {
        const event = phoneEvent(delivery, facts);
        const template = event.kind === 'ended' ? 'ended' : 'opened';
        const sent = await this.phones.whatsapp.sendTemplate(delivery.recipient, template, whatsappParameters(alarmParts(facts, textOptions), event));
        this.log.info({ deliveryId, messageId: sent.id }, 'alarm whatsapp message accepted by the provider');
      } else if (delivery.channel === 'push' && delivery.user_id) {
        // One delivery per person: every browser they subscribed gets it (ADR 22).
        const outcome = await this.push.sendToUser(delivery.user_id, { title: text.subject, body: text.lines.join('\n'), url: text.url, tag: `alarm:${delivery.alarm_id}` });
        await recordPushRecipients(this.db, deliveryId, outcome.reached);
        if (outcome.reached === 0 && outcome.errors.length === 0) {
          // No browser left (all unsubscribed or expired): nothing to retry.
          await recordError(this.db, deliveryId, outcome.removed > 0 ? 'Inscrições push expiradas: nenhum navegador inscrito.' : 'Nenhum navegador inscrito.', true);
          return 'no_recipient';
        }
        if (outcome.reached === 0) throw new Error(outcome.errors.join('; '));
      } else {
        throw new Error(`channel ${delivery.channel} has no provider`);
      }
      await recordSent(this.db, deliveryId, this.clock.now(), messageId);
      return 'sent';
    } catch (error) {
      // A refusal no retry can change (invalid number, credentials refused): failed now, not after 17 minutes.
      if (error instanceof PermanentDeliveryError) {
        this.log.warn({ deliveryId, channel: delivery.channel, reason: error.message }, 'alarm delivery refused for good by the provider');
        await recordError(this.db, deliveryId, error.message, true);
        return 'failed';
      }
      await recordError(this.db, deliveryId, errorText(error), false);
      throw error;
    }
  }

  /**
   * A press on "Reconhecer" in Telegram. Accepted only when the token is one this server sent, not spent, pressed in
   * the chat it was sent to by the person it was sent to, who is still linked to that chat, active, and may still
   * see the device; anything else is refused, logged, and changes nothing.
   */
  async acknowledgeFromTelegram(press: { token: string; chatId: string; fromId: string }): Promise<{ answer: string; editedText?: string; keepButton?: boolean }> {
    const refuse = (why: string, extra: Record<string, unknown> = {}) => {
      this.log.warn({ why, chatId: press.chatId, fromId: press.fromId, ...extra }, 'telegram acknowledgement refused');
      return { answer: REFUSED };
    };
    if (!/^[A-Za-z0-9_-]{10,60}$/.test(press.token)) return refuse('malformed token');
    const delivery = await findDeliveryByAckToken(this.db, sha256(press.token));
    if (!delivery || delivery.channel !== 'telegram') return refuse('unknown token');
    if (delivery.recipient !== press.chatId || press.fromId !== press.chatId) return refuse('pressed outside the chat it was sent to', { delivery: delivery.id });
    const user = delivery.user_id
      ? await this.db.selectFrom('users').select(['id', 'name', 'profile_id', 'enterprise_id', 'disabled', 'telegram_chat_id']).where('id', '=', delivery.user_id).executeTakeFirst()
      : undefined;
    if (!user || user.disabled || user.telegram_chat_id !== press.chatId) return refuse('chat no longer linked to the recipient', { delivery: delivery.id });
    if (delivery.ack_used_at) return refuse('replayed press', { delivery: delivery.id });
    const scope = scopeFor({ id: user.id, profileId: user.profile_id, enterpriseId: user.enterprise_id });
    try {
      await this.alarms.acknowledge(scope, delivery.alarm_id, { userId: user.id, message: TELEGRAM_ACK_MESSAGE });
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') {
        await spendAckToken(this.db, delivery.id, this.clock.now());
        return { answer: ALREADY, ...(await this.currentText(delivery.alarm_id)) };
      }
      if (error instanceof AppError && error.code === 'NOT_FOUND') return refuse('alarm outside the recipient\'s scope', { delivery: delivery.id });
      // GxP mode (ADR 0062): an acknowledgement is an electronic signature, never a button press; the message points
      // to the device's page, where the alarm is signed with the password and a meaning. The button stays usable.
      if (error instanceof AppError && error.message === SIGNATURE_MESSAGES.passwordRequired) {
        const device = await this.db.selectFrom('alarms as a').innerJoin('devices as d', 'd.id', 'a.device_id').select(['d.id', 'd.mac']).where('a.id', '=', delivery.alarm_id).executeTakeFirstOrThrow();
        const link = `${this.config.publicUrl}/device-history/${encodeURIComponent(device.mac)}/${device.id}`;
        const current = await this.currentText(delivery.alarm_id);
        // The button stays: pressed again once GxP mode is off, it acknowledges.
        return { answer: GXP_SIGN_ANSWER, editedText: `${current.editedText ?? ''}\n\nModo GxP: o reconhecimento é uma assinatura eletrônica. Assine na aba Alarmes: ${link}`.trim(), keepButton: true };
      }
      throw error;
    }
    await spendAckToken(this.db, delivery.id, this.clock.now());
    return { answer: 'Alarme reconhecido.', ...(await this.currentText(delivery.alarm_id)) };
  }

  /** The opened-alarm message as it reads now (with who acknowledged it and when). */
  private async currentText(alarmId: string): Promise<{ editedText?: string }> {
    const row = await findAlarmFacts(this.db, alarmId);
    if (!row) return {};
    return { editedText: telegramText(alarmText(factsOf(row), 'opened', { publicUrl: this.config.publicUrl, timeZone: this.config.reportTimeZone })) };
  }
}

/** What a phone message says of its alarm; a reminder's age is counted from the alarm's start to its queueing. */
function phoneEvent(delivery: { event: 'opened' | 'ended' | 'reminder' | 'escalated'; created_at: Date }, facts: AlarmFacts): PhoneEvent {
  if (delivery.event === 'opened' || delivery.event === 'ended') return { kind: delivery.event };
  return { kind: delivery.event, openFor: elapsedText(delivery.created_at.getTime() - facts.startedAt.getTime()) };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
