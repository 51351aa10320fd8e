import { describe, expect, it } from 'vitest';
import { normalizeMac, parseInstant, validateReading } from './reading-validator';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('normalizeMac', () => {
  it.each([
    ['C3:00:00:00:01:01', 'C3:00:00:00:01:01'],
    ['c3:00:00:00:01:0a', 'C3:00:00:00:01:0A'],
    ['C3-00-00-00-01-01', 'C3:00:00:00:01:01'],
    ['c30000000101', 'C3:00:00:00:01:01'],
    [' C3:00:00:00:01:01 ', 'C3:00:00:00:01:01'],
  ])('%s → %s', (input, expected) => expect(normalizeMac(input)).toBe(expected));

  it.each(['C3:00:00:00:01', 'G3:00:00:00:01:01', '', 42, null])('refuses %s', (input) => expect(normalizeMac(input)).toBeNull());
});

describe('parseInstant', () => {
  it('needs an explicit offset and a real calendar date', () => {
    expect(parseInstant('2026-11-22T09:00:00Z')).toBe(Date.parse('2026-11-22T09:00:00Z'));
    expect(parseInstant('2026-11-22T09:00:00.123-03:00')).toBe(Date.parse('2026-11-22T12:00:00.123Z'));
    expect(parseInstant('2026-11-22T09:00:00')).toBeNaN();
    expect(parseInstant('2026-02-30T09:00:00Z')).toBeNaN();
    // The canonical form has its own fast reading: same answers.
    expect(parseInstant('2026-11-22T09:00:00.123Z')).toBe(Date.parse('2026-11-22T09:00:00.123Z'));
    expect(parseInstant('2028-02-29T23:59:59.999Z')).toBe(Date.parse('2028-02-29T23:59:59.999Z'));
    expect(parseInstant('2026-02-29T09:00:00.000Z')).toBeNaN();
    expect(parseInstant('2026-11-31T09:00:00.000Z')).toBeNaN();
    expect(parseInstant('2026-11-22T24:00:00.000Z')).toBeNaN();
    expect(parseInstant('2026-11-22T24:00:00Z')).toBeNaN();
    expect(parseInstant('2026-13-22T09:00:00.000Z')).toBeNaN();
    expect(parseInstant('2026-11-22T09:60:00.000Z')).toBeNaN();
    expect(parseInstant('2026-11-2xT09:00:00.000Z')).toBeNaN();
    expect(parseInstant('ontem')).toBeNaN();
  });
});

describe('validateReading', () => {
  it('keeps what is present and leaves the rest null', () => {
    expect(validateReading({ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', temperature: 4.25 }, 3, NOW)).toEqual({
      index: 3, mac: 'C3:00:00:00:01:01', ts: Date.parse('2026-11-22T11:59:00Z'), temperature: 4.25, humidity: null, battery: null, lat: null, lng: null,
      seq: null, seqModulo: null, fw: null,
    });
  });

  it('reads the optional 16-bit sequence counter (ADR 0035)', () => {
    const reading = (seq: unknown) => validateReading({ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', seq }, 0, NOW);
    expect(reading(0)).toMatchObject({ seq: 0, seqModulo: 65_536 });
    expect(reading(65_535)).toMatchObject({ seq: 65_535, seqModulo: 65_536 });
    expect(reading(null)).toMatchObject({ seq: null, seqModulo: null });
    for (const bad of [65_536, -1, 2.5, '1', Number.NaN, true]) {
      expect(reading(bad), String(bad)).toMatchObject({ code: 'invalid_value', reason: 'Contador de sequência inválido: esperado um inteiro de 0 a 65535.' });
    }
  });

  it("checks a vendor format's counter against the modulus it is given, and keeps none without one", () => {
    const reading = (seq: unknown, modulus: number | null) => validateReading({ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', seq }, 0, NOW, undefined, modulus);
    expect(reading(255, 256)).toMatchObject({ seq: 255, seqModulo: 256 });
    expect(reading(256, 256)).toMatchObject({ code: 'invalid_value', reason: 'Contador de sequência inválido: esperado um inteiro de 0 a 255.' });
    expect(reading(65_534, 65_535)).toMatchObject({ seq: 65_534, seqModulo: 65_535 });
    expect(reading(7, null)).toMatchObject({ seq: null, seqModulo: null });
    expect(reading(null, 256)).toMatchObject({ seq: null, seqModulo: null });
  });

  it('accepts the physical limits themselves and up to 5 minutes ahead', () => {
    const ok = validateReading({ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T12:05:00Z', temperature: -80, humidity: 100, battery: 0, lat: -90, lng: 180 }, 0, NOW);
    expect(ok).toMatchObject({ temperature: -80, humidity: 100, battery: 0, lat: -90, lng: 180 });
    expect(validateReading({ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T12:05:00.001Z' }, 0, NOW)).toMatchObject({ code: 'future_ts' });
    expect(validateReading({ mac: 'C3:00:00:00:01:01', ts: '2025-11-01T00:00:00Z' }, 0, NOW)).toMatchObject({ code: 'old_ts' });
  });

  it('takes the MQTT topic MAC, and refuses a different one', () => {
    expect(validateReading({ ts: '2026-11-22T11:59:00Z' }, 0, NOW, 'C3:00:00:00:01:01')).toMatchObject({ mac: 'C3:00:00:00:01:01' });
    expect(validateReading({ mac: 'C3:00:00:00:01:02', ts: '2026-11-22T11:59:00Z' }, 0, NOW, 'C3:00:00:00:01:01')).toMatchObject({ code: 'mac_mismatch' });
  });

  it.each([
    [{ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', battery: 101 }, 'out_of_range'],
    [{ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', lat: 91, lng: 0 }, 'out_of_range'],
    [{ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', lng: -181, lat: 0 }, 'out_of_range'],
    [{ mac: 'C3:00:00:00:01:01', ts: '2026-11-22T11:59:00Z', humidity: Number.NaN }, 'invalid_value'],
    [{ mac: 'C3:00:00:00:01:01', ts: 1795338000000 }, 'invalid_ts'],
    [[], 'invalid_reading'],
  ])('%j is rejected as %s', (raw, code) => expect(validateReading(raw, 0, NOW)).toMatchObject({ code }));
});

describe('values the columns cannot hold', () => {
  const ts = '2026-11-22T11:59:00Z';
  it.each([
    [{ temperature: 1e-50 }, 'invalid_value'],
    [{ humidity: 1e-45 }, 'invalid_value'],
    [{ battery: 5e-324 }, 'invalid_value'],
    [{ lat: 1e-300, lng: 1 }, 'invalid_value'],
    [{ temperature: 1e300 }, 'out_of_range'],
  ])('%o → %s (the contract\'s measure bounds)', (values, code) => {
    expect(validateReading({ mac: 'C3:00:00:00:01:01', ts, ...values }, 0, NOW)).toMatchObject({ code });
  });

  it('echoes a MAC only when it is text a column can hold', () => {
    expect(validateReading({ mac: 'AA\u0000BB', ts }, 0, NOW)).toMatchObject({ code: 'invalid_mac', mac: null });
    expect(validateReading({ mac: '\uD800', ts }, 0, NOW)).toMatchObject({ code: 'invalid_mac', mac: null });
    expect(validateReading({ mac: 'x'.repeat(65), ts }, 0, NOW)).toMatchObject({ code: 'invalid_mac', mac: null });
    expect(validateReading({ mac: 'not-a-mac', ts }, 0, NOW)).toMatchObject({ code: 'invalid_mac', mac: 'not-a-mac' });
  });
});
