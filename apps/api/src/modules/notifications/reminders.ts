import { ESCALATION_MESSAGES, Profile, type AlarmEscalationSettings } from '@sentinela/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import { queueDeliveries } from './alarm-delivery';
import { recipientsOf, type ConfiguredChannels, type Recipient } from './delivery-repository';

const MINUTE = 60_000;

/**
 * Reminders and escalation (issue 11 item 4, ADR 24). While an announced alarm stays open and unacknowledged, reminder
 * k goes to its recipients k·N minutes after the opening was announced (one reminder when several came due while no
 * sweep ran), and M minutes after it the enterprise's administrators who do not hear of it already are told by
 * e-mail. N and M are the enterprise's (0: off). A delivery exists once per alarm, event, number, channel and user,
 * so two sweeps (or two processes) racing deliver each reminder once: only the one whose insert made the rows queues
 * them.
 */
export class AlarmReminderService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly configuredChannels: () => ConfiguredChannels,
    private readonly log: JobLog,
  ) {}

  /** Queues every reminder and escalation that is due now; returns how many deliveries were queued. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const due = await this.db
      .selectFrom('alarms as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .innerJoin('enterprises as e', 'e.id', 'd.enterprise_id')
      .select('a.id')
      .where('a.active', '=', true)
      .where('a.acknowledged_at', 'is', null)
      .where('a.notified_opened_at', 'is not', null)
      .where('a.folded', '=', false)
      .where((eb) =>
        eb.or([
          eb.and([eb('e.reminder_minutes', '>', 0), sql<boolean>`a.notified_opened_at + make_interval(mins => (a.reminder_seq + 1) * e.reminder_minutes) <= ${now.toISOString()}::timestamptz`]),
          eb.and([eb('e.escalation_minutes', '>', 0), eb('a.escalated_at', 'is', null), sql<boolean>`a.notified_opened_at + make_interval(mins => e.escalation_minutes) <= ${now.toISOString()}::timestamptz`]),
        ]),
      )
      .orderBy('a.notified_opened_at')
      .limit(500)
      .execute();
    let queued = 0;
    for (const { id } of due) {
      try {
        queued += await this.remind(id, now);
      } catch (err) {
        this.log.error({ err, alarmId: id }, 'alarm reminder not queued');
      }
    }
    return queued;
  }

  /** The reminder and the escalation of one alarm that are due at `now` (re-read: it may have changed since). */
  private async remind(alarmId: string, now: Date): Promise<number> {
    const alarm = await this.db
      .selectFrom('alarms as a')
      .innerJoin('devices as d', 'd.id', 'a.device_id')
      .innerJoin('enterprises as e', 'e.id', 'd.enterprise_id')
      .select(['a.id', 'a.device_id', 'd.enterprise_id', 'a.active', 'a.acknowledged_at', 'a.notified_opened_at', 'a.reminder_seq', 'a.escalated_at', 'e.reminder_minutes', 'e.escalation_minutes'])
      .where('a.id', '=', alarmId)
      .executeTakeFirst();
    if (!alarm || !alarm.enterprise_id || !alarm.active || alarm.acknowledged_at || !alarm.notified_opened_at) return 0;
    const device = { id: alarm.device_id, enterpriseId: alarm.enterprise_id };
    const elapsed = now.getTime() - alarm.notified_opened_at.getTime();
    const recipients = await recipientsOf(this.db, device, this.configuredChannels());
    let queued = 0;

    if (alarm.reminder_minutes > 0) {
      const seq = Math.floor(elapsed / (alarm.reminder_minutes * MINUTE));
      if (seq >= 1 && seq > alarm.reminder_seq) {
        // Administrators told by the escalation hear the reminders after it too.
        const extra = alarm.escalated_at ? await escalationRecipients(this.db, device.enterpriseId, recipients) : [];
        queued += await queueDeliveries(
          this.db,
          this.jobs,
          { enterpriseId: device.enterpriseId, alarmId, event: 'reminder', seq, recipients: [...recipients, ...extra], at: now },
          (trx) => trx.updateTable('alarms').set({ reminder_seq: sql<number>`greatest(reminder_seq, ${seq})` }).where('id', '=', alarmId).execute(),
        );
      }
    }
    if (alarm.escalation_minutes > 0 && !alarm.escalated_at && elapsed >= alarm.escalation_minutes * MINUTE) {
      const escalationTo = await escalationRecipients(this.db, device.enterpriseId, recipients);
      queued += await queueDeliveries(
        this.db,
        this.jobs,
        { enterpriseId: device.enterpriseId, alarmId, event: 'escalated', seq: 1, recipients: escalationTo, at: now },
        (trx) => trx.updateTable('alarms').set({ escalated_at: now }).where('id', '=', alarmId).where('escalated_at', 'is', null).execute(),
      );
    }
    return queued;
  }

  /** GET /api/enterprise/alarm-escalation. */
  async settings(auth: AuthContext, enterpriseId: string | undefined): Promise<AlarmEscalationSettings> {
    const id = targetEnterprise(auth, enterpriseId);
    const row = await this.db.selectFrom('enterprises').select(['reminder_minutes', 'escalation_minutes']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(ESCALATION_MESSAGES.enterpriseNotFound);
    return row;
  }

  /** PUT /api/enterprise/alarm-escalation: applies to open alarms from the next sweep. */
  async save(auth: AuthContext, enterpriseId: string | undefined, body: AlarmEscalationSettings): Promise<AlarmEscalationSettings> {
    const id = targetEnterprise(auth, enterpriseId);
    const row = await this.db
      .updateTable('enterprises')
      .set({ reminder_minutes: body.reminder_minutes, escalation_minutes: body.escalation_minutes, updated_at: this.clock.now() })
      .where('id', '=', id)
      .returning(['reminder_minutes', 'escalation_minutes'])
      .executeTakeFirst();
    if (!row) throw notFound(ESCALATION_MESSAGES.enterpriseNotFound);
    return row;
  }
}

/** The caller's own enterprise; the platform administrator names one. Another enterprise's id is a 404. */
function targetEnterprise(auth: AuthContext, enterpriseId: string | undefined): string {
  if (auth.profileId === Profile.SuperAdmin) {
    if (!enterpriseId) throw new AppError('BAD_REQUEST', ESCALATION_MESSAGES.noEnterprise);
    return enterpriseId;
  }
  if (!auth.enterpriseId || (enterpriseId && enterpriseId !== auth.enterpriseId)) throw notFound(ESCALATION_MESSAGES.enterpriseNotFound);
  return auth.enterpriseId;
}

/**
 * Who an escalation reaches: the enterprise's active administrators who do not hear of the alarm already (no usable
 * channel turned on), by their confirmed e-mail. Escalation is the enterprise's own rule, set by its administrators,
 * so it reaches them even where they chose no channel.
 */
async function escalationRecipients(db: Db, enterpriseId: string, already: readonly Recipient[]): Promise<Recipient[]> {
  const told = new Set(already.map((r) => r.userId));
  const admins = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('enterprise_id', '=', enterpriseId)
    .where('profile_id', '=', Profile.EnterpriseAdmin)
    .where('disabled', '=', false)
    .where('verified', '=', true)
    .orderBy('id')
    .execute();
  return admins.filter((a) => !told.has(a.id)).map((a) => ({ userId: a.id, channel: 'email' as const, recipient: a.email }));
}
