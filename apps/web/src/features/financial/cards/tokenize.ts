import { cardExpiryYear, passesLuhn, type CardTokenizer } from '@sentinela/contract';

/** What the person typed in the add-card form. */
export interface CardInput {
  number: string;
  holder: string;
  /** MM/AA or MM/AAAA. */
  expiry: string;
  cvv: string;
}

export const digitsOf = (text: string) => text.replace(/\D/g, '');

/** The first problem of the form, in pt-BR, or null: checked here so that an obvious typo costs no provider call. */
export function cardInputProblem(input: CardInput, now = new Date()): string | null {
  const number = digitsOf(input.number);
  if (!number) return 'Informe o número do cartão.';
  if (!passesLuhn(number)) return 'Número do cartão inválido.';
  if (!input.holder.trim()) return 'Informe o nome impresso no cartão.';
  if (input.holder.trim().length > 64) return 'O nome impresso no cartão deve ter no máximo 64 caracteres.';
  const expiry = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim());
  const month = expiry ? Number(expiry[1]) : NaN;
  const year = expiry ? cardExpiryYear(expiry[2]!) : null;
  if (!expiry || !year || month < 1 || month > 12) return 'Informe a validade como MM/AA.';
  if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) return 'Cartão vencido.';
  if (!/^\d{3,4}$/.test(input.cvv)) return 'O CVV tem 3 ou 4 dígitos.';
  return null;
}

export class TokenizeError extends Error {}

/** Pagar.me's field errors (`errors: { "request.card.number": [...] }`) in the words of the form. */
function providerProblem(status: number, payload: unknown): string {
  if (status === 401) return 'O provedor de pagamento recusou a chave pública deste servidor. Avise o suporte.';
  const fields = payload && typeof payload === 'object' && 'errors' in payload && payload.errors && typeof payload.errors === 'object' ? Object.keys(payload.errors) : [];
  if (fields.some((f) => f.endsWith('number'))) return 'O provedor de pagamento não aceitou o número do cartão.';
  if (fields.some((f) => f.endsWith('cvv'))) return 'O provedor de pagamento não aceitou o CVV.';
  if (fields.some((f) => /exp_|card$/.test(f))) return 'O provedor de pagamento não aceitou a validade do cartão.';
  if (fields.some((f) => f.endsWith('holder_name'))) return 'O provedor de pagamento não aceitou o nome impresso no cartão.';
  if (status >= 500) return 'O provedor de pagamento não respondeu. Tente novamente em instantes.';
  return 'O provedor de pagamento recusou os dados do cartão.';
}

/**
 * Sends the card straight from this browser to the provider's tokenizer (Pagar.me API v5: POST {api}/tokens?appId=
 * {public key}, `{ type: "card", card: {...} }`) and answers the one-use token id. Our server never sees the number
 * or the CVV: only this token goes to it afterwards.
 */
export async function tokenizeCard(tokenizer: CardTokenizer, input: CardInput): Promise<string> {
  const expiry = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim());
  const card = {
    number: digitsOf(input.number),
    holder_name: input.holder.trim(),
    exp_month: Number(expiry?.[1]),
    exp_year: cardExpiryYear(expiry?.[2] ?? '') ?? 0,
    cvv: input.cvv,
  };
  let response: Response;
  try {
    response = await fetch(tokenizer.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ type: 'card', card }),
      // No cookies nor referrer details for the provider: the public key is all it needs.
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new TokenizeError('Não foi possível falar com o provedor de pagamento. Verifique sua conexão.');
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  if (!response.ok) throw new TokenizeError(providerProblem(response.status, payload));
  const id = payload && typeof payload === 'object' && 'id' in payload && typeof payload.id === 'string' ? payload.id : null;
  if (!id) throw new TokenizeError('O provedor de pagamento respondeu de um jeito inesperado. Tente novamente.');
  return id;
}
