import type { SelectQueryBuilder } from 'kysely';
import type { HistoryFilter, Reading } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { instantFromText } from '../../lib/time-zone';

export const DEFAULT_WINDOW_MS = 2 * 24 * 3600 * 1000;

export interface HistoryWindow {
  from: Date;
  to: Date;
}

/**
 * The instants a history filter means: the UTC fields when given, else the typed ones, else the last two days.
 * A time without an offset (a datetime-local value, ADR 0071) is read in UTC for the *Utc fields and for typed
 * ones with "Filtrar data em UTC?" on Sim, else in the users' zone (`timeZone`).
 */
export function resolveWindow(filter: HistoryFilter, now: Date, timeZone: string): HistoryWindow {
  if (filter.lastTwoDays) return { from: new Date(now.getTime() - DEFAULT_WINDOW_MS), to: now };
  const typedZone = filter.isUtc ? 'UTC' : timeZone;
  const instant = (utc: string | undefined, typed: string | undefined, edge: 'start' | 'end') =>
    utc ? instantFromText(utc, 'UTC', edge) : typed ? instantFromText(typed, typedZone, edge) : undefined;
  const to = instant(filter.dateEndUtc, filter.dateEnd, 'end') ?? now;
  const from = instant(filter.dateInitUtc, filter.dateInit, 'start') ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
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

type ReadingColumns = { ts: Date; temperature: number | null; humidity: number | null; battery: number | null; lat: number | null; lng: number | null; travel_id: string | null };

function toReading(r: ReadingColumns, mac: string): Reading {
  return { createdAt: r.ts.toISOString(), temperature: r.temperature, humidity: r.humidity, battery: r.battery, lat: r.lat, lng: r.lng, travelId: r.travel_id, mac };
}

/** The newest `max` readings of the window that pass the filter, oldest first (the documents' reading list). */
export async function readingsList(db: Db, device: { num: number; mac: string }, filter: HistoryFilter, window: HistoryWindow, max: number): Promise<Reading[]> {
  const rows = await filtered(db, device.num, filter, window)
    .select(['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng', 'travel_id'])
    .orderBy('ts', 'desc')
    .limit(max)
    .execute();
  return rows.reverse().map((r) => toReading(r, device.mac));
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
    data: rows.map((r) => toReading(r, device.mac)),
  };
}
