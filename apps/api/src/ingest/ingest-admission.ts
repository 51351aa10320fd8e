import { INGEST_MAX_BATCH } from '@sentinela/contract';
import type { Clock } from '../lib/clock';
import type { LoadSample } from '../lib/event-loop-load';
import { TokenBucket } from '../lib/token-bucket';
import { RecentUsage } from './recent-usage';

export interface IngestQuotaSettings {
  /** Readings per second per gateway key; 0: no quota. */
  readingsPerSecond: number;
  /** Payload bytes per second per gateway key; 0: no quota. */
  bytesPerSecond: number;
  /** Seconds of either rate a gateway idle until now may send at once. */
  burstSeconds: number;
  /** The largest payload a gateway may send (the bucket holds at least one, or it could never be admitted). */
  maxPayloadBytes: number;
  /** Mean event-loop delay above which the heaviest gateways are refused first; 0: never. */
  shedEventLoopDelayMs: number;
  /** Retry-After of a gateway refused for the load. */
  overloadRetryAfterSeconds: number;
}

export type Admission = { ok: true } | { ok: false; reason: 'quota' | 'overload'; retryAfterSeconds: number };

const ADMITTED: Admission = { ok: true };
/** A reading's worth of payload, to weigh bytes and readings in one figure of recent usage. */
const BYTES_PER_READING = 200;
/** How often a paced MQTT message looks at the load again while it waits. */
const LOAD_RECHECK_MS = 100;

interface Buckets {
  readings: TokenBucket | null;
  bytes: TokenBucket | null;
}

/**
 * What a gateway may send (issue 21, ADR 52), decided once for HTTP and MQTT alike, per gateway key and process:
 *
 * - **Quota**: two token buckets per key, readings per second and payload bytes per second, each holding
 *   `burstSeconds` of its rate (and at least one largest batch, or one largest payload). Bytes are charged before a
 *   payload is parsed (HTTP: by its Content-Length, before the body is read), readings once it is.
 * - **Shedding**: while the event loop lags past `shedEventLoopDelayMs`, the gateways that used most of the recent
 *   capacity (RecentUsage) are refused, so the process recovers at their expense rather than at everyone's; ordinary
 *   API requests are shed only at the general, higher threshold (plugins/load-shedding.ts).
 *
 * HTTP asks `admitBytes`/`admitReadings` and answers a refusal at once (429 or 503, Retry-After). MQTT asks
 * `paceBytes`/`paceReadings`, which wait — holding the message, hence its connection (Aedes reads a connection's next
 * packet once this one is settled) — up to `maxWaitMs` for the room or the load to come back: a gateway over its rate is
 * slowed to it, losing nothing; one far over it has its messages acknowledged and counted as throttled after the wait.
 */
export class IngestAdmission {
  private readonly buckets = new Map<string, Buckets>();
  private readonly usage = new RecentUsage();
  private sweepAtMs = 0;

  constructor(
    private readonly settings: IngestQuotaSettings,
    private readonly load: () => LoadSample,
    private readonly clock: Clock,
  ) {}

  /** HTTP, before a body of `bytes` is read (or parsed, when its length was not declared). */
  admitBytes(gatewayId: string, bytes: number): Admission {
    const nowMs = this.clock.now().getTime();
    if (this.shedding(gatewayId)) return this.overload();
    return this.spend(gatewayId, 'bytes', bytes, nowMs);
  }

  /** HTTP, once the payload's `readings` are known. */
  admitReadings(gatewayId: string, readings: number): Admission {
    return this.spend(gatewayId, 'readings', readings, this.clock.now().getTime());
  }

  /**
   * MQTT, before a payload of `bytes` is parsed: waits up to `maxWaitMs` for the load and the quota to allow it. The
   * answer is immediate (no promise, no turn of the loop) when nothing has to wait: the common case, on the path of
   * every message.
   */
  paceBytes(gatewayId: string, bytes: number, maxWaitMs: number): Admission | Promise<Admission> {
    if (!this.shedding(gatewayId)) return this.reserve(gatewayId, 'bytes', bytes, maxWaitMs);
    return this.paceBytesOnceLoaded(gatewayId, bytes, maxWaitMs);
  }

