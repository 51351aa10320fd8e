import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's CPU priority (a nice value, 0–19). On Linux the nice value is per thread, and
 * setpriority given a thread id changes only that thread: a worker thread then uses the cores the API's thread
 * leaves idle instead of competing with it (ADR 9, ADR 13). Elsewhere, or when not allowed, nothing changes.
 */
export function lowerThreadPriority(nice: number): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, nice);
  } catch {
    // no /proc (not Linux) or not allowed: run at normal priority
  }
}
