import { firmwareVersionNumber } from '@sentinela/contract';

/** The documents' mask 9.9.9 as the user types: digits only, three at most, dots put in between. */
export function maskVersion(text: string): string {
  return text.replace(/\D/g, '').slice(0, 3).split('').join('.');
}

/**
 * The current version's rule, as the server also applies it: the new version must be above the highest one,
 * compared part by part (never as text).
 */
export function isAboveCurrent(version: string, current: string | null | undefined): boolean {
  const next = firmwareVersionNumber(version);
  if (next === null) return false;
  const highest = current ? firmwareVersionNumber(current) : null;
  return highest === null || next > highest;
}
