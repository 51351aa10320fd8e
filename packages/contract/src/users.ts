import { z } from './zod-locale';
import { IsoDate } from './common';
import { adminResetPasswordSchema } from './password';

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
});
export type UserDetail = z.infer<typeof UserDetail>;

/** POST /api/admin/users/{id}/reset-password (M4): an administrator sets a new password for one of its users. */
export const AdminResetPasswordBody = z.object({ password: adminResetPasswordSchema() });
export type AdminResetPasswordBody = z.infer<typeof AdminResetPasswordBody>;

/** Answer of actions that only report what happened, in the user's language. */
export const SuccessMessageResponse = z.object({ success: z.literal(true), message: z.string() });
export type SuccessMessageResponse = z.infer<typeof SuccessMessageResponse>;
