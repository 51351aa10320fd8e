import { z } from 'zod';
import type { CardProviderConfig } from '../../config/config';

/**
 * The server's half of Pagar.me API v5 (ADR 31), with the secret key as the HTTP Basic user (empty password):
 * - POST {api}/customers                               → { id: "cus_…" }
 * - POST {api}/customers/{customer_id}/cards  {token}  → the stored card { id: "card_…", last_four_digits, brand, … }
 * - DELETE {api}/customers/{customer_id}/cards/{card_id}
 * The browser's half (POST {api}/tokens?appId={public_key}) never passes through here.
 */

/** What went wrong at the provider, in the terms the service answers with. */
export class CardProviderError extends Error {
  constructor(
    readonly kind: 'token' | 'declined' | 'unavailable' | 'not_found',
    readonly status: number,
    readonly providerMessage: string,
  ) {
    super(`Pagar.me ${status}: ${providerMessage}`);
    this.name = 'CardProviderError';
  }
}

const digitsOrNumber = z.union([z.number().int(), z.string().regex(/^\d{1,4}$/).transform(Number)]);

/** The stored card as Pagar.me answers it (extra fields are ignored). */
const PagarmeCard = z.object({
  id: z.string().min(1).max(100),
  last_four_digits: z.string().regex(/^\d{4}$/),
  brand: z.string().min(1).max(40),
  holder_name: z.string().max(200).nullish(),
  exp_month: digitsOrNumber.pipe(z.number().int().min(1).max(12)),
  exp_year: digitsOrNumber.transform((y) => (y < 100 ? 2000 + y : y)).pipe(z.number().int().min(2000).max(2200)),
  status: z.string().nullish(),
});
export type PagarmeCard = z.infer<typeof PagarmeCard>;

const PagarmeCustomer = z.object({ id: z.string().min(1).max(100) });

export interface NewCustomer {
  name: string;
  email: string | null;
  /** Our enterprise id: Pagar.me's `code`, the merchant's own reference. */
  code: string;
}

export class PagarmeClient {
  constructor(private readonly config: CardProviderConfig) {}

  /** Where the browser posts the card: the public key goes in the query (appId), as Pagar.me's tokenizer expects. */
  tokenUrl(): string {
    return `${this.config.apiUrl}/tokens?appId=${encodeURIComponent(this.config.publicKey)}`;
  }

  async createCustomer(customer: NewCustomer): Promise<string> {
    const body = {
      name: customer.name,
      ...(customer.email ? { email: customer.email } : {}),
      code: customer.code,
      type: 'company',
      metadata: { enterprise_id: customer.code },
    };
    const answer = await this.call('POST', '/customers', body, `customer-${customer.code}`);
    const parsed = PagarmeCustomer.safeParse(answer);
    if (!parsed.success) throw new CardProviderError('unavailable', 200, 'unexpected customer answer');
    return parsed.data.id;
  }

  /** Stores the tokenised card under the customer; Pagar.me verifies it with the issuer and answers the card. */
  async createCard(customerId: string, token: string): Promise<PagarmeCard> {
    const answer = await this.call('POST', `/customers/${encodeURIComponent(customerId)}/cards`, { token }, `card-${token}`);
    const parsed = PagarmeCard.safeParse(answer);
    if (!parsed.success) throw new CardProviderError('unavailable', 200, 'unexpected card answer');
    return parsed.data;
  }

  async deleteCard(customerId: string, cardId: string): Promise<void> {
    await this.call('DELETE', `/customers/${encodeURIComponent(customerId)}/cards/${encodeURIComponent(cardId)}`);
  }

  private async call(method: 'POST' | 'DELETE', path: string, body?: unknown, idempotencyKey?: string): Promise<unknown> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Basic ${Buffer.from(`${this.config.secretKey}:`).toString('base64')}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // A retried call (say, after a timeout that the provider did answer) must not create a second customer or card.
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${this.config.apiUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      throw new CardProviderError('unavailable', 0, error instanceof Error ? error.message : 'no answer');
    }
    const text = await response.text();
    let payload: unknown;
    try {
      payload = text ? JSON.parse(text) : undefined;
    } catch {
      payload = undefined;
    }
    if (response.ok) return payload;
    const message = providerMessage(payload) ?? response.statusText;
    // 401/403: our secret key is wrong, a setting to fix, not the card's fault; 5xx and 429: the provider's trouble.
    if (response.status === 401 || response.status === 403 || response.status === 429 || response.status >= 500) {
      throw new CardProviderError('unavailable', response.status, message);
    }
    if (response.status === 404) throw new CardProviderError(method === 'DELETE' ? 'not_found' : 'token', 404, message);
    if (mentionsToken(payload)) throw new CardProviderError('token', response.status, message);
    throw new CardProviderError('declined', response.status, message);
  }
}

/** Pagar.me's error answers: `{ message, errors?: { "field": ["…"] } }`. */
function providerMessage(payload: unknown): string | undefined {
  if (!payload || typeof payload !== 'object') return undefined;
  const { message, errors } = payload as { message?: unknown; errors?: unknown };
  const details = errors && typeof errors === 'object' ? Object.entries(errors).map(([field, texts]) => `${field}: ${String(texts)}`) : [];
  return [typeof message === 'string' ? message : '', ...details].filter(Boolean).join(' ').slice(0, 500) || undefined;
}

function mentionsToken(payload: unknown): boolean {
  if (!payload || typeof payload !== 'object') return false;
  const errors = (payload as { errors?: unknown }).errors;
  return !!errors && typeof errors === 'object' && Object.keys(errors).some((field) => /token/i.test(field));
}
