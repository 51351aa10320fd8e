import { INGEST_MAX_BATCH } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import { INGEST_MESSAGES } from './messages';
import { normalizeMac, rejection, REJECTION_REASONS, type RawReadings, type Rejection } from './reading-validator';
import { decodeAdvertisement, DecodeError } from './vendor-formats/registry';

/**
 * Ruuvi Gateway relays (ADR 33), over HTTP ("custom HTTP server", POST /api/ingest/ruuvi) and MQTT
 * (`ruuvi/{gateway mac}/{tag mac}`), as readings for ingestion: each tag's advertisement is decoded here into an ordinary
 * reading, which then takes the same path as any other (validation, device lookup, idempotent store, alarms, live
 * updates). A tag that cannot be decoded is a counted rejection of its own; the other tags of the post are stored.
 * Formats: https://github.com/ruuvi/docs, ruuvi-gateway-firmware/data-formats/ (http-time-stamped-data-…,
 * http-data-…-without-timestamps, mqtt-time-stamped-data-…).
 */

/** The reading a decoded tag becomes: the raw shape validateReading checks, plus the sequence counter (ADR 35). */
export interface DecodedTagReading {
  mac: string;
  ts: string;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  seq: number | null;
  seqModulo: number | null;
}

export type GatewayPosition = { lat: number; lng: number } | null;

/** A Unix time in seconds (the gateway sends strings of digits) in ms; undefined when absent, NaN when unreadable. */
function unixSeconds(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value * 1000 : NaN;
  if (typeof value === 'string' && /^\d{1,12}$/.test(value)) return Number(value) * 1000;
  return NaN;
}

const COORDINATES = /^\s*([+-]?\d{1,3}(?:\.\d{1,12})?)\s*[,;\s]\s*([+-]?\d{1,3}(?:\.\d{1,12})?)\s*$/;

/**
 * The gateway's "coordinates" setting, free text that the gateway copies into every relay: "latitude,longitude" in
 * decimal degrees. Empty or absent is no position; anything else that is not a place on Earth is absurd.
 */
export function parseCoordinates(value: unknown): GatewayPosition | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') return 'invalid';
  const match = COORDINATES.exec(value);
  if (!match) return 'invalid';
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) return 'invalid';
  return { lat, lng };
}

/**
 * One tag of a relay as a reading, or its rejection. `fallbackMs` is the relay's own time (or the server's, for a
 * gateway that sends no timestamps): the tag's time when it has none.
 */
export function tagReading(
  index: number,
  rawMac: unknown,
  tag: unknown,
  tsField: 'timestamp' | 'ts',
  position: GatewayPosition | 'invalid',
  fallbackMs: number,
): DecodedTagReading | Rejection {
  const mac = normalizeMac(rawMac);
  if (!mac) return rejection(index, typeof rawMac === 'string' ? rawMac : null, 'invalid_mac', REJECTION_REASONS.invalid_mac);
  if (typeof tag !== 'object' || tag === null || Array.isArray(tag)) return rejection(index, mac, 'invalid_reading', REJECTION_REASONS.invalid_tag);
  const t = tag as Record<string, unknown>;
  if (position === 'invalid') return rejection(index, mac, 'invalid_coordinates', REJECTION_REASONS.invalid_coordinates);
  const tagMs = unixSeconds(t[tsField]);
  if (Number.isNaN(tagMs)) return rejection(index, mac, 'invalid_ts', REJECTION_REASONS.invalid_ts);
  const ms = tagMs ?? fallbackMs;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return rejection(index, mac, 'invalid_ts', REJECTION_REASONS.invalid_ts);
  let decoded;
  try {
    decoded = decodeAdvertisement(t.data);
  } catch (err) {
    if (err instanceof DecodeError) return rejection(index, mac, err.problem, REJECTION_REASONS[err.problem]);
    throw err;
  }
  return {
    mac,
    ts: new Date(ms).toISOString(),
    temperature: decoded.temperature,
    // Above 100 % the formats themselves call the value a sensor fault (RAWv1, RAWv2): absent, not a rejected reading.
    humidity: decoded.humidity !== null && decoded.humidity > 100 ? null : decoded.humidity,
    battery: decoded.batteryPercent,
    lat: position?.lat ?? null,
    lng: position?.lng ?? null,
    seq: decoded.seq,
    seqModulo: decoded.seqModulo,
  };
}

