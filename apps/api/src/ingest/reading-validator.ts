import { JSON_SEQ_MODULO, checkMeasure, normalizeMac, type IngestRejection, type IngestRejectionCode, type Measure } from '@sentinela/contract';

/**
 * Checks one reading as a gateway sent it, without touching the database: shape, MAC, time and physical
 * ranges. Whether the device exists and the gateway may write it is decided later, once per batch.
 * Hand-written rather than a schema because it runs for every reading of the hot path.
 */

export interface ValidReading {
  /** Position in the batch (or message), echoed in rejections. */
  index: number;
  mac: string;
  /** Milliseconds since the epoch. */
  ts: number;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  /**
   * The sensor's sequence counter (ADR 0035), 0 ≤ seq < seqModulo, and the value it wraps at; both null when the
   * reading carries none. Sentinela's JSON format: an optional `seq`, 16-bit (JSON_SEQ_MODULO).
   */
  seq: number | null;
  seqModulo: number | null;
  /** The firmware version the device says it runs (`fw`, Sentinela's JSON), or null when the reading carries none. */
  fw: string | null;
}

export type Rejection = IngestRejection;

/** A firmware version as devices report it: "1.4.2", "v2.0.0-rc.1", "5.3.2+build7"; at most 32 characters. */
const FIRMWARE_VERSION = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,31}$/;

/** Readings may be at most this far ahead of the server's clock (gateway clocks drift a little). */
export const MAX_FUTURE_MS = 5 * 60_000;
/** Older readings are refused: a beacon with an unset clock reports 1970, and each month is a partition. */
export const MAX_AGE_MS = 366 * 86_400_000;

interface Range {
  field: Measure;
  invalid: string;
  outOfRange: string;
}

/**
 * Physical ranges: what the sensors can report at all, not the device's alarm limits. The bounds themselves are
 * the contract's (MEASURE_BOUNDS, through checkMeasure), the same that request schemas use, so a value that passes
 * here always fits its column (no 1e-50 in a `real`).
 */
const RANGES: readonly Range[] = [
  { field: 'temperature', invalid: 'Temperatura inválida: esperado um número.', outOfRange: 'Temperatura fora da faixa física (-80 a 150 °C).' },
  { field: 'humidity', invalid: 'Umidade inválida: esperado um número.', outOfRange: 'Umidade fora da faixa física (0 a 100 %).' },
  { field: 'battery', invalid: 'Bateria inválida: esperado um número.', outOfRange: 'Bateria fora da faixa (0 a 100 %).' },
  { field: 'lat', invalid: 'Latitude inválida: esperado um número.', outOfRange: 'Latitude fora da faixa (-90 a 90).' },
  { field: 'lng', invalid: 'Longitude inválida: esperado um número.', outOfRange: 'Longitude fora da faixa (-180 a 180).' },
];

/** pt-BR reasons of the rejections decided outside this module (device lookup, MQTT). */
export const REJECTION_REASONS = {
  invalid_reading: 'Leitura inválida: esperado um objeto JSON.',
  invalid_mac: 'Endereço MAC ausente ou inválido.',
  mac_mismatch: 'O MAC da leitura difere do MAC do tópico.',
  missing_ts: 'Data/hora da leitura ausente.',
  invalid_ts: 'Data/hora inválida: use ISO-8601 com fuso, ex.: 2026-11-22T09:00:00Z.',
  future_ts: 'Data/hora mais de 5 minutos no futuro.',
  old_ts: 'Data/hora com mais de um ano no passado.',
  incomplete_position: 'Posição incompleta: envie lat e lng juntas.',
  unknown_device: 'Dispositivo não cadastrado.',
  gateway_revoked: 'Chave de gateway revogada.',
  invalid_topic: 'Tópico inválido: use devices/{mac}/readings.',
  invalid_payload: 'Mensagem inválida: esperado JSON com uma leitura ou {"readings": [...]}.',
  invalid_seq: 'Contador de sequência inválido: esperado um inteiro de 0 a 65535.',
  invalid_fw: 'Versão de firmware inválida: esperado um texto de até 32 letras, dígitos, ".", "-", "_" ou "+", ex.: "1.4.2".',
  not_stored: 'Leitura recusada pelo banco de dados; as demais leituras do lote foram armazenadas.',
  malformed_hex: 'Anúncio BLE inválido: esperado texto hexadecimal com número par de dígitos (até 254 bytes).',
  truncated_advertisement: 'Anúncio BLE truncado: uma estrutura termina depois do fim dos dados.',
  unknown_manufacturer: 'Anúncio BLE de fabricante desconhecido: nenhum formato suportado (Ruuvi, Eddystone-TLM, Xiaomi 0x181A).',
  unsupported_format: 'Formato do fabricante não suportado (ex.: Ruuvi formato 6, Eddystone-UID/URL).',
  invalid_coordinates: 'Coordenadas do gateway inválidas: use "latitude,longitude" em graus decimais.',
  invalid_tag: 'Tag inválida: esperado um objeto com "data" (anúncio em hexadecimal).',
  invalid_ruuvi_topic: 'Tópico inválido: use ruuvi/{mac do gateway}/{mac da tag}.',
  invalid_ruuvi_payload: 'Mensagem inválida: esperado o JSON do Ruuvi Gateway com "data" (anúncio em hexadecimal).',
  throttled: 'Mensagem descartada: o gateway enviou além da sua cota de ingestão (leituras ou bytes por segundo), ou mais que os demais enquanto o servidor estava sobrecarregado.',
} as const;

