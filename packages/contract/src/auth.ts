import { z } from './zod-locale';
import { IsoDate } from './common';
import { UserDetail } from './users';

export const LoginBody = z.object({
  username: z.string().trim().min(1, 'Informe o usuário.').max(100),
  password: z.string().min(1, 'Informe a senha.').max(200),
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
