import { expect } from 'vitest';
import type { TestContext } from './context';

/** One row of an alarm's delivery log, as `GET /api/alarms/{id}/deliveries` answers it. */
export interface LoggedDelivery {
  event: string;
  channel: string;
  status: string;
  attempts: number;
  recipient: string;
  error: string | null;
  user: { name: string } | null;
}

/**
 * The alarm's delivery log once it has `count` entries all settled (sent or failed by default), read through the
 * API as the screen reads it. Deliveries are jobs: the log settles some time after the alarm.
 */
export async function waitForDeliveries(
  ctx: TestContext,
  alarmId: string,
  token: string,
  count: number,
  settled = (d: LoggedDelivery) => d.status !== 'pending',
): Promise<LoggedDelivery[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await ctx.request('GET', `/api/alarms/${alarmId}/deliveries`, token);
    expect(res.statusCode).toBe(200);
    const log = res.json() as LoggedDelivery[];
    if (log.length >= count && log.every(settled)) return log;
    if (Date.now() > deadline) throw new Error(`delivery log not settled: ${JSON.stringify(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
