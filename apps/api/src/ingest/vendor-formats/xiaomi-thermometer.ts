import { be, le, macFromBytes } from './advertisement';

/**
 * The Xiaomi LYWSD03MMC thermometer (and its siblings) on the widely used custom firmware of atc1441 / pvvx, which
 * advertises plain service data of the Environmental Sensing UUID 0x181A. Two layouts, told apart by length
 * (https://github.com/pvvx/ATC_MiThermometer#custom-format-all-data-little-endian):
 * - pvvx "custom" (15 bytes after the UUID, little-endian): MAC (least significant byte first), temperature int16 in
 *   0.01 °C, humidity uint16 in 0.01 %, battery mV, battery %, measurement counter, flags;
 * - atc1441 (13 bytes, big-endian, https://github.com/atc1441/ATC_MiThermometer#advertising-format-of-the-custom-firmware):
 *   MAC, temperature int16 in 0.1 °C, humidity %, battery %, battery mV, frame counter.
 * Neither layout has "not available" values. The counters are one byte: modulo 256.
 */
export const ENVIRONMENTAL_SENSING_UUID = 0x181a;
export const PVVX_LENGTH = 15;
export const ATC1441_LENGTH = 13;
export const XIAOMI_SEQ_MODULO = 256;

export interface XiaomiThermometer {
  layout: 'pvvx' | 'atc1441';
  mac: string;
  temperature: number;
  humidity: number;
  batteryMv: number;
  /** The firmware's own battery estimate (Sentinela shows its curve of batteryMv instead, ADR 33). */
  batteryPercent: number;
  /** Measurement (pvvx) or frame (atc1441) counter, modulo 256. */
  counter: number;
}

/** `data` is the service data after the UUID. */
export function decodeXiaomiThermometer(data: Uint8Array): XiaomiThermometer {
  if (data.length === PVVX_LENGTH) {
    return {
      layout: 'pvvx',
      mac: macFromBytes(Uint8Array.from(data.subarray(0, 6)).reverse()),
      temperature: le.i16(data, 6) / 100,
      humidity: le.u16(data, 8) / 100,
      batteryMv: le.u16(data, 10),
      batteryPercent: data[12]!,
      counter: data[13]!,
    };
  }
  if (data.length === ATC1441_LENGTH) {
    return {
      layout: 'atc1441',
      mac: macFromBytes(data.subarray(0, 6)),
      temperature: be.i16(data, 6) / 10,
      humidity: data[8]!,
      batteryPercent: data[9]!,
      batteryMv: be.u16(data, 10),
      counter: data[12]!,
    };
  }
  throw new RangeError('not a pvvx or atc1441 payload');
}
