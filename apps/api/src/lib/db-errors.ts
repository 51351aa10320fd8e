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
