import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A Brazilian mobile number in E.164 (+55, the two-digit area code, 9 and eight digits), from the phone of a
 * profile ("(11) 99999-0001", as the form's mask writes it) or any spelling with a country code or trunk zero.
 * SMS and WhatsApp reach mobiles only: a landline or a number that is not Brazilian makes those channels unusable,
 * with the reason said to the user (ADR 23).
 */
export type PhoneCheck = { ok: true; e164: string } | { ok: false; problem: 'missing' | 'invalid' | 'landline' };

/**
 * Checked with libphonenumber-js and its full metadata (`/max`, which tells mobiles from landlines by Anatel's
 * numbering plan, area codes included): a number of another country, an area code that does not exist or a length
 * that is not Brazil's is invalid; a valid fixed line is a landline.
 */
export function brazilianMobile(phone: string | null | undefined): PhoneCheck {
  if (!phone || !phone.trim()) return { ok: false, problem: 'missing' };
  const text = phone.trim();
  // Only digits and the usual separators; anything else (letters, extensions) is not a number we can text.
  if (!/^\+?[\d\s().-]+$/.test(text)) return { ok: false, problem: 'invalid' };
  const parsed = parsePhoneNumberFromString(text, 'BR');
  if (!parsed || parsed.country !== 'BR' || !parsed.isValid()) return { ok: false, problem: 'invalid' };
  const type = parsed.getType();
  if (type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE') return { ok: true, e164: parsed.number };
  if (type === 'FIXED_LINE') return { ok: false, problem: 'landline' };
  return { ok: false, problem: 'invalid' };
}

/** Why a channel that needs a mobile number cannot be used with this phone (pt-BR). */
export function phoneProblemText(problem: 'missing' | 'invalid' | 'landline', channelName: string): string {
  switch (problem) {
    case 'missing':
      return `Cadastre um telefone celular no seu perfil para receber notificações por ${channelName}.`;
    case 'landline':
      return `O telefone do seu perfil é fixo: cadastre um celular para receber notificações por ${channelName}.`;
    case 'invalid':
      return `O telefone do seu perfil não é um celular brasileiro válido (DDD e número de 9 dígitos começando por 9): corrija-o para receber notificações por ${channelName}.`;
  }
}
