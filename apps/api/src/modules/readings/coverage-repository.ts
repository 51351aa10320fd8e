import { sql } from 'kysely';
import type { Coverage } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { computeCoverage, type CoverageReadings } from './coverage';
import type { HistoryWindow } from './history-repository';

export interface CoverageDevice {
  num: number;
  reportIntervalSeconds: number | null;
  learnedIntervalSeconds: number | null;
  /** When it was registered, and linked to its current enterprise (null: not linked, or not known). */
  createdAt: Date;
  linkedAt: Date | null;
}

/** When a device came into service for whoever reads its coverage: linked to its enterprise, else registered. */
export function inServiceSince(device: Pick<CoverageDevice, 'createdAt' | 'linkedAt'>): { at: number; reason: 'created' | 'linked' } {
  return device.linkedAt && device.linkedAt > device.createdAt ? { at: device.linkedAt.getTime(), reason: 'linked' } : { at: device.createdAt.getTime(), reason: 'created' };
}

/**
 * A device's coverage over a window, all its readings counted whatever their values (a value filter says which
 * readings to show, not which arrived). Optionally only the readings of one travel. The window's end is clipped to
 * `now`: the future is not a gap.
 */
export async function loadCoverage(db: Db, device: CoverageDevice, window: HistoryWindow, now: Date, travelId: string | null = null): Promise<Coverage> {
  const to = Math.min(window.to.getTime(), now.getTime());
  let query = db
    .selectFrom('readings')
    .select([sql<number>`(extract(epoch from ts) * 1000)::float8`.as('t'), 'seq', 'seq_modulo'])
    .where('device_num', '=', device.num)
    .where('ts', '>=', window.from)
    .where('ts', '<=', new Date(Math.max(to, window.from.getTime())));
  if (travelId) query = query.where('travel_id', '=', travelId);
  const rows = await query.orderBy('ts').execute();
  const columns: CoverageReadings = { times: new Array(rows.length), seq: new Array(rows.length), seqModulo: new Array(rows.length) };
  rows.forEach((row, i) => {
    columns.times[i] = Number(row.t);
    columns.seq[i] = row.seq;
    columns.seqModulo[i] = row.seq_modulo;
  });
  const configured = device.reportIntervalSeconds;
  const learned = device.learnedIntervalSeconds !== null && device.learnedIntervalSeconds > 0 ? device.learnedIntervalSeconds : null;
  return computeCoverage(columns, {
    from: window.from.getTime(),
    inService: inServiceSince(device),
    to,
    intervalSeconds: configured ?? learned,
    intervalSource: configured !== null ? 'configured' : learned !== null ? 'learned' : null,
  });
}
