import { z } from './zod-locale';
import { IsoDate } from './common';

export const AccessLogEntry = z.object({
  _id: z.string(),
  created_at: IsoDate,
  client: z.string().nullable(),
  clientVersion: z.string().nullable(),
  clientOs: z.string().nullable(),
  ip: z.string().nullable(),
  apiVersion: z.string(),
  user: z.object({ _id: z.string(), name: z.string() }).nullable(),
  message: z.string(),
});
export type AccessLogEntry = z.infer<typeof AccessLogEntry>;

export const AccessLogQuery = z.object({ user_id: z.uuid('Usuário inválido.') });
