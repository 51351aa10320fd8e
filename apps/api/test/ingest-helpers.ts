import type { LightMyRequestResponse } from 'fastify';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import type { TestContext } from './context';

/** POST /api/ingest/readings with a gateway key (the demo gateway's by default). */
export function postReadings(ctx: TestContext, readings: unknown[], key: string | null = DEMO_GATEWAY_KEY): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/ingest/readings',
    headers: key === null ? {} : { authorization: `ApiKey ${key}` },
    payload: { readings },
  });
}

/** An ISO instant `seconds` after the test clock's now. */
export function at(ctx: TestContext, seconds: number): string {
  return new Date(ctx.clock.now().getTime() + seconds * 1000).toISOString();
}

/** The ingestion's rejection counters summed by reason, over every gateway and day. */
export async function rejectionCounts(ctx: TestContext): Promise<Record<string, number>> {
  const rows = await ctx.db.selectFrom('ingest_rejections').select(['reason', 'count']).execute();
  const out: Record<string, number> = {};
  for (const r of rows) out[r.reason] = (out[r.reason] ?? 0) + Number(r.count);
  return out;
}

export async function deviceByMac(ctx: TestContext, mac: string) {
  return ctx.db.selectFrom('devices').selectAll().where('mac', '=', mac).executeTakeFirstOrThrow();
}

export async function readingsOf(ctx: TestContext, mac: string, fromIso: string) {
  const device = await deviceByMac(ctx, mac);
  return ctx.db
    .selectFrom('readings')
    .select(['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng', 'travel_id'])
    .where('device_num', '=', device.num)
    .where('ts', '>=', new Date(fromIso))
    .orderBy('ts')
    .execute();
}
