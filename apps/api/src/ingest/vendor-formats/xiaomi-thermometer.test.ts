import { describe, expect, it } from 'vitest';
import { bytesFromHex } from './advertisement';
import { decodeXiaomiThermometer } from './xiaomi-thermometer';

/**
 * Layouts: https://github.com/pvvx/ATC_MiThermometer#custom-format-all-data-little-endian (commit 7363cc8) and
 * https://github.com/atc1441/ATC_MiThermometer#advertising-format-of-the-custom-firmware. The firmware publishes no
 * vectors; these are the captured advertisements of Home Assistant's BLE monitor tests
 * (custom-components/ble_monitor, custom_components/ble_monitor/test/test_atc_parser.py), service data after 0x181A.
 */
describe('Xiaomi LYWSD03MMC on custom firmware (service data 0x181A)', () => {
  it('decodes the pvvx custom layout (test_atc_custom_v2_9)', () => {
    expect(decodeXiaomiThermometer(bytesFromHex('B2188D38C1A42B089011F70A43200F'))).toEqual({
      layout: 'pvvx', mac: 'A4:C1:38:8D:18:B2', temperature: 20.91, humidity: 44.96, batteryMv: 2807, batteryPercent: 67, counter: 32,
    });
  });

  it('decodes the pvvx custom layout (test_atc_custom)', () => {
    expect(decodeXiaomiThermometer(bytesFromHex('F4830238C1A4A9066911B60B58F70D'))).toMatchObject({
      layout: 'pvvx', mac: 'A4:C1:38:02:83:F4', temperature: 17.05, humidity: 44.57, batteryMv: 2998, batteryPercent: 88, counter: 247,
    });
  });

  it('decodes the atc1441 layout (test_atc_atc1441)', () => {
    expect(decodeXiaomiThermometer(bytesFromHex('A4C1380283F400A22F5F0BF819'))).toEqual({
      layout: 'atc1441', mac: 'A4:C1:38:02:83:F4', temperature: 16.2, humidity: 47, batteryPercent: 95, batteryMv: 3064, counter: 25,
    });
  });

  it('reads a negative temperature in both layouts', () => {
    expect(decodeXiaomiThermometer(bytesFromHex('B2188D38C1A418FC9011F70A43200F')).temperature).toBe(-10);
    expect(decodeXiaomiThermometer(bytesFromHex('A4C1380283F4FF9C2F5F0BF819')).temperature).toBe(-10);
  });

  it('refuses another length', () => {
    expect(() => decodeXiaomiThermometer(bytesFromHex('A4C1380283F400A22F'))).toThrow(RangeError);
  });
});
