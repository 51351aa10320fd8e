/**
 * PostgreSQL array literals built by hand for the hot path: one string per column, cast in SQL
 * (`$1::int[]`). Joining a few thousand values is much cheaper than the driver's generic array
 * serialisation, and the same text works on PostgreSQL and PGlite.
 */

/** '{1,2.5,NULL}' for numbers (non-finite numbers never reach here: readings are validated first). */
export function numberArray(values: readonly (number | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    out += v === null || v === undefined ? 'NULL' : String(v);
  }
  return out + '}';
}

/** '{"a","b",NULL}' for text, uuids and timestamps, quoting every element. */
export function textArray(values: readonly (string | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    out += v === null || v === undefined ? 'NULL' : `"${v.includes('"') || v.includes('\\') ? v.replace(/[\\"]/g, '\\$&') : v}"`;
  }
  return out + '}';
}
