import { describe, expect, it } from 'vitest';
import { encodeReadingsBinary } from './copy-readings';
import type { ReadingColumns } from './repository';

const one = (overrides: Partial<ReadingColumns>): ReadingColumns => ({
  deviceNum: [7], tsMs: [Date.parse('2026-11-22T09:00:00.123Z')], temperature: [4.5], humidity: [null], battery: [80],
  lat: [-23.5], lng: [null], travelId: ['0b3c9a8e-58f1-4c2e-9f0a-1d2e3f405162'], seq: [255], seqModulo: [256], ...overrides,
});

/** Reads back the fields of the first row (after the 19-byte header), as PostgreSQL would. */
function fields(buffer: Buffer): (Buffer | null)[] {
  let o = 19;
  const count = buffer.readInt16BE(o);
  o += 2;
  const out: (Buffer | null)[] = [];
  for (let i = 0; i < count; i++) {
    const length = buffer.readInt32BE(o);
    o += 4;
    out.push(length < 0 ? null : buffer.subarray(o, o + length));
    if (length > 0) o += length;
  }
  expect(buffer.readInt16BE(o)).toBe(-1); // trailer
  expect(o + 2).toBe(buffer.length);
  return out;
}

describe('encodeReadingsBinary (ADR 42)', () => {
  it('writes the COPY signature, one tuple of ten fields in the columns’ own types, and the trailer', () => {
    const buffer = encodeReadingsBinary(one({}));
    expect(buffer.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    const [num, ts, temperature, humidity, battery, lat, lng, travel, seq, modulo] = fields(buffer);
    expect(num!.readInt32BE(0)).toBe(7);
    // Microseconds since 2000-01-01T00:00:00Z.
    expect(ts!.readBigInt64BE(0)).toBe(BigInt(Date.parse('2026-11-22T09:00:00.123Z') - Date.parse('2000-01-01T00:00:00Z')) * 1000n);
    expect(temperature!.readFloatBE(0)).toBe(4.5);
    expect(humidity).toBeNull();
    expect(battery!.readFloatBE(0)).toBe(80);
    expect(lat!.readDoubleBE(0)).toBe(-23.5);
    expect(lng).toBeNull();
    expect(travel!.toString('hex')).toBe('0b3c9a8e58f14c2e9f0a1d2e3f405162');
    expect(seq!.readInt32BE(0)).toBe(255);
    expect(modulo!.readInt32BE(0)).toBe(256);
  });

  it('writes times before 2000 and far ahead exactly (two 32-bit halves, no BigInt)', () => {
    for (const iso of ['1999-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '2100-06-30T12:34:56.789Z']) {
      const [, ts] = fields(encodeReadingsBinary(one({ tsMs: [Date.parse(iso)] })));
      expect(ts!.readBigInt64BE(0), iso).toBe(BigInt(Date.parse(iso) - Date.parse('2000-01-01T00:00:00Z')) * 1000n);
    }
  });

  it('refuses a travel id that is not a uuid rather than writing garbage', () => {
    expect(() => encodeReadingsBinary(one({ travelId: ['not-a-uuid'] }))).toThrow('not a uuid');
  });
});
