import { be } from './advertisement';

/**
 * RuuviTag data format 3 ("RAWv1"), deprecated but still sent by tags on firmware 2.x. Manufacturer-specific data
 * after the company id 0x0499. Specification:
 * https://github.com/ruuvi/ruuvi-sensor-protocols/blob/master/dataformat_03.md. 14 bytes, MSB first.
 *
 * The format has no "not available" values; the specification suggests sending 0 when a value is missing. Only the
 * battery voltage is read that way (a tag cannot run at 0 V); a humidity above 100 % "indicates a fault in the
 * sensor" and is left to the ingestion rule for such values (ADR 33).
 */
export const RAWV1_FORMAT = 3;
export const RAWV1_LENGTH = 14;

export interface RuuviRawV1 {
  /** °C, 0.01 steps, -127.99…127.99. */
  temperature: number;
  /** %RH, 0.5 steps. */
  humidity: number;
  /** Pa. */
  pressure: number;
  accelerationX: number;
  accelerationY: number;
  accelerationZ: number;
  /** mV; null when the tag sent 0 ("not available"). */
  batteryMv: number | null;
}

/** `payload` starts at the data format byte (3), after the company id. */
export function decodeRawV1(payload: Uint8Array): RuuviRawV1 {
  if (payload.length < RAWV1_LENGTH || payload[0] !== RAWV1_FORMAT) throw new RangeError('not a complete RAWv1 payload');
  // Sign and magnitude, not two's complement: bit 7 is the sign, bits 0–6 the whole degrees, the next byte hundredths.
  const whole = payload[2]! & 0x7f;
  const hundredths = payload[3]!;
  const magnitude = (whole * 100 + hundredths) / 100;
  const battery = be.u16(payload, 12);
  return {
    temperature: payload[2]! & 0x80 ? -magnitude : magnitude,
    humidity: payload[1]! / 2,
    pressure: be.u16(payload, 4) + 50_000,
    accelerationX: be.i16(payload, 6) / 1000,
    accelerationY: be.i16(payload, 8) / 1000,
    accelerationZ: be.i16(payload, 10) / 1000,
    batteryMv: battery === 0 ? null : battery,
  };
}
