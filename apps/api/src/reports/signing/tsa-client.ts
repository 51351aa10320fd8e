/**
 * Asks the configured time-stamping authority (REPORT_TSA_URL) for an RFC 3161 token over some bytes (ADR 79).
 * The request goes through the one outgoing-request guard (ADR 55) as an operator's destination: its deadline
 * (REPORT_TSA_TIMEOUT_MS), a 64 KiB cap on the answer, no redirects. Every answer is checked (status, nonce, imprint,
 * the token's own signature) before it is used.
 */
import { createHash } from 'node:crypto';
import { OutgoingClient, OutgoingRequestError } from '../../lib/outgoing/outgoing-client';
import { newNonce, timeStampRequest, TimestampError, tokenFromResponse, type TimestampInfo } from './timestamp-token';

/** Hands back a checked TimeStampToken (DER) over SHA-256 of `data`, or throws `TimestampError`. */
export type Timestamper = (data: Buffer) => Promise<{ token: Buffer; info: TimestampInfo }>;

/** The TSA settings a signer needs; plain data, so that a render thread can get them too. */
export interface TsaSettings {
  url: string;
  timeoutMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export function tsaTimestamper(settings: TsaSettings, outgoing: OutgoingClient): Timestamper {
  return async (data) => {
    const imprint = createHash('sha256').update(data).digest();
    const nonce = newNonce();
    let answer;
    try {
      answer = await outgoing.request(settings.url, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
        body: timeStampRequest(imprint, nonce),
        timeoutMs: settings.timeoutMs,
        maxResponseBytes: MAX_ANSWER_BYTES,
        trust: 'operator',
      });
    } catch (error) {
      throw new TimestampError(error instanceof OutgoingRequestError ? `TSA not reached: ${error.detail}` : String(error));
    }
    if (!answer.ok) throw new TimestampError(`the TSA answered HTTP ${answer.status}`);
    return tokenFromResponse(answer.body, { imprint, nonce });
  };
}

/**
 * A client of the guard for a thread that has no services (a render thread): an operator's destination is judged by
 * no address rule, so only the deadline and the size cap of the request itself apply.
 */
export function threadTimestamper(settings: TsaSettings): Timestamper {
  return tsaTimestamper(settings, new OutgoingClient({ allowPrivate: false, allowedPorts: [443] }));
}

/** The same timestamper, whose failures are also written to the log (a document then goes out without a timestamp). */
export function loggedTimestamper(timestamper: Timestamper, log: { warn(obj: unknown, msg: string): void }): Timestamper {
  return async (data) => {
    try {
      return await timestamper(data);
    } catch (error) {
      log.warn({ err: error }, 'no RFC 3161 timestamp from the TSA');
      throw error;
    }
  };
}
