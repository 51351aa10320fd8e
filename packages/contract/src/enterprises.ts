import { z } from './zod-locale';
import { IsoDate } from './common';

export const EnterpriseSummary = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  disabled: z.boolean(),
  created_at: IsoDate,
  available_devices: z.array(z.string()),
  users: z.array(z.object({ id: z.string(), isOwner: z.boolean() })),
  userOwner: z.object({ _id: z.string(), name: z.string(), username: z.string() }).nullable(),
});
export type EnterpriseSummary = z.infer<typeof EnterpriseSummary>;

export const ClientIdParam = z.object({ clientId: z.uuid('Empresa inválida.') });

export const UsersByClientQuery = z.object({
  disabled: z.enum(['true', 'false'], { message: 'Use disabled=true ou disabled=false.' }).optional(),
});

/** Activate/deactivate (spec 001 §4): status true deactivates, false activates. One of user_id or client_id. */
export const ActiveInactiveBody = z
  .object({
    user_id: z.uuid('Usuário inválido.').optional(),
    client_id: z.uuid('Empresa inválida.').optional(),
    status: z.boolean({ message: 'Informe o status (true para desativar, false para ativar).' }),
  })
  .refine((b) => !!b.user_id !== !!b.client_id, { message: 'Informe user_id ou client_id.' });
