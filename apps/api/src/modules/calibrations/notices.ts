import { CALIBRATION_DUE_DAYS, formatCalendarDate, Profile } from '@sentinela/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { addDays, localDay } from '../../lib/time-zone';
import { composeMail, mailText, ours, quoteName } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import { historyUrl } from '../notifications/alarm-message';
import type { PushService } from '../push/service';
import type { TelegramBot } from '../telegram/bot';
import { currentCertificatesDueBy } from './repository';

export const CALIBRATION_NOTICE_JOB = 'calibration-notice';
const NoticePayload = z.object({ noticeId: z.uuid() });

type NoticeState = 'due' | 'overdue';

/** What a notice says, for every channel. */
export function noticeText(n: { state: NoticeState; deviceName: string; mac: string; certificateNumber: string; laboratory: string; dueAt: string }) {
  const due = formatCalendarDate(n.dueAt);
  const subject = n.state === 'overdue' ? `Calibração vencida: ${quoteName(n.deviceName)}` : `Calibração vence em ${due}: ${quoteName(n.deviceName)}`;
  const lines = [
    n.state === 'overdue'
      ? `O certificado de calibração do dispositivo ${quoteName(n.deviceName)} (${n.mac}) venceu em ${due}.`
      : `O certificado de calibração do dispositivo ${quoteName(n.deviceName)} (${n.mac}) vence em ${due}.`,
    `Certificado ${quoteName(n.certificateNumber)}, laboratório ${quoteName(n.laboratory)}.`,
    'Envie o novo certificado na página do dispositivo, em Calibração.',
  ];
  return { subject, lines };
}

/**
 * Announces once to the enterprise's administrators that a certificate in force is due within CALIBRATION_DUE_DAYS
 * ("due") or has expired ("overdue"), on each channel they turned on (ADR 0077). A notice row per certificate, state,
 * person and channel is written first (its unique key is the "once", whatever the runs or servers), then a job sends
 * it and records the outcome; a relay that is down is retried by the job, never by writing a second notice.
 */
export class CalibrationNotices {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** Read when used: the public URL may be completed once the server listens (ADR 69). */
    private readonly config: Pick<AppConfig, 'publicUrl' | 'reportTimeZone'>,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly telegram: TelegramBot,
    private readonly push: PushService,
    log: JobLog,
  ) {
    jobs.define<z.infer<typeof NoticePayload>>({
      name: CALIBRATION_NOTICE_JOB,
      schema: NoticePayload,
      concurrency: 1,
      retryLimit: 9,
      retryDelaySeconds: 2,
      retryBackoff: true,
      deleteAfterSeconds: 24 * 60 * 60,
      expireInSeconds: 2 * 60,
      handler: ({ noticeId }) => this.deliver(noticeId),
      onFinalFailure: async ({ noticeId }, error) => {
        log.error({ err: error, noticeId }, 'calibration notice given up');
        await this.db.updateTable('calibration_notices').set({ status: 'failed', last_error: errorText(error) }).where('id', '=', noticeId).execute();
      },
    });
  }

  /**
   * The channels: those that carry free text (SMS and WhatsApp templates do not, ADR 0077).
   * Looks for certificates due or overdue today and queues the notices not written yet; answers how many were
   * queued. Runs on a timer (CALIBRATION_CHECK_MINUTES), and by tests under their clock.
   */
  async sweep(): Promise<number> {
    const today = localDay(this.clock.now(), this.config.reportTimeZone);
    const certificates = await currentCertificatesDueBy(this.db, { kind: 'all' }, addDays(today, CALIBRATION_DUE_DAYS));
    let queued = 0;
    for (const c of certificates) {
      if (!c.enterprise_id) continue;
      const state: NoticeState = c.due_at < today ? 'overdue' : 'due';
      // The notices and their jobs in one transaction: notices written without their jobs would never be sent (the
      // next sweep's insert skips them as already there).
      queued += await this.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`
          INSERT INTO calibration_notices (calibration_id, state, user_id, channel, recipient, created_at)
          SELECT ${c.calibration_id}::uuid, ${state}, u.id, nc.channel,
            CASE nc.channel WHEN 'email' THEN u.email WHEN 'telegram' THEN u.telegram_chat_id ELSE 'push' END, ${this.clock.now()}
          FROM users u JOIN notification_channels nc ON nc.user_id = u.id
          WHERE u.enterprise_id = ${c.enterprise_id}::uuid AND u.profile_id = ${Profile.EnterpriseAdmin} AND NOT u.disabled
            AND nc.channel IN ('email', 'telegram', 'push')
            AND (nc.channel <> 'email' OR u.verified)
            AND (nc.channel <> 'telegram' OR (u.telegram_chat_id IS NOT NULL AND ${this.telegram.configured}))
          ON CONFLICT (calibration_id, state, user_id, channel) DO NOTHING
          RETURNING id`.execute(trx);
        await this.jobs.sendMany(CALIBRATION_NOTICE_JOB, rows.map(({ id }) => ({ data: { noticeId: id }, key: `calibration-notice:${id}` })), { within: trx });
        return rows.length;
      });
    }
    return queued;
  }

  private async deliver(noticeId: string): Promise<void> {
    const notice = await this.db
      .selectFrom('calibration_notices as n')
      .innerJoin('calibrations as c', 'c.id', 'n.calibration_id')
      .innerJoin('devices as d', 'd.id', 'c.device_id')
      .select(['n.id', 'n.state', 'n.status', 'n.channel', 'n.recipient', 'n.user_id', 'c.certificate_number', 'c.laboratory', 'd.id as device_id', 'd.name', 'd.mac'])
      .select(sql<string>`to_char(c.due_at, 'YYYY-MM-DD')`.as('due_at'))
      .where('n.id', '=', noticeId)
      .executeTakeFirst();
    if (!notice || notice.status !== 'pending') return;
    const text = noticeText({ state: notice.state, deviceName: notice.name, mac: notice.mac, certificateNumber: notice.certificate_number, laboratory: notice.laboratory, dueAt: notice.due_at });
    const url = historyUrl(this.config.publicUrl, { mac: notice.mac, deviceId: notice.device_id });
    await this.db.updateTable('calibration_notices').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', noticeId).execute();
    try {
      if (notice.channel === 'email') {
        await this.mail.deliverNow(
          composeMail({
            to: notice.recipient,
            subject: mailText`${ours(text.subject)}`,
            paragraphs: [mailText`${ours(text.lines.join('\n'))}`],
            action: { label: mailText`Abrir o dispositivo`, url },
            footnotes: [mailText`Você recebe este aviso por ser administrador da empresa do dispositivo.`],
          }),
        );
      } else if (notice.channel === 'telegram') {
        await this.telegram.send(notice.recipient, [...text.lines, '', `Dispositivo: ${url}`].join('\n'));
      } else if (notice.channel === 'push') {
        const outcome = await this.push.sendToUser(notice.user_id, { title: text.subject, body: text.lines.join('\n'), url, tag: `calibration:${notice.id}` });
        if (outcome.reached === 0 && outcome.errors.length > 0) throw new Error(outcome.errors.join('; '));
      }
      await this.db.updateTable('calibration_notices').set({ status: 'sent', sent_at: this.clock.now(), last_error: null }).where('id', '=', noticeId).execute();
    } catch (error) {
      await this.db.updateTable('calibration_notices').set({ last_error: errorText(error) }).where('id', '=', noticeId).execute();
      throw error;
    }
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

