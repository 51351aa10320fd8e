import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { IsoDate } from './common';
import { adminResetPasswordSchema } from './password';
import { requiredEmail } from './enterprises';
import { cleanText } from './values';
import type { UserAction, UserStanding } from './profiles';

export const UserDetail = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  profile: z.object({ _id: z.number().int(), name: z.string() }),
  userType: z.number().int(),
  disabled: z.boolean(),
  verified: z.boolean(),
  isOwner: z.boolean(),
  available_devices: z.array(z.string()),
  enterprise: z.object({ _id: z.string(), name: z.string() }).nullable(),
  created_at: IsoDate,
  /**
   * Ours (ADR 82): the new e-mail waiting for its owner to open the confirmation link, on the answers of Editar
   * usuário (show and update); null when none. The lists leave it out.
   */
  pending_email: z.string().nullable().optional(),
});
export type UserDetail = z.infer<typeof UserDetail>;

/** A user as `userActionRefusal` weighs them. */
export const standingOf = (user: UserDetail): UserStanding => ({
  id: user._id,
  profileId: user.profile._id,
  enterpriseId: user.enterprise?._id ?? null,
  isOwner: user.isOwner,
});

/** POST /api/admin/users/{id}/reset-password (M4): an administrator sets a new password for one of its users. */
export const AdminResetPasswordBody = z.object({ password: adminResetPasswordSchema() });
export type AdminResetPasswordBody = z.infer<typeof AdminResetPasswordBody>;

/** Answer of actions that only report what happened, in the user's language. */
export const SuccessMessageResponse = z.object({ success: z.literal(true), message: z.string() });
export type SuccessMessageResponse = z.infer<typeof SuccessMessageResponse>;

/** POST /api/user/update/{id} (M5, /edit-user): an administrator edits a user's name, username and email. */
export const UpdateUserBody = z.object({
  name: cleanText('O nome', { min: 1, max: 120, requiredMessage: 'Informe o nome.' }),
  username: cleanText('O usuário', { min: 3, max: 60, requiredMessage: 'Informe o usuário.' }).pipe(
    z.string().regex(/^[a-zA-Z0-9._-]+$/, 'O usuário pode ter apenas letras sem acento, números, ponto, hífen e sublinhado.'),
  ),
  email: requiredEmail,
  reason: changeReason(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const USER_MESSAGES = {
  updated: 'Perfil editado com sucesso',
  usernameTaken: 'Este usuário já está em uso.',
} as const;

/** Why an administrator may not act on a user (`userActionRefusal`, issue 21.3), in the words users read. */
export const USER_ACTION_MESSAGES = {
  notFound: 'Usuário não encontrado.',
  owner: 'Somente o proprietário da empresa ou o super administrador podem alterar o proprietário.',
  administrator: 'Somente o proprietário da empresa pode alterar outro administrador.',
  superAdmin: 'Um super administrador não pode ser alterado por esta tela.',
  notAdministrator: 'Somente administradores podem alterar outros usuários.',
  lastActiveAdministrator: 'A empresa precisa de ao menos um administrador ativo: ative ou cadastre outro administrador antes de desativar este.',
  self: {
    edit: 'Para alterar os seus próprios dados, use a tela Perfil.',
    'reset-password': 'Para alterar a sua própria senha, use a opção Alterar senha do seu perfil.',
    'set-active': 'Você não pode desativar o seu próprio usuário.',
  } as Partial<Record<UserAction, string>>,
} as const;
