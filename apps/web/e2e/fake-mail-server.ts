import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What the specs read of a received message. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A real SMTP server on 127.0.0.1 that the product sends its e-mail to (SMTP_URL), and a small HTTP mailbox the
 * specs (in other processes) read it from: GET /messages answers every message received so far, as JSON.
 */
export async function startMailServer() {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
          received.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const http = createServer((req, res) => {
    if (req.url !== '/messages') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpPort = (http.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    mailboxUrl: `http://127.0.0.1:${httpPort}`,
    close: () => Promise.all([new Promise<void>((r) => smtp.close(() => r())), new Promise<void>((r) => http.close(() => r()))]),
  };
}

/** Waits for the message to this address whose subject matches, from the mailbox of `startMailServer`. */
export async function waitForMail(mailboxUrl: string, to: string, subject: RegExp, timeoutMs = 30_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = (await (await fetch(`${mailboxUrl}/messages`)).json()) as ReceivedMail[];
    const found = messages.filter((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject)).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
