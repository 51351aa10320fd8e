import { sql } from 'kysely';
import type { HistoryFilter } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { filtered, type HistoryWindow } from '../readings/history-repository';
import type { ReportAlarm, ReportLimits } from '../../reports/types';
import { alarmTypeName } from '../alarms/format';
import { ReadingColumns } from './render/render-task';

/** The SQL that gathers what a report shows. Called by the job, after the export call checked the caller's scope. */

/** Which readings a report covers: a device's, in a window, optionally only those of one travel. */
export interface ReadingSelection {
  deviceNum: number;
  window: HistoryWindow;
  /** The value ranges of the history filter (device history exports). */
  filter: HistoryFilter;
  travelId: string | null;
}

/** Readings are read in slices of this many: memory stays flat and, on PGlite, the event loop breathes between them. */
const SLICE = 20_000;

function selection(db: Db, s: ReadingSelection) {
  const query = filtered(db, s.deviceNum, s.filter, s.window);
  return s.travelId ? query.where('travel_id', '=', s.travelId) : query;
}

export async function countReadings(db: Db, s: ReadingSelection): Promise<number> {
  const row = await selection(db, s).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The selected readings, oldest first, as columns; refuses (returns null) once there are more than `max`. */
export async function readReadingColumns(db: Db, s: ReadingSelection, max: number, slice = SLICE): Promise<ReadingColumns | null> {
  const columns = new ReadingColumns(Math.min(max, slice));
  // The instant as epoch milliseconds: a float parses several times faster than a timestamptz text into a Date, and
  // this runs on the thread that answers requests.
  const epochMs = sql<number>`(extract(epoch from ts) * 1000)::float8`;
  let after: number | null = null;
  for (;;) {
    let query = selection(db, s).select([epochMs.as('t'), 'temperature', 'humidity', 'battery', 'lat', 'lng']);
    // (device_num, ts) is the key: the next slice starts right after the last instant read. The range on ts keeps
    // to the index; the comparison on the same expression as `t` stays exact should a ts carry microseconds.
    if (after !== null) query = query.where('ts', '>=', new Date(Math.floor(after))).where(epochMs, '>', after);
    const rows = await query.orderBy('ts').limit(slice).execute();
    for (const row of rows) columns.push(row);
    if (columns.count > max) return null;
    if (rows.length < slice) return columns;
    after = rows[rows.length - 1]!.t;
  }
}

/** Alarms of a device that overlap the period, oldest first (at most 1,000: a report is not an alarm log). */
export async function alarmsInPeriod(db: Db, deviceId: string, window: HistoryWindow): Promise<ReportAlarm[]> {
  const rows = await db
    .selectFrom('alarms as a')
    .leftJoin('users as u', 'u.id', 'a.acknowledged_by')
    .leftJoin('electronic_signatures as s', 's.id', 'a.ack_signature_id')
    .select([
      'a.type', 'a.message', 'a.started_at', 'a.active', 'a.temperature_min', 'a.temperature_max', 'a.humidity_min',
      'a.humidity_max', 'a.acknowledged_at', 'a.acknowledge_message', 'u.name as acknowledged_by_name',
      's.printed_name as signer_name', 's.username as signer_username', 's.meaning as signer_meaning', 's.signed_at as signed_at',
    ])
    .where('a.device_id', '=', deviceId)
    .where('a.started_at', '<=', window.to)
    .where((eb) => eb.or([eb('a.ended_at', 'is', null), eb('a.ended_at', '>=', window.from)]))
    .orderBy('a.started_at')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    occurredAt: r.started_at,
    type: alarmTypeName(r.type),
    message: r.message,
    temperature: { min: r.temperature_min, max: r.temperature_max },
    humidity: { min: r.humidity_min, max: r.humidity_max },
    active: r.active,
    acknowledgedAt: r.acknowledged_at,
    acknowledgedBy: r.acknowledged_by_name,
    acknowledgementMessage: r.acknowledge_message,
    signature: r.signer_name && r.signed_at
      ? { printedName: r.signer_name, username: r.signer_username!, meaning: r.signer_meaning!, signedAt: r.signed_at }
      : null,
  }));
}

export interface ReportDevice {
  id: string;
  num: number;
  mac: string;
  name: string;
  serial: string | null;
  enterpriseName: string | null;
  limits: ReportLimits;
  reportIntervalSeconds: number | null;
  learnedIntervalSeconds: number | null;
  /** Coverage is counted from when the device came into service (issue 26). */
  createdAt: Date;
  linkedAt: Date | null;
}

