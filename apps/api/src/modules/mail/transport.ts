import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { JobLog } from '../../jobs/job-queue';

/** One message, already written: what the mail job carries and a transport delivers. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

/** Where messages go: an SMTP relay, or files in the outbox when there is none. */
export interface MailTransport {
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The links of a message's text, so the outbox log shows what a reader of the message would click. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}

/** Delivers through the relay of SMTP_URL; a refusal or a dead relay throws, and the job retries. */
export class SmtpTransport implements MailTransport {
  private readonly transporter: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transporter = nodemailer.createTransport(smtpUrl, {
      // A relay that hangs must fail the attempt (and let the job retry), not hold a worker forever.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    } as never);
  }

  async deliver(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transporter.close();
  }
}

/**
 * Without a relay (the `npm start` default), each message becomes an .eml file under the outbox and its subject
 * and links are logged: a new user can follow a confirmation link or read a recovery code with no mail server.
 */
export class OutboxTransport implements MailTransport {
  private readonly builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: JobLog,
  ) {}

  async deliver(mail: OutgoingMail): Promise<void> {
    const info = await this.builder.sendMail({ from: this.from, ...mail });
    await mkdir(this.dir, { recursive: true });
    // Sortable by time, unique without coordination between processes.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = path.join(this.dir, name);
    await writeFile(file, info.message as Buffer);
    this.log.info({ to: mail.to, subject: mail.subject, links: linksOf(mail.text), file }, 'e-mail written to the outbox');
  }

  close(): void {
    this.builder.close();
  }
}

export function createMailTransport(config: { smtpUrl: string | undefined; mailFrom: string; mailOutboxDir: string }, log: JobLog): MailTransport {
  return config.smtpUrl ? new SmtpTransport(config.smtpUrl, config.mailFrom) : new OutboxTransport(config.mailOutboxDir, config.mailFrom, log);
}
