import { instantOf } from '../src/lib/time-zone';
import type { TestContext } from './context';

/** The zone the seals' days are days of in the tests (REPORT_TIME_ZONE's default). */
export const SEAL_ZONE = 'America/Sao_Paulo';

/** An instant of a wall-clock time of a day (AAAA-MM-DD) in São Paulo. */
export function saoPauloAt(day: string, hour: number, minute = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return instantOf({ year, month, day: date, hour, minute, second: 0 }, SEAL_ZONE);
}

/** The roll-up job moves the line under the test clock; the seal job then seals what is behind it. */
export async function runSealJobs(ctx: TestContext) {
  await ctx.services.rollups.run();
  return ctx.services.seals.run();
}
