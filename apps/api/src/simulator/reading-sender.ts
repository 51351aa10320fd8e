/**
 * How virtual beacons reach the server: through its public HTTP ingestion endpoints, exactly as a gateway posts,
 * either in Sentinela's own JSON (`POST /api/ingest/readings`, `ApiKey <key>`) or as a Ruuvi Gateway relaying
 * RuuviTag data format 5 advertisements (`POST /api/ingest/ruuvi`, `Bearer <key>`, ADR 33). The transport is
 * pluggable: `npm run simulate` posts over the network, the server's live demo (ADR 38) injects into its own routes.
 */
import { readingsBody, ruuviRelayBodies, type BeaconReading } from './virtual-beacons';

export type ReadingFormat = 'json' | 'ruuvi';

/** One POST: path, Authorization header and JSON body in; status and parsed answer out. */
export type PostJson = (path: string, authorization: string, body: string) => Promise<{ status: number; json: IngestAnswer }>;

export interface IngestAnswer {
  accepted?: number;
  duplicates?: number;
  rejected?: { reason: string }[];
  error?: string;
}

/** The outcome of one POST of `count` readings (tags, for Ruuvi). */
export interface SentBatch {
  count: number;
  status: number;
  answer: IngestAnswer;
}

/** The largest batch the ingestion endpoints take in one body (INGEST_MAX_BATCH, Ruuvi's tag limit). */
const MAX_BATCH = 5000;

/**
 * Sends readings in the given format, one POST per batch (per relay, for Ruuvi: a gateway relays one advertisement
 * per tag and one position per post). `seq` numbers each RuuviTag measurement (the tag's sequence counter).
 */
export async function sendReadings(
  readings: readonly BeaconReading[],
  format: ReadingFormat,
  key: string,
  post: PostJson,
  seq: (r: BeaconReading) => number,
): Promise<SentBatch[]> {
  const out: SentBatch[] = [];
  for (let i = 0; i < readings.length; i += MAX_BATCH) {
    const chunk = readings.slice(i, i + MAX_BATCH);
    const bodies = format === 'ruuvi' ? ruuviRelayBodies(chunk, seq) : [{ body: readingsBody(chunk), count: chunk.length }];
    for (const { body, count } of bodies) {
      const { status, json } = format === 'ruuvi' ? await post('/api/ingest/ruuvi', `Bearer ${key}`, body) : await post('/api/ingest/readings', `ApiKey ${key}`, body);
      out.push({ count, status, answer: json });
    }
  }
  return out;
}

/** Per-MAC sequence counters, as each tag keeps its own. */
export function sequenceCounter(): (r: BeaconReading) => number {
  const next = new Map<string, number>();
  return (r) => {
    const n = next.get(r.mac) ?? 0;
    next.set(r.mac, n + 1);
    return n;
  };
}