function isRejected(value: DecodedTagReading | Rejection): value is Rejection {
  return 'code' in value;
}

function readingsOf(results: readonly (DecodedTagReading | Rejection)[]): RawReadings {
  const readings: DecodedTagReading[] = [];
  const indexes: number[] = [];
  const rejected: Rejection[] = [];
  results.forEach((r, i) => {
    if (isRejected(r)) rejected.push(r);
    else {
      readings.push(r);
      indexes.push(i);
    }
  });
  return { readings, rejected, indexes, seqModuli: readings.map((r) => r.seqModulo) };
}

/**
 * The body of POST /api/ingest/ruuvi: `{"data": {"gw_mac", "timestamp"?, "coordinates"?, "tags": {MAC: {rssi,
 * timestamp?, data}}}}`. A body that is not of this shape at all is refused whole (400, 413); from there on, each tag
 * is accepted or rejected on its own.
 */
export function readingsFromRuuviHttp(body: unknown, nowMs: number): RawReadings {
  const data = body && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  const tags = data && typeof data === 'object' && !Array.isArray(data) ? (data as { tags?: unknown }).tags : undefined;
  if (!tags || typeof tags !== 'object' || Array.isArray(tags)) throw new AppError('VALIDATION', INGEST_MESSAGES.ruuviBadBody);
  const entries = Object.entries(tags as Record<string, unknown>);
  if (entries.length > INGEST_MAX_BATCH) throw new AppError('PAYLOAD_TOO_LARGE', INGEST_MESSAGES.ruuviTooMany);
  const relay = data as Record<string, unknown>;
  const relayMs = unixSeconds(relay.timestamp);
  const fallbackMs = relayMs === undefined || Number.isNaN(relayMs) ? nowMs : relayMs;
  const position = parseCoordinates(relay.coordinates);
  return readingsOf(entries.map(([mac, tag], i) => tagReading(i, mac, tag, 'timestamp', position, fallbackMs)));
}

/** Ruuvi Gateway's MQTT topics: `{prefix}/{tag mac}`, the default prefix being `ruuvi/{gateway mac}`. */
export const RUUVI_TOPIC_FILTER = 'ruuvi/+/+';
const RUUVI_TOPIC = /^ruuvi\/([^/]+)\/([^/]+)$/;

export function isRuuviTopic(topic: string): boolean {
  return topic.startsWith('ruuvi/');
}

/**
 * One MQTT message of a Ruuvi Gateway: `{"gw_mac", "rssi", "aoa", "gwts", "ts", "data", "coords"}`, one tag per
 * message. A message that cannot be read is a counted rejection, acknowledged like any other (ADR 12).
 */
export function readingsFromRuuviMqtt(topic: string, payload: Buffer | string, nowMs: number): RawReadings {
  const match = RUUVI_TOPIC.exec(topic);
  const tagMac = match ? normalizeMac(match[2]) : null;
  if (!match || !tagMac || !normalizeMac(match[1])) {
    return { readings: [], rejected: [rejection(0, match?.[2] ?? null, 'invalid_topic', REJECTION_REASONS.invalid_ruuvi_topic)] };
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { readings: [], rejected: [rejection(0, tagMac, 'invalid_payload', REJECTION_REASONS.invalid_ruuvi_payload)] };
  }
  const message = body as Record<string, unknown>;
  const gwMs = unixSeconds(message.gwts);
  const fallbackMs = gwMs === undefined || Number.isNaN(gwMs) ? nowMs : gwMs;
  return readingsOf([tagReading(0, tagMac, message, 'ts', parseCoordinates(message.coords), fallbackMs)]);
}
