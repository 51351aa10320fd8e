import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { MSG } from './messages';
import { passwordSchema } from './password';
import { requiredEmail } from './enterprises';
import { cleanText, secretText } from './values';
import { ErrorResponse } from './common';
import { humanCheckToken } from './human-check';

/** Texts of sign-up, confirmation and recovery (spec 000 §2, §8); the documents' texts copied exactly. */
export const ACCOUNT_MESSAGES = {
  registered: 'Cadastro concluído com sucesso!',
  goToLogin: 'Ir para o Login',
  userNotFound: 'usuário não encontrado',
  emailConfirmed: 'E-mail confirmado com sucesso!',
  confirmationSent: 'Enviamos um novo e-mail de confirmação. Confira sua caixa de entrada.',
  alreadyConfirmed: 'Seu e-mail já está confirmado.',
  resetRequested: 'Se o e-mail estiver cadastrado, você receberá em instantes um código de recuperação (válido por 15 minutos).',
  resetCodeInvalid: 'Código inválido ou expirado. Solicite um novo código.',
  passwordChanged: 'Sua senha foi alterada com sucesso',
  tooManyAccountRequests: 'Muitas solicitações a partir deste endereço. Aguarde alguns minutos e tente novamente.',
  planNotFound: 'Plano não encontrado.',
} as const;

/** Phone as the form's mask writes it, (99) 99999-9999; 8-digit landlines, (99) 9999-9999, too. */
export const phoneNumber = cleanText('O telefone', { min: 1, max: 20, requiredMessage: 'Informe o telefone.' }).pipe(
  z.string().regex(/^\(\d{2}\) \d{4,5}-\d{4}$/, 'Informe o telefone no formato (99) 99999-9999.'),
);

export const personName = cleanText('O nome', { min: 1, max: 120, requiredMessage: 'Informe o nome.' });

export const username = cleanText('O usuário', { min: 3, max: 60, requiredMessage: 'Informe o usuário.' }).pipe(
  z.string().regex(/^[a-zA-Z0-9._-]+$/, 'O usuário pode ter apenas letras sem acento, números, ponto, hífen e sublinhado.'),
);

/**
 * POST /api/user/email-available: is this e-mail already someone's? The documents read the answer as "truthy when
 * taken", so the body is a bare JSON boolean: `true` when an account has the e-mail, `false` when it is free.
 */
export const EmailAvailableBody = z.object({ email: requiredEmail });
export const EmailAvailableResponse = z.boolean();
export type EmailAvailableResponse = z.infer<typeof EmailAvailableResponse>;

/**
 * POST /api/client (A3): the registrant and their enterprise. The plan and cycle chosen on the landing page come
 * along when there was one (the /register query's plan_id and cicle_id).
 */
export const SignUpBody = z.object({
  name: personName,
  username,
  email: requiredEmail,
  phone: phoneNumber,
  password: passwordSchema(MSG.passwordRequired),
  client: z.object({ name: cleanText('O nome da empresa', { min: 1, max: 120, requiredMessage: 'Informe o nome da empresa.' }) }, { message: 'Informe os dados da empresa.' }),
  plan_id: z.uuid(ACCOUNT_MESSAGES.planNotFound).optional(),
  cicle_id: z.uuid(ACCOUNT_MESSAGES.planNotFound).optional(),
  /** The solved "not a robot" challenge of GET /api/client/challenge (issue 21 item 5), as the contact form sends it. */
  altcha: humanCheckToken,
});
export type SignUpBody = z.infer<typeof SignUpBody>;

/** The /register form: the body plus the confirmation (a client-side check of the documents). */
export const SignUpForm = z
  .object({
    name: personName,
    username,
    email: requiredEmail,
    phone: phoneNumber,
    clientName: cleanText('O nome da empresa', { min: 1, max: 120, requiredMessage: 'Informe o nome da empresa.' }),
    password: passwordSchema(MSG.passwordRequired),
    confirmPassword: z.string(),
  })
  .refine((form) => form.password === form.confirmPassword, { path: ['confirmPassword'], message: MSG.passwordsMustMatch });
export type SignUpForm = z.infer<typeof SignUpForm>;

export const VerifyEmailParams = z.object({ token: cleanText('O código de confirmação', { min: 1, max: 200 }) });

/** POST api/password/request/reset. The old client sent a code it made itself; the server makes it now (any `code` is ignored). */
export const RequestPasswordResetBody = z.object({ email: requiredEmail });
export type RequestPasswordResetBody = z.infer<typeof RequestPasswordResetBody>;

const RECOVERY_CODE_DIGITS = 6;
const recoveryCodeLength = `O código de recuperação tem ${RECOVERY_CODE_DIGITS} dígitos.`;

export const recoveryCode = cleanText('O código de recuperação', { min: 1, max: 20, requiredMessage: 'Informe o código de recuperação.' }).pipe(
  z.string().regex(/^\d{6}$/, recoveryCodeLength),
);

/**
 * The code as a client may send it: the typed text, or a JSON number (a client that keeps the code in a numeric
 * field). A number has lost its leading zeros, and codes always have six digits, so it is padded back: 12345 is
 * "012345", never another code (ADR 59). Fractions, negatives and numbers of more than six digits are refused.
 */
