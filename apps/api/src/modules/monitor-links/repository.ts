import type { MonitorAlarm, MonitorLink, z } from '@sentinela/contract';
import type { Db } from '../../db/database';

/** Which links a caller manages: every one (super admin) or its enterprise's. */
export type MonitorLinkScope = { kind: 'all' } | { kind: 'enterprise'; enterpriseId: string };

export interface MonitorLinkRow {
  id: string;
  enterprise_id: string;
  name: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  use_count: number;
}

const LINK_COLUMNS = ['l.id', 'l.enterprise_id', 'l.name', 'l.created_by', 'l.created_at', 'l.expires_at', 'l.revoked_at', 'l.last_used_at', 'l.use_count'] as const;

/** The ids among `ids` of devices of the enterprise (a foreign or unknown id is simply absent). */
export async function devicesOfEnterprise(db: Db, enterpriseId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('devices').select('id').where('enterprise_id', '=', enterpriseId).where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

/** The ids among `ids` of travels of the enterprise. */
export async function travelsOfEnterprise(db: Db, enterpriseId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('travels').select('id').where('enterprise_id', '=', enterpriseId).where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertMonitorLink(
  db: Db,
  values: { enterpriseId: string; name: string; tokenHash: Buffer; createdBy: string; at: Date; expiresAt: Date; deviceIds: readonly string[]; travelIds: readonly string[] },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('monitor_links')
      .values({
        enterprise_id: values.enterpriseId,
        name: values.name,
        token_hash: values.tokenHash,
        created_by: values.createdBy,
        created_at: values.at,
        expires_at: values.expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (values.deviceIds.length > 0) await trx.insertInto('monitor_link_devices').values(values.deviceIds.map((deviceId) => ({ link_id: id, device_id: deviceId }))).execute();
    if (values.travelIds.length > 0) await trx.insertInto('monitor_link_travels').values(values.travelIds.map((travelId) => ({ link_id: id, travel_id: travelId }))).execute();
    return id;
  });
}

function linksQuery(db: Db, scope: MonitorLinkScope) {
  const query = db.selectFrom('monitor_links as l').select([...LINK_COLUMNS]);
  return scope.kind === 'all' ? query : query.where('l.enterprise_id', '=', scope.enterpriseId);
}

export async function findMonitorLinkInScope(db: Db, scope: MonitorLinkScope, id: string): Promise<MonitorLinkRow | undefined> {
  return linksQuery(db, scope).where('l.id', '=', id).executeTakeFirst();
}

export async function findMonitorLinkByTokenHash(db: Db, tokenHash: Buffer): Promise<MonitorLinkRow | undefined> {
  return db.selectFrom('monitor_links as l').select([...LINK_COLUMNS]).where('l.token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findMonitorLinkById(db: Db, id: string): Promise<MonitorLinkRow | undefined> {
  return db.selectFrom('monitor_links as l').select([...LINK_COLUMNS]).where('l.id', '=', id).executeTakeFirst();
}

const routeText = (origin: string, destiny: string) => `${origin} → ${destiny}`;

/** Links of the scope as the management screen lists them: newest first, with what each shows. */
export async function listMonitorLinks(db: Db, scope: MonitorLinkScope, ids?: readonly string[]): Promise<MonitorLink[]> {
  let query = linksQuery(db, scope)
    .innerJoin('enterprises as e', 'e.id', 'l.enterprise_id')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .select(['e.name as enterprise_name', 'u.name as creator_name'])
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id');
  if (ids) query = query.where('l.id', 'in', [...ids]);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const linkIds = rows.map((r) => r.id);
  // Only what still belongs to the link's enterprise is shown (and monitored): a device moved away drops out.
  const devices = await db
    .selectFrom('monitor_link_devices as ld')
    .innerJoin('monitor_links as l', 'l.id', 'ld.link_id')
    .innerJoin('devices as d', (join) => join.onRef('d.id', '=', 'ld.device_id').onRef('d.enterprise_id', '=', 'l.enterprise_id'))
    .select(['ld.link_id', 'd.id', 'd.name', 'd.mac'])
    .where('ld.link_id', 'in', linkIds)
    .orderBy('d.name')
    .execute();
  const travels = await db
    .selectFrom('monitor_link_travels as lt')
    .innerJoin('monitor_links as l', 'l.id', 'lt.link_id')
    .innerJoin('travels as t', (join) => join.onRef('t.id', '=', 'lt.travel_id').onRef('t.enterprise_id', '=', 'l.enterprise_id'))
    .select(['lt.link_id', 't.id', 't.code', 't.origin_address', 't.destiny_address'])
    .where('lt.link_id', 'in', linkIds)
    .orderBy('t.created_at')
    .execute();
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    enterprise: { _id: row.enterprise_id, name: row.enterprise_name },
    travels: travels.filter((t) => t.link_id === row.id).map((t) => ({ _id: t.id, code: t.code, route: routeText(t.origin_address, t.destiny_address) })),
    devices: devices.filter((d) => d.link_id === row.id).map((d) => ({ _id: d.id, name: d.name, mac: d.mac })),
    created_by: row.created_by && row.creator_name ? { _id: row.created_by, name: row.creator_name } : null,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    use_count: Number(row.use_count),
  }));
}

