import { describe, expect, it } from 'vitest';
import { bytesFromHex } from './advertisement';
import { decodeTlm } from './eddystone-tlm';

/**
 * Specification: https://github.com/google/eddystone/blob/master/eddystone-tlm/tlm-plain.md (commit bb8738d).
 * The specification has no vectors of its own; these are the frames of Google's Eddystone validator tests
 * (tools/eddystone-validator/…/TlmValidatorTest.java: 0x1388 = 5000 mV, 0x1500 = 21 °C, counters 1) and the
 * field notes of the specification (0 mV and 0x8000 mean "not supported").
 */
describe('Eddystone-TLM (unencrypted)', () => {
  it("decodes the validator's frame", () => {
    expect(decodeTlm(bytesFromHex('20001388150000000001' + '00000001'))).toEqual({ batteryMv: 5000, temperature: 21, advCount: 1, uptimeSeconds: 0.1 });
  });

  it('reads the temperature as signed 8.8 fixed point', () => {
    const temperature = (hex: string) => decodeTlm(bytesFromHex(`20000BB8${hex}0000000000000000`)).temperature;
    expect(temperature('FF00')).toBe(-1); // the validator's "-1 °C"
    expect(temperature('1E80')).toBe(30.5);
    expect(temperature('FE80')).toBe(-1.5);
    expect(temperature('0001')).toBe(1 / 256);
  });

  it('gives no temperature for 0x8000 and no battery for 0 mV ("not supported")', () => {
    expect(decodeTlm(bytesFromHex('2000000080000000000100000001'))).toMatchObject({ batteryMv: null, temperature: null });
  });

  it('refuses another version (encrypted TLM is 0x01) and a short frame', () => {
    expect(() => decodeTlm(bytesFromHex('2001138815000000000100000001'))).toThrow(RangeError);
    expect(() => decodeTlm(bytesFromHex('200013881500'))).toThrow(RangeError);
  });
});
