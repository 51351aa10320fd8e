import type { DiscoveredDevice } from '@sentinela/contract';
import type { Db } from '../../db/database';

export interface NewBeacon {
  mac: string;
  name: string;
  model: string | null;
}

/** Which of these MACs a device already has. */
export async function registeredMacs(db: Db, macs: readonly string[]): Promise<Set<string>> {
  if (macs.length === 0) return new Set();
  const rows = await db.selectFrom('devices').select('mac').where('mac', 'in', [...macs]).execute();
  return new Set(rows.map((r) => r.mac));
}

/**
 * Registers beacons outside any enterprise (the super admin's stock). A MAC registered meanwhile by someone else is
 * skipped, not an error: the caller compares what came back with what it sent.
 */
export async function insertBeacons(db: Db, beacons: readonly NewBeacon[], now: Date): Promise<{ id: string; mac: string }[]> {
  if (beacons.length === 0) return [];
  return db
    .insertInto('devices')
    .values(beacons.map((b) => ({ mac: b.mac, name: b.name, model: b.model, key: null, enterprise_id: null, location_id: null, group_id: null, created_at: now, updated_at: now })))
    .onConflict((oc) => oc.column('mac').doNothing())
    .returning(['id', 'mac'])
    .execute();
}

/** A registered MAC leaves the discovered list. */
export async function forgetDiscovered(db: Db, macs: readonly string[]): Promise<void> {
  if (macs.length === 0) return;
  await db.deleteFrom('discovered_devices').where('mac', 'in', [...macs]).execute();
}

/** Most rows the discovered list shows: the most recently seen. */
export const DISCOVERED_LIST_MAX = 500;

/** MACs gateways sent readings for that no device has, most recently seen first. */
export async function listDiscovered(db: Db): Promise<DiscoveredDevice[]> {
  const rows = await db
    .selectFrom('discovered_devices as dd')
    .leftJoin('gateways as g', 'g.id', 'dd.last_gateway_id')
    .select(['dd.mac', 'dd.first_seen_at', 'dd.last_seen_at', 'dd.reading_count', 'g.id as gateway_id', 'g.name as gateway_name'])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('devices as d').select('d.id').whereRef('d.mac', '=', 'dd.mac'))))
    .orderBy('dd.last_seen_at', 'desc')
    .orderBy('dd.mac')
    .limit(DISCOVERED_LIST_MAX)
    .execute();
  return rows.map((r) => ({
    mac: r.mac,
    first_seen_at: r.first_seen_at.toISOString(),
    last_seen_at: r.last_seen_at.toISOString(),
    gateway: r.gateway_id && r.gateway_name ? { _id: r.gateway_id, name: r.gateway_name } : null,
    readings: Number(r.reading_count),
  }));
}
