import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { passesLuhn } from '@sentinela/contract';

/** Pagar.me's simulator numbers (docs.pagar.me, "Simulador de Cartão de Crédito"): any operation succeeds / fails. */
export const PAGARME_TEST_CARD = '4000000000000010';
export const PAGARME_DECLINED_CARD = '4000000000000028';

/** One request the fake received, as received (tests look for card numbers where none may be). */
export interface PagarmeCall {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

interface TokenRecord {
  number: string;
  holder_name: string;
  exp_month: number;
  exp_year: number;
  used: boolean;
}

interface CardRecord {
  id: string;
  customer_id: string;
  first_six_digits: string;
  last_four_digits: string;
  brand: string;
  holder_name: string;
  exp_month: number;
  exp_year: number;
  status: 'active' | 'deleted';
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The brand Pagar.me names for a number, by its first digits (enough for the test numbers and common cards). */
function brandOf(number: string): string {
  if (/^3[47]/.test(number)) return 'Amex';
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number)) return 'Elo';
  if (/^(606282|3841)/.test(number)) return 'Hipercard';
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  return 'Visa';
}

/**
 * A local Pagar.me API v5 on 127.0.0.1 for tests (ADR 31), under `/core/v5` as the real one:
 * - `POST /tokens?appId={public key}`: the browser's call (CORS allowed from any origin, as Pagar.me's tokenizer
 *   is), no secret; `{ type: "card", card: { number, holder_name, exp_month, exp_year, cvv } }` → 200 `{ id:
 *   "token_…", type, created_at, expires_at, card: { first_six_digits, last_four_digits, holder_name, exp_month,
 *   exp_year, brand } }`. A wrong appId is 401; a number failing the Luhn check, a past expiry or a bad CVV is 422
 *   `{ message: "The request is invalid.", errors: { "request.card.number": ["…"] } }`.
 * - `POST /customers` (HTTP Basic, secret key as user): `{ name, … }` → 200 `{ id: "cus_…", … }`.
 * - `POST /customers/{id}/cards` (Basic): `{ token }` → 200 the card `{ id: "card_…", last_four_digits, brand,
 *   holder_name, exp_month, exp_year, status: "active", … }`; an unknown or used token is 404; the simulator's
 *   failing number (PAGARME_DECLINED_CARD) is 412, "card verification failed" (the issuer refused it).
 * - `DELETE /customers/{id}/cards/{card_id}` (Basic) → 200 the card with `status: "deleted"`; unknown is 404.
 * Wrong or missing Basic credentials are 401 `{ message: "Authorization has been denied for this request." }`.
 * Tests read every call back, and can make the next calls fail with a status (a provider down for a while).
 */
