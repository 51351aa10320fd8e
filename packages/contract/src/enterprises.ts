import { z } from './zod-locale';
import { IsoDate } from './common';
import { MSG } from './messages';
import { passwordSchema } from './password';
import { cleanText } from './values';

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

export const ENTERPRISE_MESSAGES = {
  nameTaken: 'Já existe uma empresa com este nome.',
} as const;

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

const enterpriseName = cleanText('O nome da empresa', { min: 1, max: 120, requiredMessage: 'Informe o nome da empresa.' });

export const requiredEmail = cleanText('O email', { min: 1, max: 254, requiredMessage: 'Informe o email.' }).pipe(z.email('Informe um email válido.'));

/**
 * POST /api/client/create/ (M3). The documented client also sends the admin's name, username, userType,
 * available_devices, disabled and verified; the server derives all of them (a client-sent profile is
 * never trusted), so they are not read: zod drops keys it does not declare.
 */
export const CreateEnterpriseBody = z.object({
  client: z.object({ name: enterpriseName }, { message: 'Informe os dados da empresa.' }),
  user: z.object({ email: requiredEmail, password: passwordSchema(MSG.passwordRequired) }, { message: 'Informe os dados do usuário.' }),
});
export type CreateEnterpriseBody = z.infer<typeof CreateEnterpriseBody>;

export const CreateEnterpriseResponse = z.object({
  client: z.object({ _id: z.string(), name: z.string() }),
  user: z.object({ _id: z.string(), username: z.string() }),
});
export type CreateEnterpriseResponse = z.infer<typeof CreateEnterpriseResponse>;

/** The "Cadastro de empresa" form (M3): the body's fields plus the confirmation. */
export const RegisterEnterpriseForm = z
  .object({
    name: enterpriseName,
    email: requiredEmail,
    password: passwordSchema(MSG.passwordRequired),
    confirmPassword: z.string(),
  })
  .refine((form) => form.password === form.confirmPassword, { path: ['confirmPassword'], message: MSG.passwordsMustMatch });
export type RegisterEnterpriseForm = z.infer<typeof RegisterEnterpriseForm>;
