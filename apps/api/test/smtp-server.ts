import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 for tests: it receives what the app's mail job sends, keeps each message parsed,
 * and can refuse the first N deliveries with a temporary error (a relay that is down for a while).
 */
export async function startSmtpServer(options: { refuseFirst?: number } = {}) {
  const received: ParsedMail[] = [];
  let refusals = options.refuseFirst ?? 0;
  let attempts = 0;
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      attempts += 1;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          const error = Object.assign(new Error('Serviço indisponível, tente mais tarde'), { responseCode: 451 });
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push(mail);
            for (const wake of waiters) wake();
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const handedOut = new Set<ParsedMail>();

  /** The first message received (now or later) that matches, or an error after the timeout. */
  async function waitFor(match: (mail: ParsedMail) => boolean, timeoutMs = 20_000): Promise<ParsedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching e-mail within ${timeoutMs} ms (received: ${received.map((m) => m.subject).join(', ')})`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get attempts() {
      return attempts;
    },
    waitFor,
    /** The message sent to this address with this subject, waited for. */
    waitForMail: (to: string, subject: string | RegExp, timeoutMs?: number) =>
      waitFor((m) => addressesOf(m).includes(to.toLowerCase()) && (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject ?? '')), timeoutMs),
    /** The next message to this address whose subject matches, never one this call returned before. */
    async nextMail(to: string, subject: RegExp): Promise<ParsedMail> {
      const mail = await waitFor((m) => !handedOut.has(m) && addressesOf(m).includes(to.toLowerCase()) && subject.test(m.subject ?? ''));
      handedOut.add(mail);
      return mail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

export function addressesOf(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}
