import { z } from './zod-locale';
import { IsoDate } from './common';
import type { Permission } from './profiles';
import { boundedInstant, cleanText } from './values';

/**
 * API tokens (X13, ADR 64): credentials an enterprise administrator gives another system (a TMS, an ERP, a quality
 * system). A token acts within its enterprise with the rights of an enterprise administrator, narrowed by its scopes.
 */

export const API_TOKEN_SCOPES = ['devices:read', 'readings:read', 'alarms:read', 'alarms:write', 'travels:read', 'travels:write', 'reports:read'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** What each scope lets a token do, as the Integrações screen says it. */
export const API_TOKEN_SCOPE_NAMES: Record<ApiTokenScope, string> = {
  'devices:read': 'Ler dispositivos e locais',
  'readings:read': 'Ler e exportar leituras',
  'alarms:read': 'Ler alarmes',
  'alarms:write': 'Reconhecer alarmes',
  'travels:read': 'Ler viagens',
  'travels:write': 'Criar e alterar viagens',
  'reports:read': 'Ler e gerar relatórios',
};

/**
 * THE table of what a token may call: for each permission a route declares, the scopes a token needs for it (all
 * of them), or null when no token may call such a route (profile, password, sessions, users, billing, creating
 * tokens: what only a person at the screen should do). Typed over every permission, so a new permission does not
 * compile until someone decides here whether tokens reach it.
 */
export const TOKEN_SCOPES_OF_PERMISSION: Record<Permission, readonly ApiTokenScope[] | null> = {
  'profile:own': null,
  'settings:own': null,
  'devices:read': ['devices:read'],
  'devices:rename': null,
  'devices:configure': null,
  'client-devices:read': ['devices:read'],
  'devices:link': null,
  'devices:register': null,
  'readings:read': ['readings:read'],
  'alarms:read': ['alarms:read'],
  'alarms:acknowledge': ['alarms:write'],
  'travels:read': ['travels:read'],
  'travels:manage': ['travels:write'],
  'reports:read': ['reports:read'],
  // A report file holds readings: asking for one needs both.
  'reports:generate': ['reports:read', 'readings:read'],
  'locations:read': ['devices:read'],
  'locations:manage': null,
  'financial:read': null,
  'financial:manage': null,
  'financial:cards': null,
  'users:read': null,
  'users:manage': null,
  'access-log:read': null,
  'gateways:manage': null,
  'monitor-links:manage': null,
  'enterprise:settings': null,
  'enterprises:manage': null,
  'firmware:manage': null,
  'plans:manage': null,
  'integrations:manage': null,
  // The audit trail and GxP mode are for inspectors and administrators at the screen (ADRs 60–62).
  'audit-trail:read': null,
  'enterprise:compliance': null,
  // Calibration certificates are added and read by administrators at the screen (ADR 0077).
  'calibrations:manage': null,
  // A mapping study is a qualification an administrator starts at the screen (ADR 0083).
  'mapping-studies:manage': null,
};

/**
 * Tokens read `stk_` + 43 base64url characters (32 random bytes): the prefix tells secret scanners and log
 * redaction what they found, and the fixed length tells a token from a session token (43 characters, no prefix).
 */
export const API_TOKEN_PREFIX = 'stk_';
export const API_TOKEN_PATTERN = /^stk_[A-Za-z0-9_-]{43}$/;
/** For log redaction and scanners: a token anywhere in a text. */
export const API_TOKEN_IN_TEXT = /\bstk_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** Tokens an enterprise may hold at once (not revoked): enough for every system it runs, not a leak by accident. */
export const API_TOKEN_MAX_ACTIVE = 50;

export const API_TOKEN_MESSAGES = {
  notFound: 'Token de API não encontrado.',
  invalid: 'Token de API inválido, expirado ou revogado.',
  notForTokens: 'Esta operação não aceita tokens de API; use uma sessão.',
  missingScope: (scopes: readonly string[]) => `Este token de API não tem o escopo necessário (${scopes.join(', ')}).`,
  unknownScope: `Escopo desconhecido. Escopos válidos: ${API_TOKEN_SCOPES.join(', ')}.`,
  noScope: 'Escolha ao menos um escopo.',
  repeatedScope: 'Escopo repetido.',
  expiryInPast: 'A validade deve ser uma data futura.',
  tooMany: `Limite de ${API_TOKEN_MAX_ACTIVE} tokens ativos atingido. Revogue os que não são mais usados.`,
} as const;

export const ApiTokenScopeField = z.enum(API_TOKEN_SCOPES, { message: API_TOKEN_MESSAGES.unknownScope });

export const ApiTokenScopes = z
  .array(ApiTokenScopeField, { message: API_TOKEN_MESSAGES.noScope })
  .min(1, API_TOKEN_MESSAGES.noScope)
  .max(API_TOKEN_SCOPES.length, API_TOKEN_MESSAGES.repeatedScope)
  .refine((list) => new Set(list).size === list.length, API_TOKEN_MESSAGES.repeatedScope);

export const CreateApiTokenBody = z.object({
  name: cleanText('O nome', { min: 1, max: 80, requiredMessage: 'Informe o nome do token.' }),
  scopes: ApiTokenScopes,
  /** Until when the token works (absent or null: until revoked). Checked against the server's clock. */
  expires_at: boundedInstant('A validade', { requireOffset: true }).nullish(),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

/** The answer of POST /api/api-tokens: the token in full, this once. */
export const CreatedApiToken = z.object({
  _id: z.string(),
  name: z.string(),
  scopes: z.array(ApiTokenScopeField),
  token: z.string(),
  expires_at: IsoDate.nullable(),
  created_at: IsoDate,
});
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

/**
 * active: usable. expired / revoked: as they say. creator_inactive: the administrator who created it is disabled or
 * no longer an administrator of the enterprise, and the token stopped with them (ADR 64).
 */
export const API_TOKEN_STATUSES = ['active', 'expired', 'revoked', 'creator_inactive'] as const;
export type ApiTokenStatus = (typeof API_TOKEN_STATUSES)[number];

export const ApiToken = z.object({
  _id: z.string(),
  name: z.string(),
  scopes: z.array(ApiTokenScopeField),
  /** The first characters of the token (`stk_` and 4 more), to tell tokens apart without revealing them. */
  token_prefix: z.string(),
  status: z.enum(API_TOKEN_STATUSES),
  created_by: z.object({ _id: z.string(), name: z.string() }).nullable(),
  created_at: IsoDate,
  expires_at: IsoDate.nullable(),
  /** To the minute: uses are written in batches, not one write per request. */
  last_used_at: IsoDate.nullable(),
  revoked_at: IsoDate.nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const ApiTokenList = z.array(ApiToken);