export async function findReportDevice(db: Db, deviceId: string): Promise<ReportDevice | undefined> {
  const row = await db
    .selectFrom('devices as d')
    .leftJoin('enterprises as e', 'e.id', 'd.enterprise_id')
    .select(['d.id', 'd.num', 'd.mac', 'd.name', 'd.model', 'e.name as enterprise_name', 'd.temperature_min', 'd.temperature_max', 'd.humidity_min', 'd.humidity_max', 'd.report_interval_seconds', 'd.learned_interval_seconds', 'd.created_at', 'd.linked_at'])
    .where('d.id', '=', deviceId)
    .executeTakeFirst();
  return row && toReportDevice(row);
}

/** The devices of a travel with the travel's own name and limits where set, else the device's. */
export async function findTravelReportDevices(db: Db, travelId: string, deviceId?: string | null): Promise<ReportDevice[]> {
  let query = db
    .selectFrom('travel_devices as td')
    .innerJoin('devices as d', 'd.id', 'td.device_id')
    .leftJoin('enterprises as e', 'e.id', 'd.enterprise_id')
    .select([
      'd.id', 'd.num', 'd.mac', 'd.model', 'e.name as enterprise_name', 'd.report_interval_seconds', 'd.learned_interval_seconds', 'd.created_at', 'd.linked_at',
      sql<string>`coalesce(td.name, d.name)`.as('name'),
      sql<number | null>`coalesce(td.temperature_min, d.temperature_min)`.as('temperature_min'),
      sql<number | null>`coalesce(td.temperature_max, d.temperature_max)`.as('temperature_max'),
      sql<number | null>`coalesce(td.humidity_min, d.humidity_min)`.as('humidity_min'),
      sql<number | null>`coalesce(td.humidity_max, d.humidity_max)`.as('humidity_max'),
    ])
    .where('td.travel_id', '=', travelId);
  if (deviceId) query = query.where('d.id', '=', deviceId);
  const rows = await query.orderBy('d.mac').execute();
  return rows.map(toReportDevice);
}

function toReportDevice(r: {
  id: string; num: number; mac: string; name: string; model: string | null; enterprise_name: string | null;
  temperature_min: number | null; temperature_max: number | null; humidity_min: number | null; humidity_max: number | null;
  report_interval_seconds: number | null; learned_interval_seconds: number | null; created_at: Date; linked_at: Date | null;
}): ReportDevice {
  return {
    id: r.id,
    num: r.num,
    mac: r.mac,
    name: r.name,
    serial: r.model,
    enterpriseName: r.enterprise_name,
    limits: { temperature: { min: r.temperature_min, max: r.temperature_max }, humidity: { min: r.humidity_min, max: r.humidity_max } },
    reportIntervalSeconds: r.report_interval_seconds,
    learnedIntervalSeconds: r.learned_interval_seconds,
    createdAt: r.created_at,
    linkedAt: r.linked_at,
  };
}

/**
 * Positions recorded during a travel and the distance between consecutive distinct ones (great-circle), in one
 * statement: the database walks the points, the report needs only the two numbers.
 */
export async function travelRouteStats(db: Db, travelId: string, window: HistoryWindow): Promise<{ positions: number; distanceKm: number }> {
  const result = await sql<{ positions: number; distance_km: number | null }>`
    WITH points AS (
      SELECT r.lat, r.lng, lag(r.lat) OVER w AS prev_lat, lag(r.lng) OVER w AS prev_lng
      FROM readings r
      WHERE r.travel_id = ${travelId} AND r.ts >= ${window.from} AND r.ts <= ${window.to}
        AND r.lat IS NOT NULL AND r.lng IS NOT NULL
      WINDOW w AS (ORDER BY r.ts, r.device_num)
    )
    SELECT count(*)::int AS positions,
      sum(CASE WHEN prev_lat IS NULL OR (prev_lat = lat AND prev_lng = lng) THEN 0 ELSE
        2 * 6371.0088 * asin(least(1, sqrt(
          power(sin(radians(lat - prev_lat) / 2), 2) +
          cos(radians(prev_lat)) * cos(radians(lat)) * power(sin(radians(lng - prev_lng) / 2), 2))))
      END)::float8 AS distance_km
    FROM points`.execute(db);
  const row = result.rows[0];
  return { positions: Number(row?.positions ?? 0), distanceKm: Math.round((row?.distance_km ?? 0) * 10) / 10 };
}
