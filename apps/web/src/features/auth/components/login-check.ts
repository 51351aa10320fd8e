import { LoginBody } from '@sentinela/contract';

export type LoginField = 'username' | 'password';
export type LoginCheck = { credentials: LoginBody; errors?: undefined } | { credentials?: undefined; errors: Partial<Record<LoginField, string>> };

/**
 * The login form's check: the contract's schema, as the server applies it, with the first message of each field.
 * Loaded apart from the page, with zod (ADR 0040).
 */
export function checkLogin(values: Record<LoginField, string>): LoginCheck {
  const parsed = LoginBody.safeParse(values);
  if (parsed.success) return { credentials: parsed.data };
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'username' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}
