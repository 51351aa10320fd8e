import { z } from './zod-locale';
import { MSG } from './messages';

/**
 * Password rule of the documents: at least 8 characters, a letter, a digit and one of @$!%*#?&,
 * and only those characters. The old client's message speaks of an upper-case letter but never
 * forced one; we keep its message and its actual rule, so existing passwords stay valid.
 */
const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*#?&])[A-Za-z\d@$!%*#?&]{8,}$/;

export function passwordSchema(requiredMessage: string = MSG.passwordRequired) {
  return z
    .string({ message: requiredMessage })
    .min(1, requiredMessage)
    .min(8, MSG.passwordMin)
    .max(128, 'A senha deve ter no máximo 128 caracteres')
    .regex(PASSWORD_PATTERN, MSG.passwordPattern);
}
