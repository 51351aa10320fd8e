import { createHash } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { createClient } from 'redis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterQueue, RateLimiterQueueError, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../../db/database';

/**
 * Every rate limit of the app goes through here (ADR 54): one way to say a limit (a `LimitRule`), counted by
 * rate-limiter-flexible in a store that every API process shares — the `rate_limits` table of the app's database
 * (PostgreSQL or PGlite), or Redis when `REDIS_URL` is set — so a limit holds however many processes run.
 *
 * Two kinds of limit:
 * - `limit(rule)` → `Limit`: each `consume` is one round trip to the store. For what is rare and already costly
 *   (logins, lookups of links and codes, uploads, sign-up checks, handshakes). A key that went over its budget is
 *   then refused from memory until its window ends (`inMemoryBlockOnConsumed`), so a flood stops touching the store.
 * - `hotLimit(rule)` → `HotLimit`: for limits counted on every request (the per-user budget). Decided in memory;
 *   the counts reach the shared store in one batch per key and second (and on the first request of a key in each
 *   window, so a process learns at once what the others spent). A client spread over N processes can overshoot by
 *   what those processes admit within one second; no request waits for the store.
 *
 * - `queue(rule, waiting)` → `LimitQueue`: callers wait their turn instead of being refused (an upstream service's
 *   pace, such as the geocoder's one request a second), shared by every process; a full queue refuses at once.
 *
 * If the store fails, each limiter falls back to its in-memory insurance (the library's `insuranceLimiter`): limits
 * keep holding per process, and requests are never refused because the store is down.
 */

export interface LimitRule {
  /** Unique and stable: the prefix of the counters in the store. Two limits with one name share one budget. */
  name: string;
  /** Attempts allowed per window and key. */
  points: number;
  windowSeconds: number;
}

export interface LimitAnswer {
  allowed: boolean;
  /** Whole seconds until the key's window ends (at least 1): the `Retry-After` of a refusal. */
  retryAfterSeconds: number;
}

/** How long a synced hot limit may lag behind the shared counts. */
const HOT_SYNC_MS = 1000;
/** Expired rows are deleted this often, once they are an hour old (the library's own policy, run by us). */
const CLEANUP_MS = 5 * 60_000;
/** The store's key column is varchar(255): longer keys (attacker-chosen usernames) are counted by their hash. */
const MAX_KEY_CHARS = 120;

const secondsOf = (ms: number, windowSeconds: number) => Math.max(1, Math.ceil((ms >= 0 ? ms : windowSeconds * 1000) / 1000));
const storeKey = (key: string) => (key.length <= MAX_KEY_CHARS ? key : `#${createHash('sha256').update(key).digest('base64url')}`);

function answerOf(result: unknown, windowSeconds: number): LimitAnswer {
  if (result instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: secondsOf(result.msBeforeNext, windowSeconds) };
  throw result;
}

/** One limit counted in the shared store: one round trip per `consume`. */
export class Limit {
  constructor(
    readonly rule: LimitRule,
    private readonly limiter: RateLimiterAbstract,
  ) {}

  /** Counts `points` attempts of `key`; refused once the key went over its budget in this window. */
  async consume(key: string, points = 1): Promise<LimitAnswer> {
    try {
      const res = await this.limiter.consume(storeKey(key), points);
      return { allowed: true, retryAfterSeconds: secondsOf(res.msBeforeNext, this.rule.windowSeconds) };
    } catch (result) {
      return answerOf(result, this.rule.windowSeconds);
    }
  }

  /** Whether the key already spent its budget, counting nothing (limits on failures: counted with `penalty`). */
  async check(key: string): Promise<LimitAnswer> {
    const res = await this.limiter.get(storeKey(key));
    if (!res || res.consumedPoints < this.rule.points) return { allowed: true, retryAfterSeconds: secondsOf(res?.msBeforeNext ?? -1, this.rule.windowSeconds) };
    return { allowed: false, retryAfterSeconds: secondsOf(res.msBeforeNext, this.rule.windowSeconds) };
  }

