import { randomInt } from 'node:crypto';

/**
 * Tracking codes (T8): whoever holds one follows the travel on /localizator, so a code must not be guessable.
 * 10 characters from an alphabet without look-alikes (no 0/O, 1/I/L) give 31^10 ≈ 8·10^14 codes, drawn with a
 * cryptographic generator; together with the rate limit of the lookup, guessing a live code is hopeless.
 */
export const TRAVEL_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const TRAVEL_CODE_LENGTH = 10;

export function newTravelCode(): string {
  let code = '';
  for (let i = 0; i < TRAVEL_CODE_LENGTH; i++) code += TRAVEL_CODE_ALPHABET[randomInt(TRAVEL_CODE_ALPHABET.length)];
  return code;
}

/** What a person typed: case, spaces and dashes do not matter (codes are read aloud and copied from labels). */
export function normalizeTravelCode(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}
