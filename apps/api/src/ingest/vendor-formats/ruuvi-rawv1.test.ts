import { describe, expect, it } from 'vitest';
import { bytesFromHex } from './advertisement';
import { decodeRawV1 } from './ruuvi-rawv1';

/**
 * The test vectors of the specification, "Test vectors" section:
 * https://github.com/ruuvi/ruuvi-sensor-protocols/blob/master/dataformat_03.md (commit 56978e4).
 */
describe('RuuviTag data format 3 (RAWv1)', () => {
  it('decodes the "valid data" vector', () => {
    expect(decodeRawV1(bytesFromHex('03291A1ECE1EFC18F94202CA0B53'))).toEqual({
      temperature: 26.3, pressure: 102766, humidity: 20.5,
      accelerationX: -1, accelerationY: -1.726, accelerationZ: 0.714, batteryMv: 2899,
    });
  });

  it('decodes the "maximum values" vector', () => {
    expect(decodeRawV1(bytesFromHex('03FF7F63FFFF7FFF7FFF7FFFFFFF'))).toEqual({
      temperature: 127.99, pressure: 115535, humidity: 127.5,
      accelerationX: 32.767, accelerationY: 32.767, accelerationZ: 32.767, batteryMv: 65535,
    });
  });

  it('decodes the "minimum values" vector; its 0 V battery is "not available" (the format sends 0 for that)', () => {
    expect(decodeRawV1(bytesFromHex('0300FF6300008001800180010000'))).toEqual({
      temperature: -127.99, pressure: 50000, humidity: 0,
      accelerationX: -32.767, accelerationY: -32.767, accelerationZ: -32.767, batteryMv: null,
    });
  });

  it('reads the temperature as sign and magnitude (the specification examples 0x8145 and 0x0145)', () => {
    const withTemperature = (hi: string, lo: string) => decodeRawV1(bytesFromHex(`0300${hi}${lo}C8000000000000000BB8`)).temperature;
    expect(withTemperature('81', '45')).toBe(-1.69);
    expect(withTemperature('01', '45')).toBe(1.69);
    expect(withTemperature('00', '00')).toBe(0);
  });
});
