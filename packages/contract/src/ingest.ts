import { z } from './zod-locale';

/**
 * Readings sent by gateways (D5), over HTTP (`POST /api/ingest/readings`) or MQTT (`devices/{mac}/readings`).
 * The body is not validated as a whole: each reading is checked on its own, so one bad reading is rejected
 * with a reason while the rest of the batch is stored.
 */
export const INGEST_MAX_BATCH = 5000;

/** One reading as a gateway sends it; every value but `mac` and `ts` may be absent. */
export interface IngestReading {
  mac: string;
  /** ISO-8601 instant with its offset, e.g. 2026-11-22T09:00:00Z. */
  ts: string;
  temperature?: number | null;
  humidity?: number | null;
  battery?: number | null;
  lat?: number | null;
  lng?: number | null;
  /** The sensor's 16-bit sequence counter (ADR 35). */
  seq?: number | null;
  /** The firmware version the device runs, e.g. "1.4.2" (at most 32 letters, digits, ".", "-", "_", "+"). */
  fw?: string | null;
}

/** Why a reading was rejected; `reason` is the pt-BR text, `code` the stable identifier. */
export const INGEST_REJECTION_CODES = [
  'invalid_reading',
  'invalid_mac',
  'mac_mismatch',
  'invalid_ts',
  'future_ts',
  'old_ts',
  'invalid_value',
  'out_of_range',
  // Also a device of another enterprise: ingestion never tells whether a MAC exists outside the gateway's reach.
  'unknown_device',
  'gateway_revoked',
  'invalid_topic',
  'invalid_payload',
  // Valid, yet refused by the database (a defect of validation, logged): the rest of its batch is stored.
  'not_stored',
  // Vendor formats (ADR 33): a gateway relaying raw advertisements, one rejection per tag.
  'malformed_hex',
  'truncated_advertisement',
  'unknown_manufacturer',
  'unsupported_format',
  'invalid_coordinates',
  // MQTT (ADR 52): a message over its gateway key's quota, or of the heaviest gateway while the server was overloaded,
  // acknowledged without being stored (one per message). Over HTTP the same refusal is a 429 or 503 with Retry-After.
  'throttled',
] as const;
export type IngestRejectionCode = (typeof INGEST_REJECTION_CODES)[number];

export const IngestRejection = z.object({
  index: z.number().int(),
  mac: z.string().nullable(),
  code: z.enum(INGEST_REJECTION_CODES),
  reason: z.string(),
});
export type IngestRejection = z.infer<typeof IngestRejection>;

export const IngestResponse = z.object({
  /** Readings stored by this batch. */
  accepted: z.number().int(),
  /** Valid readings already stored before (same device and time), or repeated within the batch. */
  duplicates: z.number().int(),
  rejected: z.array(IngestRejection),
});
export type IngestResponse = z.infer<typeof IngestResponse>;
