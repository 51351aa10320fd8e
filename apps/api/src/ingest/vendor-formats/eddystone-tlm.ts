import { be } from './advertisement';

/**
 * Eddystone-TLM, unencrypted (version 0x00): service data of the Eddystone UUID 0xFEAA, frame type 0x20.
 * Specification: https://github.com/google/eddystone/blob/master/eddystone-tlm/tlm-plain.md. 14 bytes, big-endian.
 * A battery of 0 mV means "not supported" (a USB-powered beacon), a temperature of 0x8000 (-128 °C) likewise.
 * The advertising PDU count is not a measurement sequence (every frame type counts), so it is not used for losses.
 */
export const EDDYSTONE_UUID = 0xfeaa;
export const TLM_FRAME = 0x20;
export const TLM_PLAIN_VERSION = 0x00;
export const TLM_LENGTH = 14;

export interface EddystoneTlm {
  batteryMv: number | null;
  /** °C, signed 8.8 fixed point (1/256 °C steps). */
  temperature: number | null;
  /** Advertising PDUs sent since power-on. */
  advCount: number;
  /** Time since power-on, in seconds (0.1 s resolution). */
  uptimeSeconds: number;
}

/** `frame` starts at the frame type byte (0x20), after the service UUID. */
export function decodeTlm(frame: Uint8Array): EddystoneTlm {
  if (frame.length < TLM_LENGTH || frame[0] !== TLM_FRAME || frame[1] !== TLM_PLAIN_VERSION) throw new RangeError('not a complete plain TLM frame');
  const battery = be.u16(frame, 2);
  const temp = be.i16(frame, 4);
  return {
    batteryMv: battery === 0 ? null : battery,
    temperature: temp === -0x8000 ? null : temp / 256,
    advCount: be.u32(frame, 6),
    uptimeSeconds: be.u32(frame, 10) / 10,
  };
}
