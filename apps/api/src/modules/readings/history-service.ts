import { silenceThresholdMs, type Coverage, type HistoryFilter, type HistoryPage, type HistorySeries, type Reading } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { findDeviceByMacInScope } from '../devices/repository';
import { loadCoverage } from './coverage-repository';
import { readingsList, readingsPage, resolveWindow } from './history-repository';
import { chooseBucketSeconds, loadSeriesBuckets, type SeriesBucket } from './series-buckets';

const round = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);

/** The documented reading list answers at most this many readings of its window: the newest, oldest first. */
export const HISTORY_LIST_MAX = 10_000;

/** Device history (D3): a page of raw readings for the Dados tab, a downsampled series for the charts. */
export class HistoryService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The users' zone, for times sent without an offset (datetime-local values, ADR 0071). */
    private readonly timeZone: string,
  ) {}

  private async device(scope: TenantScope, mac: string) {
    const found = await findDeviceByMacInScope(this.db, scope, mac);
    if (!found) throw notFound('Dispositivo não encontrado.');
    return found;
  }

  /**
   * The documents' call (spec 001 §7, `GET /api/beacon-device/history/mac/{mac}`): the readings of the filter's
   * window as a list, in time order (the Dados table and the chart read it so), the newest HISTORY_LIST_MAX.
   */
  async list(scope: TenantScope, mac: string, filter: HistoryFilter): Promise<Reading[]> {
    const { device, num } = await this.device(scope, mac);
    const window = resolveWindow(filter, this.clock.now(), this.timeZone);
    return readingsList(this.db, { num, mac: device.mac }, filter, window, HISTORY_LIST_MAX);
  }

  async page(scope: TenantScope, mac: string, filter: HistoryFilter, page: number, limit: number): Promise<HistoryPage> {
    const { device, num } = await this.device(scope, mac);
    const window = resolveWindow(filter, this.clock.now(), this.timeZone);
    const { data, total } = await readingsPage(this.db, { num, mac: device.mac }, filter, window, page, limit);
    return { data, total, page, limit, from: window.from.toISOString(), to: window.to.toISOString() };
  }

  /** Coverage of the window (ADR 0035): expected readings received, gaps, readings lost by the counters. */
  async coverage(scope: TenantScope, mac: string, filter: HistoryFilter): Promise<Coverage> {
    const { num } = await this.device(scope, mac);
    const intervals = await this.db
      .selectFrom('devices')
      .select(['report_interval_seconds', 'learned_interval_seconds', 'created_at', 'linked_at'])
      .where('num', '=', num)
      .executeTakeFirstOrThrow();
    const now = this.clock.now();
    const window = resolveWindow(filter, now, this.timeZone);
    return loadCoverage(
      this.db,
      { num, reportIntervalSeconds: intervals.report_interval_seconds, learnedIntervalSeconds: intervals.learned_interval_seconds, createdAt: intervals.created_at, linkedAt: intervals.linked_at },
      window,
      now,
    );
  }

  async series(scope: TenantScope, mac: string, filter: HistoryFilter, points: number): Promise<HistorySeries> {
    const { device, num } = await this.device(scope, mac);
    const window = resolveWindow(filter, this.clock.now(), this.timeZone);
    const rangeSeconds = Math.max(1, (window.to.getTime() - window.from.getTime()) / 1000);
    // ADR 0041: sizes from a ladder; an hour or more reads the hourly roll-ups for the whole hours of the window.
    const bucketSeconds = chooseBucketSeconds(rangeSeconds, points);
    const buckets = await loadSeriesBuckets(this.db, num, filter, window, bucketSeconds);
    const mean = (sum: number, n: number) => (n === 0 ? null : round(sum / n));
    return {
      bucketSeconds,
      gapSeconds: device.expectedIntervalSeconds === null ? null : silenceThresholdMs(device.expectedIntervalSeconds) / 1000,
      count: buckets.reduce((n, b) => n + b.n, 0),
      t: buckets.map((b) => b.t),
      temperature: { min: buckets.map((b) => round(b.tMin)), max: buckets.map((b) => round(b.tMax)), mean: buckets.map((b) => mean(b.tSum, b.tN)) },
      humidity: { min: buckets.map((b) => round(b.hMin)), max: buckets.map((b) => round(b.hMax)), mean: buckets.map((b) => mean(b.hSum, b.hN)) },
      stats: { temperature: stats(buckets, 't'), humidity: stats(buckets, 'h') },
      limits: device.config,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
    };
  }
}

/** Overall min, max and mean of a measure from the buckets (the mean from the buckets' sums and counts: exact). */
function stats(buckets: SeriesBucket[], m: 't' | 'h') {
  let min: number | null = null;
  let max: number | null = null;
  let sum = 0;
  let n = 0;
  for (const b of buckets) {
    const lo = b[`${m}Min`];
    const hi = b[`${m}Max`];
    if (lo !== null && (min === null || lo < min)) min = lo;
    if (hi !== null && (max === null || hi > max)) max = hi;
    sum += b[`${m}Sum`];
    n += b[`${m}N`];
  }
  return { min: round(min), max: round(max), mean: n ? round(sum / n) : null };
}
