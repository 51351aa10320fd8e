import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import { ThrottledLog } from './throttled-log';

interface Logger {
  warn(obj: unknown, msg: string): void;
}

export interface LoadSample {
  /** Mean event-loop delay over the last sample, ms (Infinity: the loop never turned during it). */
  eventLoopDelayMs: number;
  /** Share of the last sample the loop was busy, 0–1. */
  eventLoopUtilization: number;
}

/** The histogram's own resolution, subtracted from its mean as @fastify/under-pressure did (the figures stay comparable). */
const RESOLUTION_MS = 10;

/**
 * The process's load as load shedding reads it: the event loop's mean delay and its utilisation, sampled once a
 * second. It replaces @fastify/under-pressure, whose timer also read the process's memory on every sample:
 * `process.memoryUsage()` opens /proc/self/stat, throws EMFILE when the process is out of file descriptors, and
 * thrown from a timer that ended the process during a connection flood (issue 21). Nothing here opens a file, and a
 * sample that throws anyway keeps the last figures and is logged (throttled).
 */
export class EventLoopLoad {
  private readonly histogram: IntervalHistogram;
  private utilization: EventLoopUtilization;
  private current: LoadSample = { eventLoopDelayMs: 0, eventLoopUtilization: 0 };
  private readonly timer: NodeJS.Timeout;
  private readonly warnings: ThrottledLog;

  constructor(log: Logger, intervalMs = 1000) {
    this.warnings = new ThrottledLog(log, 60_000);
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.histogram.enable();
    this.utilization = performance.eventLoopUtilization();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** The last sample's figures. */
  get(): LoadSample {
    return this.current;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private sample(): void {
    try {
      const mean = this.histogram.mean / 1e6;
      this.histogram.reset();
      const now = performance.eventLoopUtilization();
      const utilization = performance.eventLoopUtilization(now, this.utilization).utilization;
      this.utilization = now;
      this.current = {
        eventLoopDelayMs: Number.isNaN(mean) ? Infinity : Math.max(0, mean - RESOLUTION_MS),
        eventLoopUtilization: Number.isFinite(utilization) ? utilization : 0,
      };
    } catch (err) {
      this.warnings.warn('sample', { err: err instanceof Error ? err.message : String(err) }, 'event-loop load not sampled; the last figures stay');
    }
  }
}
