import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { AccessLogTable } from '../../db/schema';

export type AccessLogRow = Insertable<AccessLogTable>;

/**
 * Collects access-log rows in memory and writes them in one INSERT per batch, so logging every
 * authenticated request (P4, M7) adds no round trip to the request itself.
 */
export class AccessLogWriter {
  private buffer: AccessLogRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: { error: (obj: unknown, msg: string) => void },
    private readonly options = { maxBatch: 500, flushEveryMs: 1000 },
  ) {}

  record(row: AccessLogRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= this.options.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushEveryMs);
  }

  /** Writes what is buffered; resolves when everything recorded so far is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.db.insertInto('access_log').values(batch).execute();
      } catch (err) {
        this.log.error({ err, rows: batch.length }, 'access log batch lost');
      }
    });
    return this.flushing;
  }
}