export function rejection(index: number, mac: string | null, code: IngestRejectionCode, reason: string): Rejection {
  return { index, mac: mac === null ? null : echoable(mac), code, reason };
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_ECHOABLE = /[\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]/;

/**
 * A rejection echoes what the gateway sent as its MAC, and the counters keep the last one: text with a NUL or a
 * lone surrogate would fail the counters' column (and so the whole batch), and a long one would only fill the log.
 */
function echoable(mac: string): string | null {
  return mac.length <= 64 && !NOT_ECHOABLE.test(mac) ? mac : null;
}

/** One rule for MACs everywhere (registration, import, ingestion): the contract's. */
export { normalizeMac };

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);

/**
 * The form gateways send almost always, 2026-11-22T09:00:00.000Z, read without a regular expression or
 * Date.parse (a third of the validation time otherwise); undefined when the string is not of that form,
 * NaN when it is but names no real instant.
 */
function parseCanonicalInstant(s: string): number | undefined {
  if (s.length !== 24 || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== '.' || s[23] !== 'Z') return undefined;
  for (let k = 0; k < DIGIT_POSITIONS.length; k++) {
    const c = s.charCodeAt(DIGIT_POSITIONS[k]!);
    if (c < 48 || c > 57) return undefined;
  }
  const year = two(s, 0) * 100 + two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return NaN;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, digit(s, 20) * 100 + two(s, 21));
  if (day > 28 && new Date(ms).getUTCDate() !== day) return NaN;
  return ms;
}

/** An ISO-8601 instant with an explicit offset, in ms; NaN otherwise (a time without offset is ambiguous). */
export function parseInstant(value: string): number {
  const canonical = parseCanonicalInstant(value);
  if (canonical !== undefined) return canonical;
  const match = ISO_INSTANT.exec(value);
  if (!match || Number(match[4]) > 23) return NaN;
  const day = Number(match[3]);
  // Date.parse rolls 2026-02-30 over into March; a calendar date that does not exist is invalid.
  if (day > 28) {
    const month = Number(match[2]) - 1;
    const probe = new Date(Date.UTC(Number(match[1]), month, day));
    if (probe.getUTCDate() !== day || probe.getUTCMonth() !== month) return NaN;
  }
  return Date.parse(value);
}

/**
 * Validates one raw reading. `topicMac` is the MAC of an MQTT topic: a reading without a MAC takes it,
 * and one with a different MAC is refused. `seqModulo` is the value the reading's sequence counter wraps at (ADR 35):
 * Sentinela's JSON counter is 16-bit; a reading decoded from a vendor format passes its format's own (256 for a
 * Xiaomi counter, 65535 for RAWv2), or null when the format has none (a `seq` is then not kept).
 */
