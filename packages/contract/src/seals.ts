import { z } from './zod-locale';
import { isCalendarDate } from './calibration-dates';
import { queryField } from './values';

/**
 * Sealed days of readings (issue 24 point 3, X12, ADR 0080): after each day ends in the enterprise's time zone, the
 * platform seals that day's readings per device (count, first, last, SHA-256 over canonical rows), chains the seal to
 * the enterprise's previous one and signs it (detached CMS). Readings arriving late, and removals by the retention,
 * are recorded as addenda of the day, never silently.
 */
export const SEAL_MESSAGES = {
  dateFormat: 'Informe a data no formato AAAA-MM-DD (entre 1970 e 2199).',
  enterpriseRequired: 'Informe a empresa.',
  enterpriseNotFound: 'Empresa não encontrada.',
  notFound: 'Nenhum selo para este dia.',
} as const;

/** The first seal of an enterprise chains to this. */
export const SEAL_CHAIN_START = '0'.repeat(64);

export const SealQuery = z.object({
  date: z
    .string({ error: () => SEAL_MESSAGES.dateFormat })
    .trim()
    .refine(isCalendarDate, SEAL_MESSAGES.dateFormat),
  enterprise_id: queryField(z.uuid(SEAL_MESSAGES.enterpriseNotFound)),
});
export type SealQuery = z.infer<typeof SealQuery>;

/** One device of a seal: its readings of the day (all of them, as they stood when the seal or addendum was made). */
export const SealDevice = z.object({
  mac: z.string(),
  count: z.number().int(),
  /** ISO instants of the first and last reading; null when the device has none left (an addendum after a removal). */
  first: z.string().nullable(),
  last: z.string().nullable(),
  /** SHA-256 (hex) over the canonical rows `mac;ts;temperature;humidity;battery;lat;lng\n` in time order. */
  sha256: z.string(),
});
export type SealDevice = z.infer<typeof SealDevice>;

/** Why a seal entry was made: the day's seal, readings that arrived after it, or readings the retention removed. */
export const SealKind = z.enum(['day', 'late', 'retention']);
export type SealKind = z.infer<typeof SealKind>;

/**
 * The RFC 3161 timestamp that dates a seal entry (ADR 0091): a token from the time-stamping authority over the
 * `canonical` of this entry or of a later one of the enterprise's chain (which carries this one's hash through the
 * `prev_seal_sha256` links between them). Null while no token covers the entry (no REPORT_TSA_URL, or the TSA has
 * not answered yet).
 */
export const SealTimestamp = z.object({
  /** The chain position of the stamped entry (this entry's `seq`, or a later one). */
  seq: z.number().int(),
  /** That entry's SHA-256 (hex): the token's message imprint. */
  sha256: z.string(),
  /** When the TSA stamped (the token's genTime). */
  time: z.string(),
  /** The subject of the TSA's certificate, most specific first. */
  authority: z.string(),
  /** The TimeStampToken (CMS, DER, base64): `openssl ts -verify -token_in -digest <sha256>` checks it. */
  token: z.string(),
});
export type SealTimestamp = z.infer<typeof SealTimestamp>;

const sealFields = {
  /** The entry's position in the enterprise's chain, from 1. */
  seq: z.number().int(),
  addendum: z.number().int(),
  kind: SealKind,
  devices: z.array(SealDevice),
  prev_seal_sha256: z.string(),
  /** SHA-256 (hex) of `canonical`. */
  sha256: z.string(),
  /** Detached CMS (DER, base64) over `canonical`, with the platform's certificate. */
  signature: z.string(),
  sealed_at: z.string(),
  /** The exact text hashed and signed: date, enterprise, addendum, kind, devices, prev_seal_sha256 and sealed_at as JSON, keys sorted, no spaces. */
  canonical: z.string(),
  timestamp: SealTimestamp.nullable(),
};

export const SealAddendum = z.object(sealFields);
export type SealAddendum = z.infer<typeof SealAddendum>;

export const DaySeal = z.object({
  date: z.string(),
  /** The enterprise's id. */
  enterprise: z.string(),
  ...sealFields,
  /** Later entries of the same day, oldest first. */
  addenda: z.array(SealAddendum),
});
export type DaySeal = z.infer<typeof DaySeal>;

export const SealVerifyResult = z.object({
  date: z.string(),
  enterprise: z.string(),
  ok: z.boolean(),
  /** Devices whose stored readings no longer match their latest entry (seal or addendum) of the day. */
  differing: z.array(z.string()),
  /**
   * Per entry of the day (the seal, then its addenda): `stamped` when the token that dates it verifies (its signature,
   * its imprint equal to the stamped entry's hash) and every hash link from the entry to the stamped one holds;
   * `invalid` when either does not; `none` when no token covers the entry yet.
   */
  timestamps: z.array(
    z.object({
      addendum: z.number().int(),
      status: z.enum(['stamped', 'invalid', 'none']),
      time: z.string().nullable(),
      authority: z.string().nullable(),
    }),
  ),
});
export type SealVerifyResult = z.infer<typeof SealVerifyResult>;
