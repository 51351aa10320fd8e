import type { OutgoingClient } from '../../../lib/outgoing/outgoing-client';
import type { AppConfig } from '../../../config/config';
import { PermanentDeliveryError, parseJsonOrNull, snippet } from './delivery-error';

type WhatsAppConfig = Pick<
  AppConfig,
  'whatsappApiUrl' | 'whatsappApiVersion' | 'whatsappPhoneNumberId' | 'whatsappAccessToken' | 'whatsappTemplateOpened' | 'whatsappTemplateEnded' | 'whatsappTemplateLanguage' | 'whatsappTimeoutMs'
>;

/**
 * Graph API error codes worth trying again: rate limits (4, 80007, 130429, 131056), the spam-rate limit (131048),
 * a temporary error (2, 131000 "something went wrong", 133004 server unavailable). Every other 4xx is final.
 */
const RETRIED_CODES = new Set([1, 2, 4, 17, 341, 80007, 130429, 131000, 131048, 131056, 133004]);

/**
 * WhatsApp through the WhatsApp Cloud API (ADR 23): a business may only start a conversation with a template approved
 * by Meta, so each alarm is the template of an opened or an ended alarm with five body parameters.
 * `POST {WHATSAPP_API_URL}/{version}/{phone number id}/messages` with a Bearer token; the answer carries the
 * message's id (`messages[0].id`). Off unless the phone number id and the token are set.
 */
export class WhatsAppCloud {
  constructor(
    private readonly config: WhatsAppConfig,
    private readonly outgoing: OutgoingClient,
  ) {}

  get configured(): boolean {
    return Boolean(this.config.whatsappPhoneNumberId && this.config.whatsappAccessToken);
  }

  /** Sends the template of the event with its parameters; resolves with the message id (wamid…). */
  async sendTemplate(to: string, event: 'opened' | 'ended', parameters: readonly string[]): Promise<{ id: string }> {
    const { whatsappPhoneNumberId: numberId, whatsappAccessToken: token } = this.config;
    if (!numberId || !token) throw new PermanentDeliveryError('WhatsApp não configurado neste servidor.');
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: {
        name: event === 'opened' ? this.config.whatsappTemplateOpened : this.config.whatsappTemplateEnded,
        language: { code: this.config.whatsappTemplateLanguage },
        components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }],
      },
    };
    const res = await this.outgoing.request(`${this.config.whatsappApiUrl}/${this.config.whatsappApiVersion}/${encodeURIComponent(numberId)}/messages`, {
      trust: 'operator',
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: this.config.whatsappTimeoutMs,
    });
    const text = res.text();
    const answer = parseJsonOrNull(text) as { messages?: Array<{ id?: unknown }>; error?: { message?: unknown; code?: unknown; error_data?: { details?: unknown } } } | null;
    if (res.ok) {
      const id = answer?.messages?.[0]?.id;
      if (typeof id !== 'string') throw new Error(`WhatsApp answered ${res.status} without a message id: ${snippet(text)}`);
      return { id };
    }
    const error = answer?.error;
    const code = typeof error?.code === 'number' ? error.code : null;
    const details = typeof error?.error_data?.details === 'string' ? ` ${error.error_data.details}` : '';
    const detail = error && typeof error.message === 'string' ? `${error.message}${details}${code !== null ? ` (código ${code})` : ''}` : snippet(text);
    const message = `WhatsApp recusou a mensagem (HTTP ${res.status}): ${snippet(detail)}`;
    const final = res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408 && !(code !== null && RETRIED_CODES.has(code));
    if (final) throw new PermanentDeliveryError(message);
    throw new Error(message);
  }
}
