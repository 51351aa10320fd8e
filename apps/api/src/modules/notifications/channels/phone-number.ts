/**
 * A Brazilian mobile number in E.164 (+55, the two-digit area code, 9 and eight digits), from the phone of a
 * profile ("(11) 99999-0001", as the form's mask writes it) or any spelling with a country code or trunk zero.
 * SMS and WhatsApp reach mobiles only: a landline or a number that is not Brazilian makes those channels unusable,
 * with the reason said to the user (ADR 23).
 */
export type PhoneCheck = { ok: true; e164: string } | { ok: false; problem: 'missing' | 'invalid' | 'landline' };

export function brazilianMobile(phone: string | null | undefined): PhoneCheck {
  if (!phone || !phone.trim()) return { ok: false, problem: 'missing' };
  // Only digits and the usual separators; anything else (letters, extensions) is not a number we can text.
  if (!/^\+?[\d\s().-]+$/.test(phone.trim())) return { ok: false, problem: 'invalid' };
  let digits = phone.replace(/\D/g, '');
  if (phone.trim().startsWith('+')) {
    if (!digits.startsWith('55')) return { ok: false, problem: 'invalid' };
    digits = digits.slice(2);
  } else if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) {
    digits = digits.slice(2);
  } else if (digits.startsWith('0') && (digits.length === 11 || digits.length === 12)) {
    // Dialled with the trunk zero: 0 + area code + number.
    digits = digits.slice(1);
  }
  // Area codes are two digits, neither of them zero.
  if (!/^[1-9][1-9]/.test(digits)) return { ok: false, problem: 'invalid' };
  if (digits.length === 11 && digits[2] === '9') return { ok: true, e164: `+55${digits}` };
  // Eight digits starting 2 to 5 are landlines.
  if (digits.length === 10 && /^[2-5]$/.test(digits[2]!)) return { ok: false, problem: 'landline' };
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
