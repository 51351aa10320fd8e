import { z } from './zod-locale';
import { IsoDate } from './common';

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
