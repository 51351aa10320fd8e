import { describe, expect, it } from 'vitest';
import { decodeAdvertisement, DecodeError, type DecodeProblem } from './registry';

/** Whole advertisements as a Ruuvi Gateway relays them (its documentation's examples and the formats' vectors). */
const problem = (hex: unknown): DecodeProblem | undefined => {
  try {
    decodeAdvertisement(hex);
    return undefined;
  } catch (err) {
    if (err instanceof DecodeError) return err.problem;
    throw err;
  }
};

describe('vendor format registry', () => {
  it("decodes the Ruuvi Gateway documentation's example (RAWv2 after the flags)", () => {
    // https://github.com/ruuvi/docs, data-formats/http-time-stamped-data-from-bluetooth-sensors.md
    expect(decodeAdvertisement('0201061BFF99040513C85714C7CC00240008041CAB76F41C3CC6A5B9E0AD06')).toEqual({
      format: 'ruuvi-rawv2', sensor: 'ruuvitag', temperature: 25.32, humidity: 55.73, pressure: 101148,
      batteryMv: 2971, batteryPercent: 94, movement: 244, seq: 7228, seqModulo: 65535,
    });
  });

  it('decodes RAWv1, Eddystone-TLM and the Xiaomi layouts from their AD structures', () => {
    expect(decodeAdvertisement('02010611FF990403291A1ECE1EFC18F94202CA0B53')).toMatchObject({ format: 'ruuvi-rawv1', temperature: 26.3, humidity: 20.5, batteryMv: 2899, seq: null, seqModulo: null });
    // ble_monitor's test_eddystone_tlm: 3183 mV, 30.0 °C
    expect(decodeAdvertisement('0201060303AAFE1116AAFE20000C6F1E000002006D41DB9AB6')).toMatchObject({ format: 'eddystone-tlm', temperature: 30, humidity: null, batteryMv: 3183, batteryPercent: 100, seq: null });
    expect(decodeAdvertisement('02010612161A18B2188D38C1A42B089011F70A43200F')).toMatchObject({ format: 'xiaomi-pvvx', temperature: 20.91, humidity: 44.96, batteryMv: 2807, seq: 32, seqModulo: 256 });
    expect(decodeAdvertisement('10161A18A4C1380283F400A22F5F0BF819')).toMatchObject({ format: 'xiaomi-atc1441', temperature: 16.2, humidity: 47, seq: 25, seqModulo: 256 });
  });

  it('gives absent values, not numbers, for the RAWv2 "invalid values" vector', () => {
    expect(decodeAdvertisement('0201061BFF9904058000FFFFFFFF800080008000FFFFFFFFFFFFFFFFFFFFFF')).toEqual({
      format: 'ruuvi-rawv2', sensor: 'ruuvitag', temperature: null, humidity: null, pressure: null,
      batteryMv: null, batteryPercent: null, movement: null, seq: null, seqModulo: null,
    });
  });

  it('names what is wrong with an advertisement it cannot decode', () => {
    expect(problem('0201061BFF99040512FC5394C37C0004FFFC040CAC364200CDCBB8334C88')).toBe('truncated_advertisement'); // a structure past the end
    expect(problem('020106')).toBe('unknown_manufacturer');
    expect(problem('0201060BFF99040512FC5394C37C00')).toBe('truncated_advertisement'); // complete structure, short payload
    expect(problem('0201061BFF4C000512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F')).toBe('unknown_manufacturer'); // Apple's id
    expect(problem('0201060FFF9904060000000000000000000000')).toBe('unsupported_format'); // Ruuvi, format 6
    expect(problem('0201060303AAFE0B16AAFE10F8037275757669')).toBe('unsupported_format'); // Eddystone-URL
    expect(problem('0201061BFF9904ZZ')).toBe('malformed_hex');
    expect(problem('020106F')).toBe('malformed_hex');
    expect(problem('')).toBe('malformed_hex');
    expect(problem(42)).toBe('malformed_hex');
    expect(problem('00'.repeat(300))).toBe('malformed_hex');
  });
});
