import { AD_TYPE, AdvertisementError, adStructures, bytesFromHex, type AdStructure } from './advertisement';
import { batteryPercent, type SensorType } from './battery-curves';
import { decodeTlm, EDDYSTONE_UUID, TLM_FRAME, TLM_LENGTH, TLM_PLAIN_VERSION } from './eddystone-tlm';
import { decodeRawV1, RAWV1_FORMAT, RAWV1_LENGTH } from './ruuvi-rawv1';
import { decodeRawV2, RAWV2_FORMAT, RAWV2_LENGTH, RAWV2_SEQ_MODULO } from './ruuvi-rawv2';
import { ATC1441_LENGTH, decodeXiaomiThermometer, ENVIRONMENTAL_SENSING_UUID, PVVX_LENGTH, XIAOMI_SEQ_MODULO } from './xiaomi-thermometer';

/**
 * The registry of vendor formats decoded on ingestion (ADR 33): given a whole advertisement as a gateway relays it,
 * finds the AD structure of a known format and decodes it into what Sentinela stores. Each format is a module of
 * its own with its specification's test vectors; adding one is a module and a line in FORMATS.
 */
export type VendorFormatId = 'ruuvi-rawv2' | 'ruuvi-rawv1' | 'eddystone-tlm' | 'xiaomi-pvvx' | 'xiaomi-atc1441';

/** One decoded measurement: values the format marks "not available" are null. */
export interface DecodedMeasurement {
  format: VendorFormatId;
  sensor: SensorType;
  temperature: number | null;
  humidity: number | null;
  /** Pa (decoded, not stored: Sentinela has no pressure column). */
  pressure: number | null;
  batteryMv: number | null;
  /** Through the sensor type's battery curve. */
  batteryPercent: number | null;
  movement: number | null;
  /** The format's measurement counter and the value it wraps at, for lost-reading counts; null when it has none. */
  seq: number | null;
  seqModulo: number | null;
}

/** Why an advertisement could not be decoded; the codes are ingestion rejection codes. */
export type DecodeProblem = 'malformed_hex' | 'truncated_advertisement' | 'unknown_manufacturer' | 'unsupported_format';

export class DecodeError extends Error {
  constructor(readonly problem: DecodeProblem) {
    super(problem);
  }
}

const RUUVI_COMPANY_ID = 0x0499;

interface VendorFormat {
  /** Whether this structure is the format's (company id or service UUID, and its own marker). */
  claims(ad: AdStructure): boolean;
  /** The payload the format needs, or null when the structure is too short for it. */
  decode(ad: AdStructure): DecodedMeasurement | null;
}

const companyId = (ad: AdStructure) => (ad.data.length >= 2 ? ad.data[0]! | (ad.data[1]! << 8) : -1);
const serviceUuid = (ad: AdStructure) => (ad.data.length >= 2 ? ad.data[0]! | (ad.data[1]! << 8) : -1);
const isManufacturer = (ad: AdStructure, id: number) => ad.type === AD_TYPE.manufacturerSpecific && companyId(ad) === id;
const isService = (ad: AdStructure, uuid: number) => ad.type === AD_TYPE.serviceData16 && serviceUuid(ad) === uuid;

function measurement(format: VendorFormatId, sensor: SensorType, v: Partial<DecodedMeasurement>): DecodedMeasurement {
  const batteryMv = v.batteryMv ?? null;
  return {
    format, sensor,
    temperature: v.temperature ?? null,
    humidity: v.humidity ?? null,
    pressure: v.pressure ?? null,
    batteryMv,
    batteryPercent: batteryPercent(sensor, batteryMv),
    movement: v.movement ?? null,
    seq: v.seq ?? null,
    seqModulo: v.seq === null || v.seq === undefined ? null : (v.seqModulo ?? null),
  };
}

const FORMATS: readonly VendorFormat[] = [
  {
    claims: (ad) => isManufacturer(ad, RUUVI_COMPANY_ID) && ad.data[2] === RAWV2_FORMAT,
    decode: (ad) => {
      const payload = ad.data.subarray(2);
      if (payload.length < RAWV2_LENGTH) return null;
      const v = decodeRawV2(payload);
      return measurement('ruuvi-rawv2', 'ruuvitag', { ...v, seqModulo: RAWV2_SEQ_MODULO });
    },
  },
  {
    claims: (ad) => isManufacturer(ad, RUUVI_COMPANY_ID) && ad.data[2] === RAWV1_FORMAT,
    decode: (ad) => {
      const payload = ad.data.subarray(2);
      if (payload.length < RAWV1_LENGTH) return null;
      return measurement('ruuvi-rawv1', 'ruuvitag', decodeRawV1(payload));
    },
  },
  {
    claims: (ad) => isService(ad, EDDYSTONE_UUID) && ad.data[2] === TLM_FRAME && ad.data[3] === TLM_PLAIN_VERSION,
    decode: (ad) => {
      const frame = ad.data.subarray(2);
      if (frame.length < TLM_LENGTH) return null;
      const v = decodeTlm(frame);
      return measurement('eddystone-tlm', 'eddystone-beacon', { temperature: v.temperature, batteryMv: v.batteryMv });
    },
  },
  {
    claims: (ad) => isService(ad, ENVIRONMENTAL_SENSING_UUID),
    decode: (ad) => {
      const data = ad.data.subarray(2);
      if (data.length !== PVVX_LENGTH && data.length !== ATC1441_LENGTH) return null;
      const v = decodeXiaomiThermometer(data);
      return measurement(v.layout === 'pvvx' ? 'xiaomi-pvvx' : 'xiaomi-atc1441', 'xiaomi-thermometer', {
        temperature: v.temperature, humidity: v.humidity, batteryMv: v.batteryMv, seq: v.counter, seqModulo: XIAOMI_SEQ_MODULO,
      });
    },
  },
];

/** Vendors Sentinela knows, whose other frames are "unsupported" rather than "unknown" (e.g. Eddystone-UID, Ruuvi format 6). */
const KNOWN_VENDOR = (ad: AdStructure) => isManufacturer(ad, RUUVI_COMPANY_ID) || isService(ad, EDDYSTONE_UUID);

/** Decodes an advertisement in hex; throws DecodeError with the reason it cannot. */
export function decodeAdvertisement(hex: unknown): DecodedMeasurement {
  let structures: AdStructure[];
  try {
    structures = adStructures(bytesFromHex(hex));
  } catch (err) {
    if (err instanceof AdvertisementError) throw new DecodeError(err.problem);
    throw err;
  }
  for (const ad of structures) {
    const format = FORMATS.find((f) => f.claims(ad));
    if (!format) continue;
    const decoded = format.decode(ad);
    if (!decoded) throw new DecodeError('truncated_advertisement');
    return decoded;
  }
  throw new DecodeError(structures.some(KNOWN_VENDOR) ? 'unsupported_format' : 'unknown_manufacturer');
}
