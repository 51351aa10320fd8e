import { be, macFromBytes } from './advertisement';

/**
 * RuuviTag data format 5 ("RAWv2"), the manufacturer-specific data of RuuviTag firmware 2.x and 3.x after the
 * company id 0x0499. Specification: https://github.com/ruuvi/ruuvi-sensor-protocols/blob/master/dataformat_05.md
 * (also docs.ruuvi.com, "Data format 5"). 24 bytes, all fields MSB first; "not available" is the largest value of an
 * unsigned field, the smallest of a signed one and all bits set for the MAC: those become null, never numbers.
 */
export const RAWV2_FORMAT = 5;
export const RAWV2_LENGTH = 24;
/** The measurement sequence counter counts 0…65534 and wraps; 65535 means "not available". */
export const RAWV2_SEQ_MODULO = 65535;

export interface RuuviRawV2 {
  /** °C, 0.005 steps. */
  temperature: number | null;
  /** %RH, 0.0025 steps (values above 100 % mean a faulty or miscalibrated sensor). */
  humidity: number | null;
  /** Pa. */
  pressure: number | null;
  /** g, per axis. */
  accelerationX: number | null;
  accelerationY: number | null;
  accelerationZ: number | null;
  /** Battery voltage, mV. */
  batteryMv: number | null;
  /** dBm. */
  txPower: number | null;
  /** Movement counter, 0…254, wraps. */
  movement: number | null;
  /** Measurement sequence number, 0…65534, wraps. */
  seq: number | null;
  mac: string | null;
}

const I16_INVALID = -32768;

/** `payload` starts at the data format byte (5), after the company id. */
export function decodeRawV2(payload: Uint8Array): RuuviRawV2 {
  if (payload.length < RAWV2_LENGTH || payload[0] !== RAWV2_FORMAT) throw new RangeError('not a complete RAWv2 payload');
  const t = be.i16(payload, 1);
  const h = be.u16(payload, 3);
  const p = be.u16(payload, 5);
  const acc = (i: number) => {
    const v = be.i16(payload, i);
    return v === I16_INVALID ? null : v / 1000;
  };
  const power = be.u16(payload, 13);
  const voltage = power >>> 5;
  const tx = power & 0x1f;
  const movement = payload[15]!;
  const seq = be.u16(payload, 16);
  const macBytes = payload.subarray(18, 24);
  return {
    // t * 0.005 written as a division by 200: 4860 * 0.005 is 24.300000000000001, 4860 / 200 is 24.3.
    temperature: t === I16_INVALID ? null : t / 200,
    humidity: h === 0xffff ? null : h / 400,
    pressure: p === 0xffff ? null : p + 50_000,
    accelerationX: acc(7),
    accelerationY: acc(9),
    accelerationZ: acc(11),
    batteryMv: voltage === 0x7ff ? null : voltage + 1600,
    txPower: tx === 0x1f ? null : tx * 2 - 40,
    movement: movement === 0xff ? null : movement,
    seq: seq === 0xffff ? null : seq,
    mac: macBytes.every((b) => b === 0xff) ? null : macFromBytes(macBytes),
  };
}

/** The fields of an encoded RAWv2 payload; absent (null or omitted) fields are sent as "not available". */
export type RuuviRawV2Input = Partial<RuuviRawV2>;

function field(value: number | null | undefined, encode: (v: number) => number, min: number, max: number, invalid: number, name: string): number {
  if (value === null || value === undefined) return invalid;
  const raw = encode(value);
  if (!Number.isFinite(raw) || raw < min || raw > max) throw new RangeError(`RAWv2 ${name} out of range: ${value}`);
  return raw;
}

/**
 * The 24-byte RAWv2 payload of these values: the inverse of decodeRawV2 (round trips for tests, and the demo
 * simulator sends some of its devices as a Ruuvi Gateway would). Values outside the format's ranges throw.
 */
export function encodeRawV2(values: RuuviRawV2Input): Uint8Array {
  const out = new Uint8Array(RAWV2_LENGTH);
  const view = new DataView(out.buffer);
  out[0] = RAWV2_FORMAT;
  view.setInt16(1, field(values.temperature, (v) => Math.round(v * 200), -32767, 32767, I16_INVALID, 'temperature'));
  view.setUint16(3, field(values.humidity, (v) => Math.round(v * 400), 0, 65534, 0xffff, 'humidity'));
  view.setUint16(5, field(values.pressure, (v) => Math.round(v) - 50_000, 0, 65534, 0xffff, 'pressure'));
  view.setInt16(7, field(values.accelerationX, (v) => Math.round(v * 1000), -32767, 32767, I16_INVALID, 'accelerationX'));
  view.setInt16(9, field(values.accelerationY, (v) => Math.round(v * 1000), -32767, 32767, I16_INVALID, 'accelerationY'));
  view.setInt16(11, field(values.accelerationZ, (v) => Math.round(v * 1000), -32767, 32767, I16_INVALID, 'accelerationZ'));
  const voltage = field(values.batteryMv, (v) => Math.round(v) - 1600, 0, 2046, 0x7ff, 'batteryMv');
  const tx = field(values.txPower, (v) => (v + 40) / 2, 0, 30, 0x1f, 'txPower');
  if (!Number.isInteger(tx)) throw new RangeError(`RAWv2 txPower must be an even number of dBm: ${values.txPower}`);
  view.setUint16(13, (voltage << 5) | tx);
  out[15] = field(values.movement, (v) => v, 0, 254, 0xff, 'movement');
  view.setUint16(16, field(values.seq, (v) => v, 0, 65534, 0xffff, 'seq'));
  if (values.mac === null || values.mac === undefined) out.fill(0xff, 18, 24);
  else {
    const hex = values.mac.replace(/[:-]/g, '');
    if (!/^[0-9a-fA-F]{12}$/.test(hex)) throw new RangeError(`RAWv2 mac invalid: ${values.mac}`);
    out.set(Buffer.from(hex, 'hex'), 18);
  }
  return out;
}

/** The whole advertisement a RuuviTag sends: flags, then manufacturer data 0x0499 with this payload (hex, as gateways relay it). */
export function rawV2AdvertisementHex(values: RuuviRawV2Input): string {
  return `0201061BFF9904${Buffer.from(encodeRawV2(values)).toString('hex').toUpperCase()}`;
}