  /** MQTT, once the payload's `readings` are known; immediate like paceBytes when nothing has to wait. */
  paceReadings(gatewayId: string, readings: number, maxWaitMs: number): Admission | Promise<Admission> {
    return this.reserve(gatewayId, 'readings', readings, maxWaitMs);
  }

  /** The heaviest gateway while the loop lags: the load looked at again every 100 ms, the quota once it has eased. */
  private async paceBytesOnceLoaded(gatewayId: string, bytes: number, maxWaitMs: number): Promise<Admission> {
    const deadline = performance.now() + maxWaitMs;
    while (this.shedding(gatewayId)) {
      const left = deadline - performance.now();
      if (left <= 0) return this.overload();
      await sleep(Math.min(LOAD_RECHECK_MS, left));
    }
    return this.reserve(gatewayId, 'bytes', bytes, Math.max(0, deadline - performance.now()));
  }

  private shedding(gatewayId: string): boolean {
    const threshold = this.settings.shedEventLoopDelayMs;
    return threshold > 0 && this.load().eventLoopDelayMs > threshold && this.usage.isHeavy(gatewayId);
  }

  private overload(): Admission {
    return { ok: false, reason: 'overload', retryAfterSeconds: this.settings.overloadRetryAfterSeconds };
  }

  private spend(gatewayId: string, kind: keyof Buckets, n: number, nowMs: number): Admission {
    const bucket = this.bucketsOf(gatewayId, nowMs)[kind];
    const waitMs = bucket ? bucket.take(n, nowMs) : 0;
    if (waitMs > 0) return { ok: false, reason: 'quota', retryAfterSeconds: retryAfter(waitMs) };
    this.noteUse(gatewayId, kind, n);
    return ADMITTED;
  }

  private reserve(gatewayId: string, kind: keyof Buckets, n: number, maxWaitMs: number): Admission | Promise<Admission> {
    const nowMs = this.clock.now().getTime();
    const bucket = this.bucketsOf(gatewayId, nowMs)[kind];
    const waitMs = bucket ? bucket.reserve(n, nowMs, maxWaitMs) : 0;
    if (waitMs < 0) {
      // Far over its rate: the message waits as long as it may anyway, so that its sender is slowed, then is refused.
      const refused: Admission = { ok: false, reason: 'quota', retryAfterSeconds: retryAfter(maxWaitMs) };
      return sleep(maxWaitMs).then(() => refused);
    }
    this.noteUse(gatewayId, kind, n);
    return waitMs > 0 ? sleep(waitMs).then(() => ADMITTED) : ADMITTED;
  }

  private noteUse(gatewayId: string, kind: keyof Buckets, n: number): void {
    this.usage.add(gatewayId, kind === 'readings' ? n : n / BYTES_PER_READING);
  }

  private bucketsOf(gatewayId: string, nowMs: number): Buckets {
    let buckets = this.buckets.get(gatewayId);
    if (!buckets) {
      this.sweep(nowMs);
      const { readingsPerSecond, bytesPerSecond, burstSeconds, maxPayloadBytes } = this.settings;
      buckets = {
        readings: readingsPerSecond > 0 ? new TokenBucket(Math.max(INGEST_MAX_BATCH, readingsPerSecond * burstSeconds), readingsPerSecond, nowMs) : null,
        bytes: bytesPerSecond > 0 ? new TokenBucket(Math.max(maxPayloadBytes, bytesPerSecond * burstSeconds), bytesPerSecond, nowMs) : null,
      };
      this.buckets.set(gatewayId, buckets);
    }
    return buckets;
  }

  /** Forgets gateways whose buckets are full again (they would start full anyway), at most once a minute. */
  private sweep(nowMs: number): void {
    if (nowMs - this.sweepAtMs < 60_000) return;
    this.sweepAtMs = nowMs;
    for (const [id, b] of this.buckets) if ((!b.readings || b.readings.full(nowMs)) && (!b.bytes || b.bytes.full(nowMs))) this.buckets.delete(id);
  }
}

function retryAfter(waitMs: number): number {
  return Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : 60;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
