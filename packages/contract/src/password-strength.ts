/**
 * Passwords an attacker tries first (issue 21.6, ADR 58), beside the documents' rule of `password.ts`: the passwords of
 * a well-known breached/common list, dressed up to pass the rule ("Senha@123", "P@ssw0rd!", "Flamengo2024#"), and the
 * user's own username, e-mail (local part too) or enterprise name. Pure logic: the list itself is the server's (a
 * package too large for the web's first load), given here as `isCommon`.
 */

export const PASSWORD_STRENGTH_MESSAGES = {
  common: 'Esta senha está entre as mais usadas e seria uma das primeiras a serem tentadas por um invasor. Escolha outra.',
  personal: 'A senha não pode conter o nome de usuário, o e-mail ou o nome da empresa. Escolha outra.',
} as const;

/** What the person is known by, as far as a password must not repeat it. */
export interface PasswordContext {
  username?: string | null;
  email?: string | null;
  enterpriseName?: string | null;
}

/** Shorter fragments say too little to refuse a password for holding them. */
const MIN_FRAGMENT = 4;

// The substitutions that turn a listed word into something the pattern accepts ("p@ssw0rd").
const UNLEET: Record<string, string> = { '@': 'a', '4': 'a', $: 's', '5': 's', '0': 'o', '1': 'i', '!': 'i', '3': 'e', '7': 't', '8': 'b', '9': 'g' };

/** Lower case without accents: how words are compared. */
const fold = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const alphanumeric = (text: string) => text.replace(/[^a-z0-9]/g, '');
const unleet = (text: string) => [...text].map((c) => UNLEET[c] ?? c).join('');
/** Without the digits and symbols added before and after a word to satisfy the rule. */
const stripDecoration = (text: string) => text.replace(/^[^a-z]+|[^a-z]+$/g, '');

/** The forms of a password that a list of common passwords is checked against. */
export function commonPasswordCandidates(password: string): string[] {
  const lower = fold(password);
  const bare = alphanumeric(lower);
  const candidates = new Set([lower, bare, bare.replace(/^\d+|\d+$/g, ''), unleet(stripDecoration(lower)), stripDecoration(unleet(lower)), unleet(bare)]);
  return [...candidates].filter((c) => c.length >= MIN_FRAGMENT);
}

/** The user's own words a password must not hold: username and its parts, e-mail and its local part, enterprise name and its words. */
function personalFragments(context: PasswordContext): string[] {
  const fragments = new Set<string>();
  const add = (value: string | null | undefined) => {
    if (!value) return;
    const folded = fold(value);
    fragments.add(alphanumeric(folded));
    for (const part of folded.split(/[^a-z0-9]+/)) fragments.add(part);
  };
  add(context.username);
  if (context.email) {
    add(context.email.split('@')[0]);
    fragments.add(alphanumeric(fold(context.email)));
  }
  add(context.enterpriseName);
  return [...fragments].filter((f) => f.length >= MIN_FRAGMENT);
}

/**
 * The message that refuses `password`, or null when it may be used. Run after the documents' rule (which it never
 * relaxes): `isCommon` answers whether a folded candidate is on the common list.
 */
export function passwordStrengthProblem(password: string, context: PasswordContext, isCommon: (candidate: string) => boolean): string | null {
  const lower = fold(password);
  const forms = [alphanumeric(lower), alphanumeric(unleet(lower))];
  if (personalFragments(context).some((fragment) => forms.some((form) => form.includes(fragment)))) return PASSWORD_STRENGTH_MESSAGES.personal;
  if (commonPasswordCandidates(password).some(isCommon)) return PASSWORD_STRENGTH_MESSAGES.common;
  return null;
}
