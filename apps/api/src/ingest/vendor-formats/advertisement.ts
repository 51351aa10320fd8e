/**
 * A BLE advertisement as gateways relay it: the advertising data (AD) in hex, a sequence of AD structures
 * `[length][type][data…]` (Bluetooth Core Specification, Vol 3, Part C, §11). Ruuvi Gateway sends exactly this in
 * its `data` field, e.g. `0201061BFF9904…` (flags, then manufacturer-specific data).
 */

export type AdvertisementProblem = 'malformed_hex' | 'truncated_advertisement';

export class AdvertisementError extends Error {
  constructor(readonly problem: AdvertisementProblem) {
    super(problem);
  }
}

/** AD types used by the formats Sentinela decodes (Bluetooth Assigned Numbers, "Common Data Types"). */
export const AD_TYPE = {
  serviceData16: 0x16,
  manufacturerSpecific: 0xff,
} as const;

/** A full legacy advertisement is 31 bytes, an extended one at most 254 (Core Specification Vol 6, Part B, §2.3.4.9). */
export const MAX_ADVERTISEMENT_BYTES = 254;

export interface AdStructure {
  type: number;
  data: Uint8Array;
}

const HEX = /^[0-9a-fA-F]*$/;

/** Bytes of a hex string (no separators, even length, at most MAX_ADVERTISEMENT_BYTES). */
export function bytesFromHex(hex: unknown): Uint8Array {
  if (typeof hex !== 'string' || hex.length === 0 || hex.length % 2 !== 0 || hex.length > MAX_ADVERTISEMENT_BYTES * 2 || !HEX.test(hex)) {
    throw new AdvertisementError('malformed_hex');
  }
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function hexFromBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

/**
 * The AD structures of an advertisement. A length byte of 0 ends the data early (padding, allowed by the
 * specification); a structure running past the end is a truncated advertisement.
 */
export function adStructures(bytes: Uint8Array): AdStructure[] {
  const out: AdStructure[] = [];
  let i = 0;
  while (i < bytes.length) {
    const length = bytes[i]!;
    if (length === 0) break;
    if (i + 1 + length > bytes.length) throw new AdvertisementError('truncated_advertisement');
    out.push({ type: bytes[i + 1]!, data: bytes.subarray(i + 2, i + 1 + length) });
    i += 1 + length;
  }
  return out;
}

/** Big-endian readers over a payload whose length the caller has checked. */
export const be = {
  u8: (b: Uint8Array, i: number) => b[i]!,
  u16: (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!,
  i16: (b: Uint8Array, i: number) => ((b[i]! << 8) | b[i + 1]!) << 16 >> 16,
  u32: (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!,
};

/** Little-endian readers (the pvvx custom format is little-endian). */
export const le = {
  u16: (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8),
  i16: (b: Uint8Array, i: number) => ((b[i]! | (b[i + 1]! << 8)) << 16) >> 16,
};

/** A MAC as AA:BB:CC:DD:EE:FF from six bytes, most significant first. */
export function macFromBytes(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0').toUpperCase()).join(':');
}
