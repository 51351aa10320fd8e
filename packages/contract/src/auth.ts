import { z } from './zod-locale';
import { IsoDate } from './common';
import { cleanText, secretText } from './values';
import { UserDetail } from './users';

export const LoginBody = z.object({
  username: cleanText('Usuário', { min: 1, max: 100, requiredMessage: 'Informe o usuário.' }),
  // Not the password rule: accounts made before it still sign in; only what no password can hold is refused.
  password: secretText('Senha', { max: 200, requiredMessage: 'Informe a senha.' }),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The signed-in user as login and GET /api/me return it. */
export const SessionUser = UserDetail;
export type SessionUser = UserDetail;

export const LoginResponse = z.object({
  token: z.object({ token: z.string(), expires_at: IsoDate }),
  user: SessionUser,
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const UserClientIdResponse = z.object({ _id: z.string().nullable(), name: z.string().nullable() });
export type UserClientIdResponse = z.infer<typeof UserClientIdResponse>;
