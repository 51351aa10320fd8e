import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An SMS the app sent, as the provider received it (the form's fields). */
export interface SmsRequest {
  sid: string;
  To: string;
  From: string | null;
  MessagingServiceSid: string | null;
  Body: string;
}

interface Waiter {
  wake: () => void;
}

/**
 * A local SMS provider on 127.0.0.1 for tests, speaking Twilio's Messages API: `POST /2010-04-01/Accounts/{AccountSid}/
 * Messages.json`, HTTP Basic (account SID and auth token), a form body with To, From or MessagingServiceSid, Body;
 * answers 201 with the message resource (`sid`, `status: queued`, …), and errors as Twilio does
 * (`{ code, message, more_info, status }`): 401/20003 for wrong credentials, 400/21211 for an invalid To,
 * 400/21602 without Body, 400/21603 without a sender. Tests read the messages back, make the next requests fail
 * with a status, or change the token the provider accepts (credentials revoked).
 */
export async function startFakeSmsProvider(options: { accountSid?: string; authToken?: string; from?: string } = {}) {
  const accountSid = options.accountSid ?? `AC${'0123456789abcdef'.repeat(2)}`;
  let authToken = options.authToken ?? 'test-sms-auth-token';
  const from = options.from ?? '+5511900000000';
  const messages: SmsRequest[] = [];
  const waiters = new Set<Waiter>();
  /** HTTP statuses to answer the next requests with (a provider down for a while). */
  const failures: number[] = [];
  /** Requests to leave unanswered until the client gives up (a provider that hangs). */
  let hangs = 0;
  let nextId = 1;
  /** Requests refused (bad credentials or fields), for tests that check nothing got through. */
  let refused = 0;

  const wakeAll = () => {
    for (const waiter of [...waiters]) waiter.wake();
  };

  function reply(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
  function twilioError(res: ServerResponse, status: number, code: number, message: string) {
    refused++;
    wakeAll();
    reply(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const server = createServer((req, res) => {
    // A hung request ends when the client aborts it; on close, it must not hold the server open.
    req.socket.setTimeout(0);
    void (async () => {
      // For tests in another process (the e2e specs): the messages received so far.
      if (req.url === '/_control/messages' && req.method === 'GET') return reply(res, 200, messages);
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
      if (!match || req.method !== 'POST') return twilioError(res, 404, 20404, 'The requested resource was not found');
      const body = await readBody(req);
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (req.headers.authorization !== expected || decodeURIComponent(match[1]!) !== accountSid) return twilioError(res, 401, 20003, 'Authenticate');
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return twilioError(res, 400, 20001, 'Content-Type must be application/x-www-form-urlencoded');
      const failing = failures.shift();
      if (failing !== undefined) return twilioError(res, failing, 20500, 'Internal Server Error');
      if (hangs > 0) {
        hangs--;
        refused++;
        wakeAll();
        // Never answered: the connection stays open until the client aborts it.
        return;
      }
      const form = new URLSearchParams(body);
      const to = form.get('To');
      const text = form.get('Body');
      const sender = form.get('From');
      const service = form.get('MessagingServiceSid');
      if (!to || !/^\+[1-9]\d{7,14}$/.test(to)) return twilioError(res, 400, 21211, `The 'To' number ${to ?? ''} is not a valid phone number.`);
      if (!text) return twilioError(res, 400, 21602, 'Message body is required.');
      if (!sender && !service) return twilioError(res, 400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.");
      if (sender && sender !== from) return twilioError(res, 400, 21660, `Mismatch between the 'From' number ${sender} and the account ${accountSid}`);
      if (text.length > 1600) return twilioError(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
      const sid = `SM${String(nextId++).padStart(32, '0')}`;
      messages.push({ sid, To: to, From: sender, MessagingServiceSid: service, Body: text });
      wakeAll();
      const now = new Date().toUTCString();
      return reply(res, 201, {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body: text,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: sender ?? null,
        messaging_service_sid: service ?? null,
        num_media: '0',
        num_segments: String(Math.ceil(text.length / 67)),
        price: null,
        price_unit: 'USD',
        sid,
        status: 'queued',
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      });
    })().catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, { code: 20500, message: String(err), status: 500 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** The first message (now or later) that matches, or an error after the timeout. */
  async function waitForMessage(match: (m: SmsRequest) => boolean, timeoutMs = 20_000): Promise<SmsRequest> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching SMS within ${timeoutMs} ms (got: ${messages.map((m) => `${m.To}: ${m.Body}`).join(' | ')})`);
      await new Promise<void>((resolve) => {
        const waiter: Waiter = {
          wake: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(waiter.wake, left);
        waiters.add(waiter);
      });
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    get authToken() {
      return authToken;
    },
    from,
    messages,
    get refused() {
      return refused;
    },
    /** Answer the next `times` valid requests with this HTTP status. */
    failNext(status: number, times: number) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    /** Leave the next `times` valid requests unanswered. */
    hangNext(times: number) {
      hangs += times;
    },
    /** Accept another token from now on (the app's one is then refused: revoked credentials). */
    setAuthToken(token: string) {
      authToken = token;
    },
    waitForMessage,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakeSmsProvider = Awaited<ReturnType<typeof startFakeSmsProvider>>;