export async function startFakePagarme(options: { publicKey?: string; secretKey?: string } = {}) {
  const publicKey = options.publicKey ?? 'pk_test_sentinela0000000000';
  const secretKey = options.secretKey ?? 'sk_test_sentinela0000000000';
  const calls: PagarmeCall[] = [];
  const tokens = new Map<string, TokenRecord>();
  const customers = new Map<string, { id: string; name: string; code: string | null }>();
  const cards = new Map<string, CardRecord>();
  const failures: number[] = [];

  function reply(res: ServerResponse, status: number, body: unknown, cors = false) {
    res.writeHead(status, { 'content-type': 'application/json', ...(cors ? corsHeaders : {}) });
    res.end(JSON.stringify(body));
  }
  const corsHeaders = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'content-type, accept',
    'access-control-max-age': '600',
  };
  const invalid = (field: string, message: string) => ({ message: 'The request is invalid.', errors: { [field]: [message] } });

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function authorized(req: IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  function tokenCall(res: ServerResponse, url: URL, body: unknown) {
    if (url.searchParams.get('appId') !== publicKey) return reply(res, 401, { message: 'Authorization has been denied for this request.' }, true);
    const card = (body as { type?: unknown; card?: Record<string, unknown> } | null)?.card;
    if ((body as { type?: unknown } | null)?.type !== 'card' || !card || typeof card !== 'object') return reply(res, 422, invalid('request.type', 'The type field is invalid.'), true);
    const number = typeof card.number === 'string' ? card.number.replace(/\s/g, '') : '';
    const holder = typeof card.holder_name === 'string' ? card.holder_name.trim() : '';
    const month = Number(card.exp_month);
    let year = Number(card.exp_year);
    if (year < 100) year += 2000;
    const cvv = typeof card.cvv === 'string' ? card.cvv : '';
    if (!passesLuhn(number)) return reply(res, 422, invalid('request.card.number', 'The number field is not a valid card number'), true);
    if (!holder) return reply(res, 422, invalid('request.card.holder_name', 'The holder_name field is required.'), true);
    if (!Number.isInteger(month) || month < 1 || month > 12) return reply(res, 422, invalid('request.card.exp_month', 'The field exp_month must be between 1 and 12.'), true);
    const now = new Date();
    if (!Number.isInteger(year) || year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
      return reply(res, 422, invalid('request.card', 'Card expired.'), true);
    }
    if (!/^\d{3,4}$/.test(cvv)) return reply(res, 422, invalid('request.card.cvv', 'The cvv field is not valid.'), true);
    const tokenId = id('token');
    tokens.set(tokenId, { number, holder_name: holder, exp_month: month, exp_year: year, used: false });
    const created = new Date();
    return reply(
      res,
      200,
      {
        id: tokenId,
        type: 'card',
        created_at: created.toISOString(),
        expires_at: new Date(created.getTime() + 60_000).toISOString(),
        card: { first_six_digits: number.slice(0, 6), last_four_digits: number.slice(-4), holder_name: holder, exp_month: month, exp_year: year, brand: brandOf(number) },
      },
      true,
    );
  }

  const cardView = (card: CardRecord) => ({
    id: card.id,
    first_six_digits: card.first_six_digits,
    last_four_digits: card.last_four_digits,
    brand: card.brand,
    holder_name: card.holder_name,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    status: card.status,
    type: 'credit',
    customer: { id: card.customer_id },
  });

  function route(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) {
    const path = url.pathname.replace(/^\/core\/v5/, '');
    if (path === '/tokens' && req.method === 'OPTIONS') {
      res.writeHead(204, corsHeaders);
      return res.end();
    }
    if (path === '/tokens' && req.method === 'POST') return tokenCall(res, url, body);
    if (!authorized(req)) return reply(res, 401, { message: 'Authorization has been denied for this request.' });
    const failure = failures.shift();
    if (failure) return reply(res, failure, { message: 'Internal server error.' });

    if (path === '/customers' && req.method === 'POST') {
      const name = (body as { name?: unknown } | null)?.name;
      if (typeof name !== 'string' || !name.trim()) return reply(res, 422, invalid('request.name', 'The name field is required.'));
      const customer = { id: id('cus'), name, code: typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : null };
      customers.set(customer.id, customer);
      return reply(res, 200, { ...customer, type: 'company', delinquent: false });
    }
    const cardsPath = /^\/customers\/([^/]+)\/cards(?:\/([^/]+))?$/.exec(path);
    if (cardsPath) {
      const customerId = decodeURIComponent(cardsPath[1]!);
      if (!customers.has(customerId)) return reply(res, 404, { message: 'Customer not found.' });
      if (req.method === 'POST' && !cardsPath[2]) {
        const tokenId = (body as { token?: unknown } | null)?.token;
        const token = typeof tokenId === 'string' ? tokens.get(tokenId) : undefined;
        if (!token || token.used) return reply(res, 404, { message: 'Token not found.' });
        token.used = true;
        if (token.number === PAGARME_DECLINED_CARD) return reply(res, 412, { message: 'Card verification failed.' });
        const card: CardRecord = {
          id: id('card'),
          customer_id: customerId,
          first_six_digits: token.number.slice(0, 6),
          last_four_digits: token.number.slice(-4),
          brand: brandOf(token.number),
          holder_name: token.holder_name,
          exp_month: token.exp_month,
          exp_year: token.exp_year,
          status: 'active',
        };
        cards.set(card.id, card);
        return reply(res, 200, cardView(card));
      }
      if (req.method === 'DELETE' && cardsPath[2]) {
        const card = cards.get(decodeURIComponent(cardsPath[2]));
        if (!card || card.customer_id !== customerId || card.status === 'deleted') return reply(res, 404, { message: 'Card not found.' });
        card.status = 'deleted';
        return reply(res, 200, cardView(card));
      }
    }
    return reply(res, 404, { message: 'Not found.' });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      calls.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, authorization: req.headers.authorization ?? null, body: text });
      let body: unknown = null;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          return reply(res, 400, { message: 'The request is invalid.' }, true);
        }
      }
      route(req, res, url, body);
    })().catch(() => reply(res, 500, { message: 'Internal server error.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}/core/v5`;

  return {
    apiUrl,
    publicKey,
    secretKey,
    /** Every request received, in order. */
    calls,
    /** Cards stored (deleted ones keep status "deleted"). */
    cards,
    /** The next server calls (not the browser's tokens) answer these statuses. */
    failNext(...statuses: number[]) {
      failures.push(...statuses);
    },
    /** Makes a token as a browser would (for API tests, which have no browser). */
    async token(card: { number: string; holder_name: string; exp_month: number; exp_year: number; cvv: string }): Promise<Response> {
      return fetch(`${apiUrl}/tokens?appId=${encodeURIComponent(publicKey)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'card', card }),
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