  /** Counts attempts without being refused (a failure that spends the budget of later attempts). */
  async penalty(key: string, points = 1): Promise<void> {
    await this.limiter.penalty(storeKey(key), points);
  }

  /** Gives back attempts counted by `consume` (an attempt that turned out not to count, such as a successful login). */
  async reward(key: string, points = 1): Promise<void> {
    await this.limiter.reward(storeKey(key), points);
  }

  /** Forgets the key's attempts of this window. */
  async reset(key: string): Promise<void> {
    await this.limiter.delete(storeKey(key));
  }
}

/** A limit counted on every request: decided in memory, synced to the shared store in the background. */
export class HotLimit {
  private readonly local: RateLimiterMemory;
  private pending = new Map<string, number>();

  constructor(
    readonly rule: LimitRule,
    private readonly shared: RateLimiterAbstract,
    private readonly warn: (err: unknown) => void,
  ) {
    this.local = new RateLimiterMemory({ keyPrefix: `${rule.name}-local`, points: rule.points, duration: rule.windowSeconds });
  }

  async take(key: string): Promise<LimitAnswer> {
    const k = storeKey(key);
    let res: RateLimiterRes;
    try {
      res = await this.local.consume(k);
    } catch (result) {
      return answerOf(result, this.rule.windowSeconds);
    }
    if (!res.isFirstInDuration) {
      this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
      return { allowed: true, retryAfterSeconds: secondsOf(res.msBeforeNext, this.rule.windowSeconds) };
    }
    // The first request of this key in this process's window: count it in the shared store now, and learn what
    // the other processes already spent (one round trip per key and window, not per request).
    const total = await this.shared.penalty(k, 1).catch((err: unknown) => {
      this.warn(err);
      return null;
    });
    if (total && total.consumedPoints > this.rule.points) {
      await this.local.block(k, secondsOf(total.msBeforeNext, this.rule.windowSeconds));
      return { allowed: false, retryAfterSeconds: secondsOf(total.msBeforeNext, this.rule.windowSeconds) };
    }
    return { allowed: true, retryAfterSeconds: secondsOf(res.msBeforeNext, this.rule.windowSeconds) };
  }

  /** Sends the counts taken since the last sync to the shared store; keys the others spent are blocked here too. */
  async sync(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    await Promise.all(
      [...batch].map(async ([k, n]) => {
        try {
          const total = await this.shared.penalty(k, n);
          if (total.consumedPoints > this.rule.points) await this.local.block(k, secondsOf(total.msBeforeNext, this.rule.windowSeconds));
        } catch (err) {
          this.warn(err);
        }
      }),
    );
  }
}

/** Turns taken at a shared pace: `turn()` waits until the rule allows one more, or says false when too many wait. */
export class LimitQueue {
  private readonly queue: RateLimiterQueue;

  constructor(
    readonly rule: LimitRule,
    limiter: RateLimiterAbstract,
    readonly maxWaiting: number,
  ) {
    this.queue = new RateLimiterQueue(limiter, { maxQueueSize: maxWaiting });
  }

  /** Waits for a turn of `key`'s own pace (one queue per key; `all` when the pace is global). */
  async turn(key = 'all'): Promise<boolean> {
    try {
      await this.queue.removeTokens(1, key);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterQueueError) return false;
      throw err;
    }
  }
}

export interface RateLimitsOptions {
  db: Db;
  /** Redis instead of the database for the counters (the same server Socket.IO uses across processes). */
  redisUrl?: string | undefined;
  log: { warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
}

/** The query interface rate-limiter-flexible's PostgreSQL store calls, over the app's Kysely (PostgreSQL and PGlite alike). */
function kyselyStoreClient(db: Db) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []));
      // A SELECT counts its rows (PGlite reports 0 "affected" rows for it); a DELETE its deleted rows.
      return { rows: result.rows, rowCount: result.rows.length > 0 ? result.rows.length : Number(result.numAffectedRows ?? 0) };
    },
  };
}

