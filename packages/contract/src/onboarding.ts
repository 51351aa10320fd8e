import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { requiredEmail } from './enterprises';
import { personName, phoneNumber, username } from './accounts';
import { cleanText } from './values';
import { MSG } from './messages';
import { passwordSchema } from './password';
import { HUMAN_CHECK_MESSAGES, humanCheckToken } from './human-check';

// ---------------------------------------------------------------------------------------------------------------
// Contact form (A14)

/** Texts of the contact form (spec 000 §8, exactly) and of its human check. */
export const CONTACT_MESSAGES = {
  sent: 'Mensagem enviada com sucesso!',
  failed: 'Não foi possível enviar a mensagem, tente novamente.',
  ...HUMAN_CHECK_MESSAGES,
  tooMany: 'Você enviou muitas mensagens. Aguarde um pouco e tente novamente.',
} as const;


/** POST /api/contact-us: the documents' four fields, all required, and the solved challenge (`altcha`). */
export const ContactBody = z.object({
  name: personName,
  email: requiredEmail,
  phone: phoneNumber,
  message: cleanText('A mensagem', { min: 1, max: 4000, multiline: true, requiredMessage: 'Escreva a mensagem.' }),
  altcha: humanCheckToken,
});
export type ContactBody = z.infer<typeof ContactBody>;

/** The form (the token comes from the widget, not from a field the visitor types). */
export const ContactForm = ContactBody.omit({ altcha: true });
export type ContactForm = z.infer<typeof ContactForm>;

export const ContactResponse = z.object({ success: z.literal(true), message: z.string() });

// ---------------------------------------------------------------------------------------------------------------
// Address (A4 step 2)

export const ADDRESS_MESSAGES = {
  cepInvalid: 'Informe um CEP com 8 dígitos.',
  cepNotFound: 'CEP não encontrado. Confira o número ou preencha o endereço.',
  cepUnavailable: 'Não foi possível consultar o CEP agora. Preencha o endereço ou tente novamente.',
  saved: 'Endereço salvo com sucesso!',
  noEnterprise: 'Sua conta não pertence a uma empresa.',
} as const;

/** A CEP as typed (with or without the hyphen), kept as its 8 digits. */
export const cep = cleanText('O CEP', { min: 1, max: 12, requiredMessage: 'Informe o CEP.' })
  .transform((v) => v.replace(/[.\s-]/g, ''))
  .pipe(z.string().regex(/^\d{8}$/, ADDRESS_MESSAGES.cepInvalid));

export const CepParam = z.object({ cep });

/** GET /api/cep/{cep}: the fields of a ViaCEP-compatible answer the address form uses. */
export const CepLookupResponse = z.object({
  cep: z.string(),
  logradouro: z.string(),
  bairro: z.string(),
  localidade: z.string(),
  uf: z.string(),
  ibge: z.string(),
});
export type CepLookupResponse = z.infer<typeof CepLookupResponse>;

export const BRAZIL_UFS = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN',
  'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;

/** POST /api/enterprise/address: the enterprise's address (Salvar of step 2). */
export const EnterpriseAddressBody = z.object({
  cep,
  number: cleanText('O número', { min: 1, max: 20, requiredMessage: 'Informe o número.' }),
  address: cleanText('O endereço', { min: 1, max: 200, requiredMessage: 'Informe o endereço.' }),
  neighbourhood: cleanText('O bairro', { min: 1, max: 120, requiredMessage: 'Informe o bairro.' }),
  city: cleanText('A cidade', { min: 1, max: 120, requiredMessage: 'Informe a cidade.' }),
  uf: cleanText('A UF', { min: 1, max: 2, requiredMessage: 'Informe a UF.' })
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(BRAZIL_UFS, 'Informe uma UF válida.')),
  ibge: z.preprocess((v) => (v === '' ? null : v), z.string().regex(/^\d{7}$/, 'Código IBGE inválido.').nullable().optional()),
});
export type EnterpriseAddressBody = z.infer<typeof EnterpriseAddressBody>;

export const EnterpriseAddressResponse = z
  .object({ cep: z.string(), number: z.string(), address: z.string(), neighbourhood: z.string(), city: z.string(), uf: z.string(), ibge: z.string().nullable() })
  .nullable();
export type EnterpriseAddressResponse = z.infer<typeof EnterpriseAddressResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Plans of a signed-in enterprise (A11, A4 step 3)

