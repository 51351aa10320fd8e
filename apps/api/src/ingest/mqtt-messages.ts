import { INGEST_MAX_BATCH } from '@sentinela/contract';
import { INGEST_MESSAGES } from './messages';
import type { GatewayIdentity, IngestPart } from './ingest-service';
import { normalizeMac, rejection, REJECTION_REASONS } from './reading-validator';
import { isRuuviTopic, partFromRuuviMqtt } from './ruuvi-gateway';

/** Readings arrive on `devices/{mac}/readings`. */
export const READINGS_TOPIC_FILTER = 'devices/+/readings';
const READINGS_TOPIC = /^devices\/([^/]+)\/readings$/;

/**
 * One MQTT message as an ingestion part: its payload is one reading or `{ "readings": [...] }`. A message
 * that cannot be read at all becomes a counted rejection rather than an error: the gateway gets its
 * acknowledgement and does not resend it forever.
 */
export function partFromMessage(gateway: GatewayIdentity, topic: string, payload: Buffer | string, nowMs: number): IngestPart {
  // A Ruuvi Gateway's own topics and JSON (ADR 33); nowMs is the time of a relay that carries none.
  if (isRuuviTopic(topic)) return partFromRuuviMqtt(gateway, topic, payload, nowMs);
  const match = READINGS_TOPIC.exec(topic);
  const topicMac = match ? normalizeMac(match[1]) : null;
  if (!topicMac) return { gateway, readings: [], rejected: [rejection(0, match?.[1] ?? null, 'invalid_topic', REJECTION_REASONS.invalid_topic)] };
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return { gateway, readings: [], rejected: [rejection(0, topicMac, 'invalid_payload', REJECTION_REASONS.invalid_payload)] };
  }
  if (body && typeof body === 'object' && !Array.isArray(body) && 'readings' in body) {
    const readings = (body as { readings: unknown }).readings;
    if (!Array.isArray(readings)) return { gateway, readings: [], rejected: [rejection(0, topicMac, 'invalid_payload', REJECTION_REASONS.invalid_payload)] };
    if (readings.length > INGEST_MAX_BATCH) return { gateway, readings: [], rejected: [rejection(0, topicMac, 'invalid_payload', INGEST_MESSAGES.tooMany)] };
    return { gateway, readings, topicMac };
  }
  return { gateway, readings: [body], topicMac };
}
