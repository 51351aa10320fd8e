import { INGEST_MAX_BATCH, MSG } from '@sentinela/contract';
import { AppError, type ErrorCode } from '../lib/errors';
import { ThreadPool } from '../lib/thread-pool';
import { INGEST_MESSAGES } from './messages';
import { readingsFromMessage } from './mqtt-messages';
import { checkReadings, type RawReadings, type Rejection, type ValidReading } from './reading-validator';
import { readingsFromRuuviHttp } from './ruuvi-gateway';

/** What a gateway sent: the body of POST /api/ingest/readings or /api/ingest/ruuvi, or one MQTT message. */
export type Payload =
  | { kind: 'readings'; bytes: Uint8Array }
  | { kind: 'ruuvi'; bytes: Uint8Array }
  | { kind: 'mqtt'; topic: string; bytes: Uint8Array };

/** A payload read and its readings checked one by one. */
export interface ReadPayload {
  valid: ValidReading[];
  rejected: Rejection[];
  /** MQTT: the topic's MAC. */
  topicMac?: string;
  /** Readings (or a relay's tags) the payload held, valid or not: what the readings quota counts. */
  count: number;
}

/**
 * Payloads up to this size are read on the event loop: parsing and checking 64 KiB (about 400 readings) takes well
 * under a millisecond there, less than a round trip to a thread. Larger ones go to a thread (ADR 53).
 */
export const INLINE_MAX_BYTES = 64 * 1024;

/**
 * Reads a payload: JSON, its shape (a refusal of the whole body is an AppError: 400, 413), then each reading checked
 * on its own. Pure and synchronous: the same function runs on the event loop for small payloads and in a reader
 * thread for large ones.
 */
export function readPayload(payload: Payload, nowMs: number): ReadPayload {
  const text = Buffer.from(payload.bytes.buffer, payload.bytes.byteOffset, payload.bytes.byteLength).toString('utf8');
  let raw: RawReadings;
  if (payload.kind === 'mqtt') raw = readingsFromMessage(payload.topic, text, nowMs);
  else {
    let body: unknown;
    try {
      // No body at all reads as a body of the wrong shape (its own message), not as broken JSON.
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw new AppError('VALIDATION', MSG.invalidJson);
    }
    raw = payload.kind === 'ruuvi' ? readingsFromRuuviHttp(body, nowMs) : readingsOfBody(body);
  }
  const checked = checkReadings(raw, nowMs);
  const count = raw.readings.length + (payload.kind === 'ruuvi' ? (raw.rejected?.length ?? 0) : 0);
  return { ...checked, count, ...(raw.topicMac ? { topicMac: raw.topicMac } : {}) };
}

/** `{"readings": [...]}` of POST /api/ingest/readings: one bad reading is rejected on its own, a bad body whole. */
function readingsOfBody(body: unknown): RawReadings {
  const readings = body && typeof body === 'object' && !Array.isArray(body) ? (body as { readings?: unknown }).readings : undefined;
  if (!Array.isArray(readings)) throw new AppError('VALIDATION', INGEST_MESSAGES.badBody);
  if (readings.length > INGEST_MAX_BATCH) throw new AppError('PAYLOAD_TOO_LARGE', INGEST_MESSAGES.tooMany);
  return { readings };
}

/**
 * Valid readings as columns, to come back from a thread: typed arrays move without a copy and rebuild into objects
 * far faster than the same objects would be cloned (NaN stands for null: a checked value is never NaN).
 */
export interface ValidColumns {
  mac: string[];
  index: Int32Array;
  ts: Float64Array;
  temperature: Float64Array;
  humidity: Float64Array;
  battery: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  seq: Float64Array;
  seqModulo: Float64Array;
  /** The firmware each reading reports (at most 32 checked characters), null when none: cloned, most are null. */
  fw: (string | null)[];
}

const NUMBER_COLUMNS = ['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng', 'seq', 'seqModulo'] as const;

export function toColumns(valid: readonly ValidReading[]): ValidColumns {
  const n = valid.length;
  const c: ValidColumns = {
    mac: new Array<string>(n), index: new Int32Array(n), ts: new Float64Array(n), temperature: new Float64Array(n), humidity: new Float64Array(n),
    battery: new Float64Array(n), lat: new Float64Array(n), lng: new Float64Array(n), seq: new Float64Array(n), seqModulo: new Float64Array(n),
    fw: new Array<string | null>(n),
  };
  for (let i = 0; i < n; i++) {
    const r = valid[i]!;
    c.mac[i] = r.mac;
    c.index[i] = r.index;
    c.fw[i] = r.fw;
    for (const k of NUMBER_COLUMNS) c[k][i] = r[k] ?? NaN;
  }
  return c;
}

