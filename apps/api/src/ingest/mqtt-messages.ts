import { INGEST_MAX_BATCH } from '@sentinela/contract';
import { INGEST_MESSAGES } from './messages';
import { normalizeMac, rejection, REJECTION_REASONS, type RawReadings } from './reading-validator';
import { isRuuviTopic, readingsFromRuuviMqtt } from './ruuvi-gateway';

/** Readings arrive on `devices/{mac}/readings`. */
export const READINGS_TOPIC_FILTER = 'devices/+/readings';
const READINGS_TOPIC = /^devices\/([^/]+)\/readings$/;

/**
 * One MQTT message as readings for ingestion: its payload is one reading or `{ "readings": [...] }`. A message
 * that cannot be read at all becomes a counted rejection rather than an error: the gateway gets its
 * acknowledgement and does not resend it forever.
 */
export function readingsFromMessage(topic: string, payload: Buffer | string, nowMs: number): RawReadings {
  // A Ruuvi Gateway's own topics and JSON (ADR 33); nowMs is the time of a relay that carries none.
  if (isRuuviTopic(topic)) return readingsFromRuuviMqtt(topic, payload, nowMs);
  const match = READINGS_TOPIC.exec(topic);
  const topicMac = match ? normalizeMac(match[1]) : null;
  if (!topicMac) return { readings: [], rejected: [rejection(0, match?.[1] ?? null, 'invalid_topic', REJECTION_REASONS.invalid_topic)] };
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return { readings: [], rejected: [rejection(0, topicMac, 'invalid_payload', REJECTION_REASONS.invalid_payload)] };
  }
  if (body && typeof body === 'object' && !Array.isArray(body) && 'readings' in body) {
    const readings = (body as { readings: unknown }).readings;
    if (!Array.isArray(readings)) return { readings: [], rejected: [rejection(0, topicMac, 'invalid_payload', REJECTION_REASONS.invalid_payload)] };
    if (readings.length > INGEST_MAX_BATCH) return { readings: [], rejected: [rejection(0, topicMac, 'invalid_payload', INGEST_MESSAGES.tooMany)] };
    return { readings, topicMac };
  }
  return { readings: [body], topicMac };
}

/** The device MAC a topic names (`devices/{mac}/readings`, a Ruuvi relay's tag), for a message refused unread. */
export function topicMacOf(topic: string): string | null {
  const parts = topic.split('/');
  if (parts.length !== 3) return null;
  if (parts[0] === 'devices' && parts[2] === 'readings') return normalizeMac(parts[1]);
  if (parts[0] === 'ruuvi') return normalizeMac(parts[2]);
  return null;
}
