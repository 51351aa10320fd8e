import type { ContactBody } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { composeMail, mailText, quoted, quotedBlock } from '../mail/compose';
import type { MailService } from '../mail/mail-service';
import type { HumanCheck } from './human-check';

/** Contact messages from the landing page (A14): checked for a human, stored, and e-mailed to CONTACT_EMAIL. */
export class ContactService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly mail: MailService,
    readonly humanCheck: HumanCheck,
  ) {}

  async receive(body: ContactBody): Promise<void> {
    await this.humanCheck.spend(body.altcha);
    const now = this.clock.now();
    const stored = await this.db
      .insertInto('contact_messages')
      .values({ name: body.name, email: body.email, phone: body.phone, message: body.message, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.mail.send(
      composeMail({
        to: this.config.contactEmail,
        subject: mailText`Contato pelo site: ${quoted(body.name)}`,
        greeting: mailText`Nova mensagem recebida pelo formulário de contato do Sentinela.`,
        paragraphs: [mailText`Nome: ${quoted(body.name)}\nE-mail: ${quoted(body.email)}\nTelefone: ${quoted(body.phone)}`, quotedBlock(body.message)],
        footnotes: [mailText`Responda a este e-mail para falar com quem escreveu.`],
        replyTo: body.email,
      }),
    );
    // Queued (the job delivers and retries): from here on the message is on its way.
    await this.db.updateTable('contact_messages').set({ forwarded_at: now }).where('id', '=', stored.id).execute();
  }
}