export function validateReading(raw: unknown, index: number, nowMs: number, topicMac?: string, seqModulo: number | null = JSON_SEQ_MODULO): ValidReading | Rejection {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return rejection(index, topicMac ?? null, 'invalid_reading', REJECTION_REASONS.invalid_reading);
  }
  const r = raw as Record<string, unknown>;

  let mac: string | null;
  if (r.mac === undefined && topicMac) mac = topicMac;
  else {
    mac = normalizeMac(r.mac);
    if (!mac) return rejection(index, typeof r.mac === 'string' ? r.mac : null, 'invalid_mac', REJECTION_REASONS.invalid_mac);
    if (topicMac && mac !== topicMac) return rejection(index, mac, 'mac_mismatch', REJECTION_REASONS.mac_mismatch);
  }

  if (r.ts === undefined || r.ts === null) return rejection(index, mac, 'invalid_ts', REJECTION_REASONS.missing_ts);
  const ts = typeof r.ts === 'string' ? parseInstant(r.ts) : NaN;
  if (Number.isNaN(ts)) return rejection(index, mac, 'invalid_ts', REJECTION_REASONS.invalid_ts);
  if (ts > nowMs + MAX_FUTURE_MS) return rejection(index, mac, 'future_ts', REJECTION_REASONS.future_ts);
  if (ts < nowMs - MAX_AGE_MS) return rejection(index, mac, 'old_ts', REJECTION_REASONS.old_ts);

  // Field by field, without closures or loops over RANGES: this runs for every reading of the hot path.
  const temperature = checkValue(r.temperature, RANGES[0]!);
  if (temperature === INVALID || temperature === OUT_OF_RANGE) return valueRejection(index, mac, RANGES[0]!, temperature);
  const humidity = checkValue(r.humidity, RANGES[1]!);
  if (humidity === INVALID || humidity === OUT_OF_RANGE) return valueRejection(index, mac, RANGES[1]!, humidity);
  const battery = checkValue(r.battery, RANGES[2]!);
  if (battery === INVALID || battery === OUT_OF_RANGE) return valueRejection(index, mac, RANGES[2]!, battery);
  const lat = checkValue(r.lat, RANGES[3]!);
  if (lat === INVALID || lat === OUT_OF_RANGE) return valueRejection(index, mac, RANGES[3]!, lat);
  const lng = checkValue(r.lng, RANGES[4]!);
  if (lng === INVALID || lng === OUT_OF_RANGE) return valueRejection(index, mac, RANGES[4]!, lng);
  if ((lat === null) !== (lng === null)) return rejection(index, mac, 'invalid_value', REJECTION_REASONS.incomplete_position);
  const rawFw = r.fw;
  let fw: string | null = null;
  if (rawFw !== undefined && rawFw !== null) {
    if (typeof rawFw !== 'string' || !FIRMWARE_VERSION.test(rawFw)) return rejection(index, mac, 'invalid_value', REJECTION_REASONS.invalid_fw);
    fw = rawFw;
  }
  const seq = r.seq;
  if (seq === undefined || seq === null || seqModulo === null) return { index, mac, ts, temperature, humidity, battery, lat, lng, seq: null, seqModulo: null, fw };
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq >= seqModulo) {
    return rejection(index, mac, 'invalid_value', seqModulo === JSON_SEQ_MODULO ? REJECTION_REASONS.invalid_seq : invalidSeqReason(seqModulo));
  }
  return { index, mac, ts, temperature, humidity, battery, lat, lng, seq, seqModulo, fw };
}

/** The reason for a counter outside its format's own range (decoders never produce one; said right all the same). */
function invalidSeqReason(seqModulo: number): string {
  return `Contador de sequência inválido: esperado um inteiro de 0 a ${seqModulo - 1}.`;
}

const INVALID = Symbol('invalid');
const OUT_OF_RANGE = Symbol('out of range');

function checkValue(value: unknown, range: Range): number | null | typeof INVALID | typeof OUT_OF_RANGE {
  if (value === undefined || value === null) return null;
  const check = checkMeasure(range.field, value);
  return check === 'ok' ? (value as number) : check === 'invalid' ? INVALID : OUT_OF_RANGE;
}

function valueRejection(index: number, mac: string, range: Range, problem: typeof INVALID | typeof OUT_OF_RANGE): Rejection {
  return problem === INVALID ? rejection(index, mac, 'invalid_value', range.invalid) : rejection(index, mac, 'out_of_range', range.outOfRange);
}

export function isRejection(value: ValidReading | Rejection): value is Rejection {
  return 'code' in value;
}

/** Readings as a gateway sent them, with what their source knows of them (no gateway: see IngestPart). */
export interface RawReadings {
  readings: readonly unknown[];
  /** MQTT: the MAC of the topic, which readings without a MAC take. */
  topicMac?: string;
  /** Rejections decided before the readings could be read (a bad topic or payload, an undecodable tag). */
  rejected?: readonly Rejection[];
  /** Each reading's index in what the gateway sent, when not its position in `readings` (a Ruuvi relay's tags). */
  indexes?: readonly number[];
  /**
   * Sequence counters' moduli of readings decoded from a vendor format (ADR 33, 35), by position in `readings`: the
   * format's own (256 for a Xiaomi counter, 65535 for RAWv2; null: none), handed to the validator. Without it, each
   * reading's counter is Sentinela's JSON one, 16-bit.
   */
  seqModuli?: readonly (number | null)[];
}

/** Readings checked one by one: those to store, and the rejected ones with their reasons. */
export interface CheckedReadings {
  valid: ValidReading[];
  rejected: Rejection[];
}

/** Checks every reading of `raw` on its own (one bad reading never rejects its neighbours). */
export function checkReadings(raw: RawReadings, nowMs: number): CheckedReadings {
  const valid: ValidReading[] = [];
  const rejected: Rejection[] = raw.rejected ? [...raw.rejected] : [];
  for (let i = 0; i < raw.readings.length; i++) {
    const seqModulo = raw.seqModuli ? (raw.seqModuli[i] ?? null) : JSON_SEQ_MODULO;
    const checked = validateReading(raw.readings[i], raw.indexes?.[i] ?? i, nowMs, raw.topicMac, seqModulo);
    if (isRejection(checked)) rejected.push(checked);
    else valid.push(checked);
  }
  return { valid, rejected };
}
