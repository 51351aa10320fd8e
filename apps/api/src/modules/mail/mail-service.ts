import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { MailTransport, OutgoingMail } from './transport';

export const MAIL_JOB = 'send-email';

const MailJobPayload = z.object({
  to: z.string().min(1),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
  replyTo: z.string().optional(),
});

/**
 * Sends e-mail through a background job: a request never waits on SMTP, and a relay that is down or refuses for a
 * while is retried with a growing delay (about 17 minutes over all attempts) before the message is given up.
 */
export class MailService {
  constructor(
    private readonly jobs: JobQueue,
    private readonly transport: MailTransport,
    private readonly log: JobLog,
  ) {
    jobs.define<OutgoingMail>({
      name: MAIL_JOB,
      schema: MailJobPayload,
      concurrency: 2,
      retryLimit: 9,
      retryDelaySeconds: 2,
      retryBackoff: true,
      // The payload holds links and codes that open accounts: once sent, the row goes soon, not after a week.
      deleteAfterSeconds: 60 * 60,
      expireInSeconds: 5 * 60,
      handler: (mail) => this.transport.deliver(mail),
      onFinalFailure: async (mail, error) => {
        this.log.error({ err: error, to: mail.to, subject: mail.subject }, 'e-mail given up after its last attempt');
      },
    });
  }

  /** Queues the message; returns once it is stored (it survives a restart), not once it is delivered. */
  async send(mail: OutgoingMail): Promise<void> {
    await this.jobs.send(MAIL_JOB, mail, `mail:${randomUUID()}`);
  }

  /**
   * Delivers at once, for a job that records the outcome itself (alarm deliveries keep their own log and retries);
   * throws when the relay refuses.
   */
  async deliverNow(mail: OutgoingMail): Promise<void> {
    await this.transport.deliver(mail);
  }

  close(): void {
    this.transport.close();
  }
}