export async function revokeMonitorLink(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('monitor_links').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function recordMonitorLinkUse(db: Db, id: string, at: Date): Promise<void> {
  await db
    .updateTable('monitor_links')
    .set((eb) => ({ use_count: eb('use_count', '+', 1), last_used_at: at }))
    .where('id', '=', id)
    .execute();
}

/** The link's chosen devices that are still its enterprise's, with their newest values (device's own limits). */
export async function monitoredDevices(db: Db, link: { id: string; enterprise_id: string }) {
  return db
    .selectFrom('monitor_link_devices as ld')
    .innerJoin('devices as d', 'd.id', 'ld.device_id')
    .select([
      'd.id', 'd.name', 'd.mac', 'd.last_battery', 'd.last_temperature', 'd.last_humidity', 'd.last_sync_at',
      'd.temperature_min', 'd.temperature_max', 'd.humidity_min', 'd.humidity_max', 'd.last_lat', 'd.last_lng',
      'd.report_interval_seconds', 'd.learned_interval_seconds',
    ])
    .where('ld.link_id', '=', link.id)
    .where('d.enterprise_id', '=', link.enterprise_id)
    .orderBy('d.name')
    .orderBy('d.mac')
    .execute();
}

/** The link's chosen travels that are still its enterprise's. */
export async function monitoredTravels(db: Db, link: { id: string; enterprise_id: string }) {
  return db
    .selectFrom('monitor_link_travels as lt')
    .innerJoin('travels as t', 't.id', 'lt.travel_id')
    .select(['t.id', 't.code', 't.origin_address', 't.destiny_address', 't.status'])
    .where('lt.link_id', '=', link.id)
    .where('t.enterprise_id', '=', link.enterprise_id)
    .orderBy('t.created_at')
    .execute();
}

/** Positions of devices (newest known). */
export async function devicePositions(db: Db, deviceIds: readonly string[]): Promise<Map<string, [number, number]>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db.selectFrom('devices').select(['id', 'last_lat', 'last_lng']).where('id', 'in', [...deviceIds]).execute();
  const positions = new Map<string, [number, number]>();
  for (const r of rows) if (r.last_lat !== null && r.last_lng !== null) positions.set(r.id, [r.last_lat, r.last_lng]);
  return positions;
}

/** Open alarms of devices, oldest first. */
export async function openAlarmsOf(db: Db, deviceIds: readonly string[]): Promise<Map<string, z.infer<typeof MonitorAlarm>[]>> {
  const byDevice = new Map<string, z.infer<typeof MonitorAlarm>[]>();
  if (deviceIds.length === 0) return byDevice;
  const rows = await db
    .selectFrom('alarms')
    .select(['id', 'device_id', 'type', 'message', 'started_at', 'acknowledged_at'])
    .where('device_id', 'in', [...deviceIds])
    .where('active', '=', true)
    .orderBy('started_at')
    .execute();
  for (const r of rows) {
    const list = byDevice.get(r.device_id) ?? [];
    list.push({ _id: r.id, type: r.type, message: r.message, started_at: r.started_at.toISOString(), acknowledged: r.acknowledged_at !== null });
    byDevice.set(r.device_id, list);
  }
  return byDevice;
}
