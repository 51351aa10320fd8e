import { describe, expect, it } from 'vitest';
import { bytesFromHex, hexFromBytes } from './advertisement';
import { decodeRawV2, encodeRawV2, rawV2AdvertisementHex } from './ruuvi-rawv2';

/**
 * The test vectors of the specification, "Test vectors" section:
 * https://github.com/ruuvi/ruuvi-sensor-protocols/blob/master/dataformat_05.md (commit 56978e4).
 * "The tests are bidirectional, decode-encode results in original raw data."
 */
const VALID = '0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F';
const MAXIMUM = '057FFFFFFEFFFE7FFF7FFF7FFFFFDEFEFFFECBB8334C884F';
const MINIMUM = '058001000000008001800180010000000000CBB8334C884F';
const INVALID = '058000FFFFFFFF800080008000FFFFFFFFFFFFFFFFFFFFFF';

describe('RuuviTag data format 5 (RAWv2)', () => {
  it('decodes the "valid data" vector', () => {
    expect(decodeRawV2(bytesFromHex(VALID))).toEqual({
      temperature: 24.3, pressure: 100044, humidity: 53.49,
      accelerationX: 0.004, accelerationY: -0.004, accelerationZ: 1.036,
      txPower: 4, batteryMv: 2977, movement: 66, seq: 205, mac: 'CB:B8:33:4C:88:4F',
    });
  });

  it('decodes the "maximum values" vector', () => {
    expect(decodeRawV2(bytesFromHex(MAXIMUM))).toEqual({
      temperature: 163.835, pressure: 115534, humidity: 163.835,
      accelerationX: 32.767, accelerationY: 32.767, accelerationZ: 32.767,
      txPower: 20, batteryMv: 3646, movement: 254, seq: 65534, mac: 'CB:B8:33:4C:88:4F',
    });
  });

  it('decodes the "minimum values" vector', () => {
    expect(decodeRawV2(bytesFromHex(MINIMUM))).toEqual({
      temperature: -163.835, pressure: 50000, humidity: 0,
      accelerationX: -32.767, accelerationY: -32.767, accelerationZ: -32.767,
      txPower: -40, batteryMv: 1600, movement: 0, seq: 0, mac: 'CB:B8:33:4C:88:4F',
    });
  });

  it('decodes every field of the "invalid values" vector as absent, never as a number', () => {
    expect(decodeRawV2(bytesFromHex(INVALID))).toEqual({
      temperature: null, pressure: null, humidity: null,
      accelerationX: null, accelerationY: null, accelerationZ: null,
      txPower: null, batteryMv: null, movement: null, seq: null, mac: null,
    });
  });

  it('encodes each vector back to its original bytes (the specification tests both ways)', () => {
    for (const vector of [VALID, MAXIMUM, MINIMUM, INVALID]) {
      expect(hexFromBytes(encodeRawV2(decodeRawV2(bytesFromHex(vector))))).toBe(vector);
    }
  });

  it('decodes what it encodes, and refuses values the format cannot carry', () => {
    const values = { temperature: -18.5, humidity: 61.25, pressure: 101325, batteryMv: 3001, txPower: 4, movement: 7, seq: 65000, mac: 'C3:00:00:00:01:04' };
    expect(decodeRawV2(encodeRawV2(values))).toMatchObject(values);
    expect(() => encodeRawV2({ temperature: 170 })).toThrow(RangeError);
    expect(() => encodeRawV2({ seq: 65535 })).toThrow(RangeError);
    expect(() => encodeRawV2({ txPower: 3 })).toThrow(RangeError);
  });

  it('builds the advertisement a tag sends: flags, then manufacturer data 0x0499', () => {
    expect(rawV2AdvertisementHex(decodeRawV2(bytesFromHex(VALID)))).toBe(`0201061BFF9904${VALID}`);
  });

  it('refuses a payload shorter than 24 bytes', () => {
    expect(() => decodeRawV2(bytesFromHex(VALID.slice(0, 40)))).toThrow(RangeError);
  });
});