export function fromColumns(c: ValidColumns): ValidReading[] {
  const n = c.mac.length;
  const out = new Array<ValidReading>(n);
  const orNull = (v: number) => (Number.isNaN(v) ? null : v);
  for (let i = 0; i < n; i++) {
    out[i] = {
      index: c.index[i]!, mac: c.mac[i]!, ts: c.ts[i]!, temperature: orNull(c.temperature[i]!), humidity: orNull(c.humidity[i]!), battery: orNull(c.battery[i]!),
      lat: orNull(c.lat[i]!), lng: orNull(c.lng[i]!), seq: orNull(c.seq[i]!), seqModulo: orNull(c.seqModulo[i]!),
      fw: c.fw[i] ?? null,
    };
  }
  return out;
}

export function columnBuffers(c: ValidColumns): ArrayBuffer[] {
  return [c.index, ...NUMBER_COLUMNS.map((k) => c[k])].map((a) => a.buffer as ArrayBuffer);
}

/** Messages between the pool and a reader thread. */
export interface ReadRequest {
  payload: Payload;
  nowMs: number;
}
export type ReadAnswer =
  | { ok: true; columns: ValidColumns; rejected: Rejection[]; topicMac?: string; count: number }
  | { ok: false; refusal: { code: ErrorCode; message: string } }
  | { ok: false; error: { message: string; stack?: string | undefined } };

/**
 * Reads gateways' payloads (issue 21, ADR 53): small ones on the event loop, large ones (up to 16 MB of JSON over HTTP,
 * 1 MB over MQTT) in threads, so that parsing them never blocks the loop for everyone else — a 16 MB body of numbers
 * takes hundreds of milliseconds to parse. A thread returns checked readings as columns, so the loop's own share of
 * a large payload is rebuilding its valid readings and nothing else (what a hostile body carries besides its readings
 * never reaches the loop). Each thread reads one payload at a time under a heap limit of its own; one that dies
 * refuses the payload it was reading (413) and is replaced.
 */
export class PayloadReader {
  private readonly pool: ThreadPool<ReadRequest, ReadAnswer, ReadPayload> | null;

  constructor(
    threads: number,
    private readonly inlineMaxBytes = INLINE_MAX_BYTES,
  ) {
    this.pool =
      threads <= 0
        ? null
        : new ThreadPool<ReadRequest, ReadAnswer, ReadPayload>({
            name: 'payload reader',
            entry: new URL('./payload-thread.mjs', import.meta.url),
            size: threads,
            workerOptions: () => ({ resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 } }),
            transfer: (request) => [request.payload.bytes.buffer as ArrayBuffer],
            settle: (answer) => {
              if (answer.ok) return { valid: fromColumns(answer.columns), rejected: answer.rejected, count: answer.count, ...(answer.topicMac ? { topicMac: answer.topicMac } : {}) };
              if ('refusal' in answer) return new AppError(answer.refusal.code, answer.refusal.message);
              return Object.assign(new Error(answer.error.message), { stack: answer.error.stack });
            },
            lost: (cause) => Object.assign(new AppError('PAYLOAD_TOO_LARGE', INGEST_MESSAGES.tooHeavy), { cause }),
          });
  }

  /**
   * Reads `payload`: at once when it is read on the event loop (no promise: the path of most MQTT messages), else in
   * a thread. Throws (or rejects with) an AppError when the payload is refused whole (HTTP answers it as is).
   */
  read(payload: Payload, nowMs: number): ReadPayload | Promise<ReadPayload> {
    if (!this.pool || payload.bytes.byteLength <= this.inlineMaxBytes) return readPayload(payload, nowMs);
    // A copy of its own to move into the thread: a Buffer may share its memory with others (Node's pool, a parser's).
    return this.pool.run({ payload: { ...payload, bytes: new Uint8Array(payload.bytes) }, nowMs });
  }

  /** Starts the threads now rather than on the first large payload (loading the sources takes a second or two). */
  warm(): void {
    this.pool?.warm();
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
