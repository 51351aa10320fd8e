import type { OutgoingClient } from '../../../lib/outgoing/outgoing-client';
import type { AppConfig } from '../../../config/config';
import { PermanentDeliveryError, parseJsonOrNull, snippet } from './delivery-error';

type SmsConfig = Pick<AppConfig, 'smsApiUrl' | 'smsAccountSid' | 'smsAuthToken' | 'smsFrom' | 'smsTimeoutMs'>;

/** A Messaging Service (Twilio picks the sender from its pool) rather than one number or sender id. */
const MESSAGING_SERVICE = /^MG[0-9a-fA-F]{32}$/;

/**
 * SMS through a Twilio-compatible Messages API (ADR 23): `POST {SMS_API_URL}/2010-04-01/Accounts/{sid}/Messages.json`
 * with HTTP Basic (account SID and auth token) and a form body (To, From or MessagingServiceSid, Body); the answer is
 * 201 with the message's `sid` and `status` (queued: accepted, not yet on the phone). Off unless SID, token and
 * sender are all set.
 */
export class TwilioSms {
  constructor(
    private readonly config: SmsConfig,
    private readonly outgoing: OutgoingClient,
  ) {}

  get configured(): boolean {
    return Boolean(this.config.smsAccountSid && this.config.smsAuthToken && this.config.smsFrom);
  }

  /**
   * Sends one SMS; resolves with the provider's message id. Throws PermanentDeliveryError when the provider refuses
   * it for good (a 4xx other than 429: invalid number, credentials refused), any other error when worth retrying.
   */
  async send(to: string, body: string): Promise<{ sid: string; status: string }> {
    const { smsAccountSid: sid, smsAuthToken: token, smsFrom: from } = this.config;
    if (!sid || !token || !from) throw new PermanentDeliveryError('SMS não configurado neste servidor.');
    const form = new URLSearchParams({ To: to, ...(MESSAGING_SERVICE.test(from) ? { MessagingServiceSid: from } : { From: from }), Body: body });
    // The provider's URL is the operator's setting (trusted as an address); the client still bounds time and size.
    const res = await this.outgoing.request(`${this.config.smsApiUrl}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
      trust: 'operator',
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      timeoutMs: this.config.smsTimeoutMs,
    });
    const text = res.text();
    if (res.ok) {
      const answer = parseJsonOrNull(text) as { sid?: unknown; status?: unknown } | null;
      if (!answer || typeof answer.sid !== 'string') throw new Error(`SMS provider answered ${res.status} without a message sid: ${snippet(text)}`);
      return { sid: answer.sid, status: typeof answer.status === 'string' ? answer.status : 'queued' };
    }
    // Twilio's errors: { code, message, more_info, status }.
    const error = parseJsonOrNull(text) as { code?: unknown; message?: unknown } | null;
    const detail = error && typeof error.message === 'string' ? `${error.message}${error.code !== undefined ? ` (código ${String(error.code)})` : ''}` : snippet(text);
    const message = `SMS recusado pelo provedor (HTTP ${res.status}): ${detail}`;
    if (res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408) throw new PermanentDeliveryError(message);
    throw new Error(message);
  }
}
