import { z } from './zod-locale';
import { IsoDate, pageNumber } from './common';
import { boundedInstant, cleanText, queryField } from './values';

/**
 * The audit trail (issue 22, FEATURES X11, ADR 0060): who changed which record, when, from what to what, why and from
 * where, in hash chains an auditor can recompute. Entries are written by the database; these are the read routes.
 */

export const AUDIT_TRAIL_MESSAGES = {
  enterpriseNotFound: 'Empresa não encontrada.',
  reasonRequired: 'Informe o motivo da alteração.',
  exportTooLarge: 'A exportação vai até 5.000 registros. Filtre por período, registro ou autor e exporte em partes.',
} as const;

/** The actor types an entry names (`database`: a change made outside the application, by a database role). */
export const AUDIT_ACTOR_TYPES = ['user', 'api_token', 'system', 'anonymous', 'database'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const AuditEntry = z.object({
  /** The chain: an enterprise's id, or 'platform' for the platform's own records. */
  chain: z.string(),
  seq: z.number().int(),
  enterprise: z.object({ _id: z.string(), name: z.string() }).nullable(),
  at: IsoDate,
  actor: z.object({ type: z.string(), _id: z.string().nullable(), name: z.string().nullable(), username: z.string().nullable() }),
  /** create, update, delete (row changes), or an event: sign_in, sign_in_failed, download, signature, … */
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  client: z.object({
    address: z.string().nullable(),
    client: z.string().nullable(),
    clientVersion: z.string().nullable(),
    clientOs: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const uuidOrPlatform = z.union([z.uuid(AUDIT_TRAIL_MESSAGES.enterpriseNotFound), z.literal('platform')], {
  message: AUDIT_TRAIL_MESSAGES.enterpriseNotFound,
});

/** GET /api/audit-trail and its exports: the filters of the screen "Trilha de auditoria". */
export const AuditTrailQuery = z.object({
  /** Super admin: one enterprise's chain (or 'platform'); all chains without it. Others: their own, else 404. */
  enterprise_id: queryField(uuidOrPlatform),
  /** An entity kind (device, user, travel, alarm, report, …). */
  entity: queryField(z.string().regex(/^[a-z_]{1,40}$/, 'Tipo de registro inválido.')),
  /** A record's id: its own entries and those of the rows that refer to it (a device's alarms and links). */
  entity_id: queryField(cleanText('O registro', { max: 100 })),
  /** A user's id, or part of an actor's name. */
  actor: queryField(cleanText('O autor', { max: 100 })),
  from: queryField(boundedInstant('A data inicial')),
  to: queryField(boundedInstant('A data final')),
  page: pageNumber(),
});
export type AuditTrailQuery = z.infer<typeof AuditTrailQuery>;

export const AUDIT_PAGE_SIZE = 50;

/** GET /api/audit-trail/export/{pdf|csv} (ADR 0063): the screen's filters, without the page. */
export const AuditTrailExportQuery = AuditTrailQuery.omit({ page: true });
export type AuditTrailExportQuery = z.infer<typeof AuditTrailExportQuery>;

/** The most entries one export holds (it is drawn and signed in the request); above, 422 exportTooLarge. */
export const AUDIT_EXPORT_MAX_ENTRIES = 5000;

export const AuditTrailPage = z.object({
  data: z.array(AuditEntry),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type AuditTrailPage = z.infer<typeof AuditTrailPage>;

export const AuditVerifyQuery = z.object({ enterprise_id: queryField(uuidOrPlatform) });

/** GET /api/audit-trail/verify: the chain(s) recomputed. */
export const AuditVerifyResult = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  /** The first sequence whose entry, link or position does not hold (absent when ok). */
  first_bad_seq: z.number().int().optional(),
  /** The chain of first_bad_seq (when several were verified). */
  chain: z.string().optional(),
});
export type AuditVerifyResult = z.infer<typeof AuditVerifyResult>;

/** A reason for change (GxP mode, ADR 0061): 3–500 characters, in the same request as the change. */
export const changeReason = () =>
  cleanText('O motivo', { min: 3, max: 500, multiline: true, requiredMessage: AUDIT_TRAIL_MESSAGES.reasonRequired }).optional();

/**
 * The body of a removal that may unlink GxP records (a location or a group holding devices, ADR 0063): only the reason,
 * and the body itself optional (the documents' DELETE has none).
 */
export const RemovalReasonBody = z.object({ reason: changeReason() }).nullish();
export type RemovalReasonBody = z.infer<typeof RemovalReasonBody>;
