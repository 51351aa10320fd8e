import type { IngestRejectionCode } from '@sentinela/contract';
import { AppError } from '../lib/errors';
import type { Admission, IngestAdmission } from './ingest-admission';
import type { CheckedPart, GatewayIdentity } from './ingest-service';
import { topicMacOf } from './mqtt-messages';
import type { PayloadReader, ReadPayload } from './payload-reader';
import { rejection, REJECTION_REASONS } from './reading-validator';

/**
 * How long a message over its gateway's quota (or of the heaviest gateway while the process lags) is held before it is
 * let through or refused. Holding the message holds its connection too (Aedes reads the next packet once this one is
 * settled): a gateway somewhat over its rate is slowed to it, losing nothing; one far over it waits this long for
 * each message it loses, which bounds what a flood of them costs.
 */
export const MQTT_PACE_MAX_MS = 2000;

/**
 * One MQTT message of an authenticated gateway as a checked part for the micro-batcher (issue 21, ADR 52): its bytes
 * charged to the gateway's quota before it is parsed (a refused message is never parsed), then read (large ones in a
 * thread, ADR 53), then its readings charged. A refused message becomes a `throttled` rejection: acknowledged after its
 * batch commits, like every unusable message (ADR 12), and counted per gateway and day with the other rejections.
 * Nothing waits in the common case (within the quota, a small payload): the part is returned at once, no promise and
 * no turn of the loop per message, which at tens of thousands of messages a second is worth keeping.
 */
export function mqttIntake(admission: IngestAdmission, payloads: PayloadReader, nowMs: () => number) {
  const refused = (gateway: GatewayIdentity, topic: string, code: IngestRejectionCode, reason: string): CheckedPart => {
    const mac = topicMacOf(topic);
    return { gateway, valid: [], rejected: [rejection(0, mac, code, reason)], ...(mac ? { topicMac: mac } : {}) };
  };
  const throttled = (gateway: GatewayIdentity, topic: string) => refused(gateway, topic, 'throttled', REJECTION_REASONS.throttled);

  const charged = (gateway: GatewayIdentity, topic: string, read: ReadPayload): CheckedPart | Promise<CheckedPart> => {
    const part: CheckedPart = { gateway, valid: read.valid, rejected: read.rejected, ...(read.topicMac ? { topicMac: read.topicMac } : {}) };
    const admitted = admission.paceReadings(gateway.id, read.count, MQTT_PACE_MAX_MS);
    if (!(admitted instanceof Promise)) return admitted.ok ? part : throttled(gateway, topic);
    return admitted.then((a) => (a.ok ? part : throttled(gateway, topic)));
  };

  const read = (gateway: GatewayIdentity, topic: string, bytes: Buffer): CheckedPart | Promise<CheckedPart> => {
    let result: ReadPayload | Promise<ReadPayload>;
    try {
      result = payloads.read({ kind: 'mqtt', topic, bytes }, nowMs());
    } catch (err) {
      return unreadable(err, gateway, topic);
    }
    if (!(result instanceof Promise)) return charged(gateway, topic, result);
    return result.then((r) => charged(gateway, topic, r), (err: unknown) => unreadable(err, gateway, topic));
  };

  // A reader thread that died on this payload (past its heap limit): unusable, like unreadable JSON.
  const unreadable = (err: unknown, gateway: GatewayIdentity, topic: string): CheckedPart => {
    if (!(err instanceof AppError)) throw err;
    return refused(gateway, topic, 'invalid_payload', REJECTION_REASONS.invalid_payload);
  };

  return (gateway: GatewayIdentity, topic: string, payload: Buffer | string): CheckedPart | Promise<CheckedPart> => {
    const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    const paced: Admission | Promise<Admission> = admission.paceBytes(gateway.id, bytes.byteLength, MQTT_PACE_MAX_MS);
    if (!(paced instanceof Promise)) return paced.ok ? read(gateway, topic, bytes) : throttled(gateway, topic);
    return paced.then((a) => (a.ok ? read(gateway, topic, bytes) : throttled(gateway, topic)));
  };
}