/** The app's rate limits (one per app, in `services.rateLimits`). */
export class RateLimits {
  private readonly limits = new Map<string, Limit | HotLimit>();
  private readonly redis: ReturnType<typeof createClient> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: RateLimitsOptions) {
    if (options.redisUrl) {
      this.redis = createClient({ url: options.redisUrl });
      // The client reconnects by itself; meanwhile the limits count in their insurance (memory).
      this.redis.on('error', (err: unknown) => options.log.error({ err }, 'redis (rate limits) error'));
      this.redis.connect().catch((err: unknown) => options.log.error({ err }, 'redis (rate limits) did not connect'));
    } else {
      const cleanup = setInterval(() => {
        sql`DELETE FROM rate_limits WHERE expire < ${Date.now() - 3_600_000}`.execute(options.db).catch((err: unknown) => options.log.warn({ err }, 'rate limits: cleanup failed'));
      }, CLEANUP_MS);
      cleanup.unref();
      this.timers.push(cleanup);
    }
    const sync = setInterval(() => void this.flush(), HOT_SYNC_MS);
    sync.unref();
    this.timers.push(sync);
  }

  /** A limit counted in the shared store on each `consume`. */
  limit(rule: LimitRule): Limit {
    return this.register(rule, () => new Limit(rule, this.storeLimiter(rule, true)), Limit);
  }

  /** A limit counted on every request, decided in memory and synced to the shared store (see the module's comment). */
  hotLimit(rule: LimitRule): HotLimit {
    return this.register(rule, () => new HotLimit(rule, this.storeLimiter(rule, false), (err) => this.options.log.warn({ err, limit: rule.name }, 'rate limits: shared store unreachable')), HotLimit);
  }

  /** A pace shared by every process: callers wait for their turn; beyond `maxWaiting` waiting here, refused. */
  queue(rule: LimitRule, maxWaiting: number): LimitQueue {
    return new LimitQueue(rule, this.storeLimiter(rule, false), maxWaiting);
  }

  /** Sends every hot limit's pending counts now (also every second, and at close). */
  async flush(): Promise<void> {
    await Promise.all([...this.limits.values()].map((limit) => (limit instanceof HotLimit ? limit.sync() : undefined)));
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.flush().catch(() => undefined);
    if (this.redis?.isOpen) await this.redis.close().catch(() => undefined);
  }

  private register<T extends Limit | HotLimit>(rule: LimitRule, make: () => T, kind: new (...args: never[]) => T): T {
    const existing = this.limits.get(rule.name);
    if (existing) {
      if (!(existing instanceof kind) || existing.rule.points !== rule.points || existing.rule.windowSeconds !== rule.windowSeconds) {
        throw new Error(`rate limit "${rule.name}" declared twice with different rules`);
      }
      return existing;
    }
    const limit = make();
    this.limits.set(rule.name, limit);
    return limit;
  }

  private storeLimiter(rule: LimitRule, blockInMemory: boolean): RateLimiterAbstract {
    const common = {
      keyPrefix: rule.name,
      points: rule.points,
      duration: rule.windowSeconds,
      // If the store fails, the process keeps counting on its own rather than letting everything through.
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${rule.name}-insurance`, points: rule.points, duration: rule.windowSeconds }),
      // A key over its budget is refused from memory until its window ends: a flood stops reaching the store.
      ...(blockInMemory ? { inMemoryBlockOnConsumed: rule.points + 1 } : {}),
    };
    if (this.redis) return new RateLimiterRedis({ ...common, storeClient: this.redis, useRedisPackage: true });
    return new RateLimiterPostgres({ ...common, storeClient: kyselyStoreClient(this.options.db), storeType: 'client', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: false });
  }
}
