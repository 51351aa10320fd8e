/**
 * True when `error` is PostgreSQL's unique violation (23505) on the named constraint or index.
 * pg reports the name in `constraint`; PGlite may only have it in the message, so both are read.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code !== '23505') return false;
  return e.constraint === constraint || (typeof e.message === 'string' && e.message.includes(`"${constraint}"`));
}

/** An error raised by PostgreSQL (pg's and PGlite's DatabaseError alike): a five-character SQLSTATE and a severity. */
export interface PostgresError {
  code: string;
  severity: string;
  message: string;
  table?: string;
  column?: string;
  constraint?: string;
}

export function isPostgresError(error: unknown): error is PostgresError {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; severity?: unknown };
  return typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

/** Integrity errors a request can cause with its values: a reference to no row, a check or a missing value. */
const REQUEST_INTEGRITY_CODES = new Set(['23502', '23503', '23514']);

/**
 * Why the database refused a value the request brought, or null for any other failure: 'data' for class 22
 * (a number out of range, a NUL in text, an impossible date, a malformed uuid…), 'integrity' for a reference,
 * check or not-null violation. Either means a schema let through what it should have refused.
 */
export function refusedValue(error: unknown): 'data' | 'integrity' | null {
  if (!isPostgresError(error)) return null;
  if (error.code.startsWith('22')) return 'data';
  if (REQUEST_INTEGRITY_CODES.has(error.code)) return 'integrity';
  return null;
}

/**
 * True when PostgreSQL refused the data itself (class 22, data exception, or 23, integrity constraint): the same
 * statement with other values would have worked, so it is worth retrying without the offending rows. A lost
 * connection, a shutdown or a full disk is not: retrying part by part would only fail again, slower.
 */
export function refusedByData(error: unknown): boolean {
  return isPostgresError(error) && (error.code.startsWith('22') || error.code.startsWith('23'));
}

/**
 * True when the database could not be reached or is going away (connection errors, class 08; too many connections or
 * out of resources, 53; shutdown, 57; system errors, 58; and the driver's own socket errors): nothing any batch could
 * do differently, so nothing is retried piece by piece; the caller's messages stay unacknowledged and come back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isPostgresError(error)) return /^(08|53|57|58)/.test(error.code);
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return true; // ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT…
  return typeof e.message === 'string' && /connection|terminat|timeout|closed|ended/i.test(e.message);
}

/** The SQLSTATE of the audit trigger's refusal of a change that needs a reason in GxP mode (ADR 0061). */
export const REASON_REQUIRED_SQLSTATE = 'SNR01';

export function isReasonRequired(error: unknown): boolean {
  return isPostgresError(error) && error.code === REASON_REQUIRED_SQLSTATE;
}
