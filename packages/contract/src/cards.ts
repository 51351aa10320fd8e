import { z } from './zod-locale';
import { queryField } from './values';

/**
 * Payment cards of an enterprise (issue 13 item 4, ADR 31). The card number and the security code never reach our
 * server: the browser sends them straight to the payment provider (Pagar.me API v5), which answers a one-use token;
 * only that token comes here, and the server turns it into the provider's stored card. We keep the provider's card
 * id, brand, last four digits, holder and expiry, nothing else.
 */

export const CARD_MESSAGES = {
  cardNotFound: 'Cartão não encontrado.',
  enterpriseNotFound: 'Empresa não encontrada.',
  enterpriseRequired: 'Escolha a empresa dos cartões.',
  noEnterprise: 'Sua conta não pertence a uma empresa.',
  notConfigured: 'Pagamento por cartão não está configurado neste servidor. Pague suas faturas por PIX.',
  onlyToken: 'Envie apenas o token do cartão: o número e o código de segurança não passam por este servidor.',
  invalidToken: 'Token de cartão inválido.',
  tokenRefused: 'O provedor de pagamento recusou o token do cartão (expirado ou já usado). Digite os dados do cartão de novo.',
  declined: 'Cartão recusado pelo emissor. Verifique os dados ou use outro cartão.',
  providerRefused: 'O provedor de pagamento recusou o cartão.',
  providerUnavailable: 'O provedor de pagamento não respondeu. Tente novamente em instantes.',
  added: 'Cartão adicionado.',
  madeMain: 'Cartão principal alterado.',
  removed: 'Cartão removido.',
} as const;

/** Card providers this server can speak to (CARD_PROVIDER). */
export const CARD_PROVIDERS = ['pagarme'] as const;
export type CardProviderName = (typeof CARD_PROVIDERS)[number];

export const PaymentCard = z.object({
  id: z.string(),
  /** As the provider names it: Visa, Mastercard, Elo, Amex, Hipercard… */
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  holder: z.string(),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
  /** The documents' main flag: shows the "Cartão Principal" badge; exactly one card of an enterprise has it. */
  main: z.boolean(),
});
export type PaymentCard = z.infer<typeof PaymentCard>;

/** What the browser needs to tokenise a card itself: where to post it and with which public key. */
export const CardTokenizer = z.object({
  provider: z.enum(CARD_PROVIDERS),
  /** The provider's public key (pk_…), meant for browsers. */
  public_key: z.string(),
  /** Pagar.me: `{api}/tokens?appId={public_key}`. */
  token_url: z.string(),
});
export type CardTokenizer = z.infer<typeof CardTokenizer>;

export const CardListResponse = z.object({
  data: z.array(PaymentCard),
  /** Null when no provider is configured: cards cannot be added, invoices are paid by PIX. */
  tokenizer: CardTokenizer.nullable(),
});
export type CardListResponse = z.infer<typeof CardListResponse>;

const enterpriseId = z.uuid(CARD_MESSAGES.enterpriseNotFound);

/** The super administrator names the enterprise; others are about their own (another one's id is a 404). */
export const CardListQuery = z.object({ enterprise_id: queryField(enterpriseId) });
export type CardListQuery = z.infer<typeof CardListQuery>;

/** The provider's token ids: Pagar.me's are `token_` and letters/digits. */
export const CARD_TOKEN = /^token_[A-Za-z0-9]{1,64}$/;

/**
 * Adds a card from the provider's token. Strict: a body that carries anything else (a card number, a CVV) is refused
 * before anything is done with it, so that a client that gets it wrong learns at once.
 */
export const AddCardBody = z.strictObject(
  {
    token: z.string({ error: CARD_MESSAGES.invalidToken }).regex(CARD_TOKEN, CARD_MESSAGES.invalidToken),
    enterprise_id: enterpriseId.optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? CARD_MESSAGES.onlyToken : undefined) },
);
export type AddCardBody = z.infer<typeof AddCardBody>;

/** A four-digit year from what a person types on a card: "28" or "2028". */
export function cardExpiryYear(text: string): number | null {
  if (/^\d{2}$/.test(text)) return 2000 + Number(text);
  if (/^\d{4}$/.test(text)) return Number(text);
  return null;
}

/** The Luhn check digit test every card number passes. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