export const recoveryCodeInput = z.union(
  [
    z
      .number()
      .int(recoveryCodeLength)
      .min(0, recoveryCodeLength)
      .max(10 ** RECOVERY_CODE_DIGITS - 1, recoveryCodeLength)
      .transform((n) => String(n).padStart(RECOVERY_CODE_DIGITS, '0')),
    recoveryCode,
  ],
  {
    error: (issue) =>
      issue.input === undefined || (typeof issue.input === 'string' && issue.input.trim() === '') ? 'Informe o código de recuperação.' : recoveryCodeLength,
  },
);

/** POST api/password/reset. */
export const ResetPasswordBody = z.object({
  email: requiredEmail,
  code: recoveryCodeInput,
  password: passwordSchema(MSG.passwordRequiredReset),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The /reset-password form (the e-mail comes in the navigation state). */
export const ResetPasswordForm = z
  .object({ code: recoveryCode, password: passwordSchema(MSG.passwordRequiredReset), confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { path: ['confirmPassword'], message: MSG.passwordsMustMatch });
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

/** Answer of account actions: what happened, in the user's language. */
export const AccountMessageResponse = z.object({ success: z.literal(true), message: z.string() });
export type AccountMessageResponse = z.infer<typeof AccountMessageResponse>;

/**
 * GET /api/verify-email/{token}: the documents read `confirmed`. A confirmed e-mail answers 200 with `confirmed:
 * true`; an unknown, spent or expired token answers 404 "usuário não encontrado" that carries `confirmed: false`, so
 * a client that reads only the field and one that reads only the status both understand it.
 */
export const VerifyEmailResponse = AccountMessageResponse.extend({ confirmed: z.literal(true) });
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;
export const VerifyEmailNotFoundResponse = ErrorResponse.extend({ confirmed: z.literal(false) });

/** The current password, as typed (change password asks for it: ADR 0016). */
export const currentPassword = secretText('Senha atual', { max: 200, requiredMessage: 'Informe a senha atual.' });

/** Texts of the profile (spec 000 §8). */
export const PROFILE_MESSAGES = {
  saved: 'Perfil editado com sucesso.',
  saveFailed: 'Não foi possível editar esse perfil',
  emailChanged: 'Perfil editado com sucesso. Enviamos um link de confirmação para o novo e-mail.',
  passwordChanged: 'Senha alterada com sucesso!',
  passwordChangeFailed: 'Não foi possível alterar sua senha.',
  wrongCurrentPassword: 'A senha atual está incorreta.',
  currentPasswordRequired: 'Informe a sua senha atual para confirmar a alteração.',
  identityNeedsPassword: 'Para alterar o e-mail ou o usuário, informe a sua senha atual.',
} as const;

/**
 * GET /api/profile and POST /api/profile/ (A7). `current_password` is ours (ADR 58): required when the e-mail or the
 * username changes, ignored otherwise (a documented client saving its name and phone sends none).
 */
export const ProfileBody = z.object({
  name: personName,
  username,
  email: requiredEmail,
  phone: phoneNumber,
  current_password: currentPassword.optional(),
  reason: changeReason(),
});
export type ProfileBody = z.infer<typeof ProfileBody>;
/** The /profile form: the current password is typed only when the e-mail or username changes. */
export const ProfileEditForm = ProfileBody.extend({ current_password: z.string() });
export type ProfileEditForm = z.infer<typeof ProfileEditForm>;
export const ProfileResponse = z.object({
  name: z.string(),
  username: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  verified: z.boolean(),
  /** Ours (ADR 82): the new e-mail waiting for confirmation; the account keeps `email` until then. */
  pending_email: z.string().nullable().optional(),
});
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/**
 * POST /api/me/change-password. The documents send only `password`; the current one is asked too (ADR 0016):
 * a session left open for five minutes must not be enough to take the account.
 */
export const ChangePasswordBody = z.object({ current_password: currentPassword, password: passwordSchema(MSG.passwordRequired) });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangePasswordForm = z
  .object({ current_password: currentPassword, password: passwordSchema(MSG.passwordRequired), confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { path: ['confirmPassword'], message: MSG.passwordsMustMatch });
export type ChangePasswordForm = z.infer<typeof ChangePasswordForm>;

/** Days a "Não fui eu" link of a change notice works (ADR 58). */
export const CHANGE_REPORT_DAYS = 7;

/** Texts of the "Não fui eu" page (/protect-account/{token}). */
export const ACCOUNT_PROTECTION_MESSAGES = {
  linkInvalid: 'Este link de proteção é inválido, já foi usado ou expirou.',
  secured: 'Sua conta foi protegida: a alteração foi desfeita, todas as sessões foram encerradas e a senha anterior deixou de valer. Enviamos um código para você escolher uma nova senha.',
  securedWithoutAddress:
    'Sua conta foi protegida: todas as sessões foram encerradas e a senha deixou de valer. O e-mail anterior não pôde ser restaurado; use "Esqueci minha senha" com o e-mail da conta ou fale com o administrador da sua empresa.',
} as const;

/** POST /api/account/protect: the token of a "Não fui eu" link. */
export const ProtectAccountBody = z.object({ token: cleanText('O link de proteção', { min: 1, max: 200, requiredMessage: 'Link de proteção inválido.' }) });
export type ProtectAccountBody = z.infer<typeof ProtectAccountBody>;
export const ProtectAccountResponse = z.object({ success: z.literal(true), message: z.string(), email: z.string().nullable() });
export type ProtectAccountResponse = z.infer<typeof ProtectAccountResponse>;