export const PLAN_MESSAGES = {
  requested: 'Pedido de troca de plano registrado! A cobrança do novo plano começa no próximo ciclo.',
  chosen: 'Plano escolhido com sucesso! Ele já é o plano da sua empresa.',
  alreadyCurrent: 'Este já é o plano atual da sua empresa.',
  notFound: 'Plano não encontrado.',
} as const;

/** GET /api/enterprise/plan: the enterprise's current cycle and a pending change, when there are. */
export const EnterprisePlanResponse = z.object({
  current: z.object({ plan_id: z.string(), cicle_id: z.string(), plan_name: z.string(), cicle_name: z.string(), value: z.number() }).nullable(),
  requested: z.object({ plan_id: z.string(), cicle_id: z.string(), plan_name: z.string(), cicle_name: z.string(), requested_at: z.string() }).nullable(),
});
export type EnterprisePlanResponse = z.infer<typeof EnterprisePlanResponse>;

export const PlanChangeBody = z.object({ plan_id: z.uuid(PLAN_MESSAGES.notFound), cicle_id: z.uuid(PLAN_MESSAGES.notFound) });
export type PlanChangeBody = z.infer<typeof PlanChangeBody>;

// ---------------------------------------------------------------------------------------------------------------
// Users created by an enterprise (A13)

export const CREATE_USER_MESSAGES = {
  created: 'Usuário cadastrado com sucesso!',
  failed: 'Ocorreu um erro ao tentar cadastrar esse usuário!',
  backToDevices: 'Voltar para Meus Dispositivos',
  profileNotAllowed: 'Perfil não permitido.',
  enterpriseRequired: 'Informe a empresa do usuário.',
  deviceNotFound: 'Dispositivo não encontrado.',
  linked: 'Usuários vinculados à empresa com sucesso.',
  otherEnterprise: 'Este usuário pertence a outra empresa.',
  ownerOnlySuperAdmin: 'Somente o administrador da plataforma define o dono de uma empresa.',
} as const;

/** GET /api/acl/all: the profiles a user may be given ({ content: [...] }), less the excluded one. */
export const AclItem = z.object({ id: z.number(), _id: z.number(), name: z.string() });
export const AclListResponse = z.object({ content: z.array(AclItem) });
export type AclListResponse = z.infer<typeof AclListResponse>;

/**
 * POST /api/user/create. The documents' client sends a password the administrator typed: it is honoured (ADR 59), and
 * the new user confirms their e-mail by a link. Without one (our /register-user), the new user chooses their own
 * from an e-mailed code (ADR 0017); an empty `password` counts as none. `client_id` is for the platform
 * administrator, who has no enterprise of their own; an enterprise administrator's users always go into their
 * enterprise.
 */
export const CreateUserBody = z.object({
  password: z.preprocess((value) => (value === '' || value === null ? undefined : value), passwordSchema(MSG.passwordRequired).optional()),
  name: personName,
  username,
  email: requiredEmail,
  phone: phoneNumber,
  profile: z.object({ _id: z.coerce.number({ error: 'Selecione o perfil.' }).int('Selecione o perfil.') }, { error: 'Selecione o perfil.' }),
  available_devices: z.array(z.uuid(CREATE_USER_MESSAGES.deviceNotFound)).max(1000).default([]),
  client_id: z.uuid('Empresa não encontrada.').optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const CreateUserResponse = z.object({ success: z.literal(true), message: z.string(), user: z.object({ _id: z.string(), id: z.string() }) });
export type CreateUserResponse = z.infer<typeof CreateUserResponse>;

/** POST /api/client/link/{enterpriseId}. */
export const LinkUsersParams = z.object({ enterpriseId: z.uuid('Empresa não encontrada.') });
export const LinkUsersBody = z.object({
  users: z.array(z.object({ id: z.uuid('Usuário não encontrado.'), isOwner: z.boolean().default(false) })).min(1, 'Informe os usuários.').max(100),
  reason: changeReason(),
});
export type LinkUsersBody = z.infer<typeof LinkUsersBody>;

/** The /register-user form. */
export const CreateUserForm = z.object({
  name: personName,
  username,
  email: requiredEmail,
  phone: phoneNumber,
  profileId: z.string().min(1, 'Selecione o perfil.'),
});
export type CreateUserForm = z.infer<typeof CreateUserForm>;
