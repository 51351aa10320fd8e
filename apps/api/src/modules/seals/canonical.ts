import { createHash } from 'node:crypto';
import type { SealDevice, SealKind } from '@sentinela/contract';

/**
 * The canonical texts of a seal (ADR 0080): what is hashed, and what an auditor recomputes with any JSON tool.
 */

export const sha256Hex = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** SHA-256 of nothing: the rows of a device with no reading left in the day. */
export const EMPTY_SHA256 = sha256Hex('');

/** JSON with every object's keys sorted and no spaces: one text per value, whoever serialises it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A reading as the database writes its text (`::text`): shortest round-trip numbers, microsecond UTC instants. */
export interface CanonicalRow {
  ts: string;
  temperature: string | null;
  humidity: string | null;
  battery: string | null;
  lat: string | null;
  lng: string | null;
}

/** One line per reading, `mac;ts;temperature;humidity;battery;lat;lng\n`, empty for a missing value. */
export const canonicalLine = (mac: string, r: CanonicalRow) =>
  `${mac};${r.ts};${r.temperature ?? ''};${r.humidity ?? ''};${r.battery ?? ''};${r.lat ?? ''};${r.lng ?? ''}\n`;

/** A device's entry from its rows of the day, in time order. */
export function deviceEntry(mac: string, rows: readonly (CanonicalRow & { at: Date })[]): SealDevice {
  const hash = createHash('sha256');
  for (const row of rows) hash.update(canonicalLine(mac, row));
  return {
    mac,
    count: rows.length,
    first: rows.length > 0 ? rows[0]!.at.toISOString() : null,
    last: rows.length > 0 ? rows[rows.length - 1]!.at.toISOString() : null,
    sha256: hash.digest('hex'),
  };
}

export const sameEntry = (a: SealDevice, b: SealDevice) => a.sha256 === b.sha256 && a.count === b.count && a.first === b.first && a.last === b.last;

/** The signed text of a seal or addendum. */
export function sealCanonical(seal: {
  date: string;
  enterprise: string;
  addendum: number;
  kind: SealKind;
  devices: readonly SealDevice[];
  prev_seal_sha256: string;
  sealed_at: string;
}): string {
  return canonicalJson(seal);
}
