import type { SelectQueryBuilder } from 'kysely';
import type { HistoryFilter, Reading } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { badRequest } from '../../lib/errors';

export const DEFAULT_WINDOW_MS = 2 * 24 * 3600 * 1000;

export interface HistoryWindow {
  from: Date;
  to: Date;
}

/** The instants a history filter means: the UTC fields when given, else the typed ones, else the last two days. */
export function resolveWindow(filter: HistoryFilter, now: Date): HistoryWindow {
  if (filter.lastTwoDays) return { from: new Date(now.getTime() - DEFAULT_WINDOW_MS), to: now };
  const toText = filter.dateEndUtc ?? filter.dateEnd;
  const fromText = filter.dateInitUtc ?? filter.dateInit;
  const to = toText ? new Date(toText) : now;
  const from = fromText ? new Date(fromText) : new Date(to.getTime() - DEFAULT_WINDOW_MS);
  if (from > to) throw badRequest('A data inicial deve ser anterior à data final.');
  return { from, to };
}

/** The readings of a device in a window that pass the filter's value ranges (history pages, charts, reports). */
export function filtered(db: Db, deviceNum: number, filter: HistoryFilter, window: HistoryWindow) {
  let query = db
    .selectFrom('readings')
    .where('device_num', '=', deviceNum)
    .where('ts', '>=', window.from)
    .where('ts', '<=', window.to);
  if (filter.minTemp !== undefined) query = query.where('temperature', '>=', filter.minTemp);
  if (filter.maxTemp !== undefined) query = query.where('temperature', '<=', filter.maxTemp);
  if (filter.minHum !== undefined) query = query.where('humidity', '>=', filter.minHum);
  if (filter.maxHum !== undefined) query = query.where('humidity', '<=', filter.maxHum);
  return query as SelectQueryBuilder<Database, 'readings', object>;
}

export async function readingsPage(
  db: Db,
  device: { num: number; mac: string },
  filter: HistoryFilter,
  window: HistoryWindow,
  page: number,
  limit: number,
): Promise<{ data: Reading[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, device.num, filter, window)
      .select(['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng', 'travel_id'])
      .orderBy('ts', 'desc')
      .offset((page - 1) * limit)
      .limit(limit)
      .execute(),
    filtered(db, device.num, filter, window).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    data: rows.map((r) => ({
      createdAt: r.ts.toISOString(),
      temperature: r.temperature,
      humidity: r.humidity,
      battery: r.battery,
      lat: r.lat,
      lng: r.lng,
      travelId: r.travel_id,
      mac: device.mac,
    })),
  };
}
