import { isDatabaseUnavailable } from '../lib/db-errors';
import type { IngestPart, IngestService } from './ingest-service';

interface Logger {
  error(obj: unknown, msg: string): void;
  info(obj: unknown, msg: string): void;
}

/**
 * The flush of an MQTT micro-batch, whose messages come from many gateways (ADR 12). The service already rejects bad
 * readings one by one and bisects what the database refuses, so a batch normally succeeds whole. If it still fails:
 * an outage fails every message alike (none acknowledged, all resent); anything else is a defect some message
 * triggered, and each message is then stored on its own, so that only the one that triggers it fails and its
 * neighbours are acknowledged. Returns one outcome per message (undefined: stored), as MicroBatcher expects.
 */
export function settleEachMessage(ingest: IngestService, log: Logger) {
  const store = async (parts: IngestPart[]) => {
    const result = await ingest.ingest(parts);
    if (result.rejected.length > 0) log.info({ rejected: result.rejected.length, first: result.rejected[0] }, 'mqtt readings rejected');
  };
  return async (parts: IngestPart[]): Promise<void | unknown[]> => {
    try {
      await store(parts);
      return;
    } catch (err) {
      if (parts.length === 1 || isDatabaseUnavailable(err)) throw err;
      log.error({ err, messages: parts.length }, 'mqtt batch failed; storing its messages one by one');
    }
    const outcomes: unknown[] = [];
    for (const part of parts) outcomes.push(await store([part]).then(() => undefined, (err: unknown) => err ?? new Error('not stored')));
    return outcomes;
  };
}
