import { sql } from 'kysely';
import type { DeviceGroup, Location, PlacedDevice } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { TenantScope } from '../../lib/tenant-scope';
import { expectedIntervalOf } from '../readings/expected-interval';

/**
 * Which enterprises' locations a scope reaches: all (super admin) or its own enterprise's (everyone else; a user
 * without an enterprise reaches none). Device counts and the devices themselves follow the device scope instead.
 */
function locationEnterprise(scope: TenantScope): { kind: 'all' } | { kind: 'one'; enterpriseId: string } | { kind: 'none' } {
  if (scope.kind === 'all') return { kind: 'all' };
  return scope.enterpriseId ? { kind: 'one', enterpriseId: scope.enterpriseId } : { kind: 'none' };
}

/** A SQL condition on the devices aliased `d`: the devices the scope may see (as devices/repository.ts). */
function deviceVisible(scope: TenantScope) {
  switch (scope.kind) {
    case 'all':
      return sql<boolean>`true`;
    case 'enterprise':
      return sql<boolean>`d.enterprise_id = ${scope.enterpriseId}`;
    case 'user':
      return sql<boolean>`exists (select 1 from device_users du where du.device_id = d.id and du.user_id = ${scope.userId})`;
  }
}

function locationQuery(db: Db, scope: TenantScope) {
  const reach = locationEnterprise(scope);
  let query = db
    .selectFrom('locations as l')
    .innerJoin('enterprises as e', 'e.id', 'l.enterprise_id')
    .select([
      'l.id', 'l.name', 'l.address', 'l.latitude', 'l.longitude', 'l.created_at', 'l.enterprise_id', 'e.name as enterprise_name',
      sql<number>`(select count(*) from devices d where d.location_id = l.id and ${deviceVisible(scope)})`.as('devices'),
    ]);
  if (reach.kind === 'one') query = query.where('l.enterprise_id', '=', reach.enterpriseId);
  if (reach.kind === 'none') query = query.where(sql<boolean>`false`);
  return query;
}

type LocationRow = Awaited<ReturnType<ReturnType<typeof locationQuery>['executeTakeFirstOrThrow']>>;

function toLocation(row: LocationRow): Location {
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    devices: Number(row.devices),
    enterprise: { _id: row.enterprise_id, name: row.enterprise_name },
    created_at: row.created_at.toISOString(),
  };
}

export async function listLocations(db: Db, scope: TenantScope): Promise<Location[]> {
  const rows = await locationQuery(db, scope).orderBy('l.name').orderBy('l.id').execute();
  return rows.map(toLocation);
}

export async function findLocation(db: Db, scope: TenantScope, id: string): Promise<Location | undefined> {
  const row = await locationQuery(db, scope).where('l.id', '=', id).executeTakeFirst();
  return row && toLocation(row);
}

export interface LocationValues {
  name: string;
  address: string | null;
  latitude: number;
  longitude: number;
}

export async function insertLocation(db: Db, enterpriseId: string, values: LocationValues, at: Date): Promise<string> {
  const row = await db
    .insertInto('locations')
    .values({ enterprise_id: enterpriseId, ...values, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLocation(db: Db, id: string, values: LocationValues): Promise<void> {
  await db.updateTable('locations').set(values).where('id', '=', id).execute();
}

/** The devices placed at a location (any scope: the caller was already allowed the location). */
export async function devicesAtLocation(db: Db, locationId: string): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('devices').select(['id', 'name']).where('location_id', '=', locationId).orderBy('id').execute();
}

/** Removes a location: its groups go with it, its devices stay, unplaced (location and group cleared). */
export async function deleteLocation(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('devices').set({ location_id: null, group_id: null, updated_at: at }).where('location_id', '=', id).execute();
  await db.deleteFrom('locations').where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------------------------
// Device groups

function groupQuery(db: Db, scope: TenantScope) {
  const reach = locationEnterprise(scope);
  let query = db
    .selectFrom('device_groups as g')
    .innerJoin('locations as l', 'l.id', 'g.location_id')
    .select([
      'g.id', 'g.name', 'g.location_id', 'l.enterprise_id',
      sql<number>`(select count(*) from devices d where d.group_id = g.id and ${deviceVisible(scope)})`.as('devices'),
    ]);
  if (reach.kind === 'one') query = query.where('l.enterprise_id', '=', reach.enterpriseId);
  if (reach.kind === 'none') query = query.where(sql<boolean>`false`);
  return query;
}

type GroupRow = Awaited<ReturnType<ReturnType<typeof groupQuery>['executeTakeFirstOrThrow']>>;

function toGroup(row: GroupRow): DeviceGroup {
  return { _id: row.id, id: row.id, name: row.name, location_id: row.location_id, devices: Number(row.devices) };
}

export async function listGroupsOfLocation(db: Db, scope: TenantScope, locationId: string): Promise<DeviceGroup[]> {
  const rows = await groupQuery(db, scope).where('g.location_id', '=', locationId).orderBy('g.name').orderBy('g.id').execute();
  return rows.map(toGroup);
}

export async function findGroup(db: Db, scope: TenantScope, id: string): Promise<(DeviceGroup & { enterpriseId: string }) | undefined> {
  const row = await groupQuery(db, scope).where('g.id', '=', id).executeTakeFirst();
  return row && { ...toGroup(row), enterpriseId: row.enterprise_id };
}

export async function insertGroup(db: Db, locationId: string, name: string): Promise<string> {
  const row = await db.insertInto('device_groups').values({ location_id: locationId, name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function renameGroup(db: Db, id: string, name: string): Promise<void> {
  await db.updateTable('device_groups').set({ name }).where('id', '=', id).execute();
}

/** Removes a group: its devices stay at the location, without a group. */
export async function deleteGroup(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('devices').set({ group_id: null, updated_at: at }).where('group_id', '=', id).execute();
  await db.deleteFrom('device_groups').where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------------------------
// Devices, for the map and the placement dialog

export async function listPlacedDevices(db: Db, scope: TenantScope): Promise<PlacedDevice[]> {
  const rows = await db
    .selectFrom('devices as d')
    .select([
      'd.id', 'd.name', 'd.mac', 'd.enterprise_id', 'd.location_id', 'd.group_id', 'd.last_temperature', 'd.last_humidity', 'd.last_battery',
      'd.last_sync_at', 'd.temperature_min', 'd.temperature_max', 'd.humidity_min', 'd.humidity_max',
      'd.report_interval_seconds', 'd.learned_interval_seconds',
    ])
    .where(deviceVisible(scope))
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    mac: row.mac,
    enterprise_id: row.enterprise_id,
    location_id: row.location_id,
    group_id: row.group_id,
    temperature: row.last_temperature,
    humidity: row.last_humidity,
    battery: row.last_battery,
    lastSyncDate: row.last_sync_at ? row.last_sync_at.toISOString() : null,
    expectedIntervalSeconds: expectedIntervalOf(row.report_interval_seconds, row.learned_interval_seconds),
    config: {
      temperature: { min: row.temperature_min, max: row.temperature_max },
      humidity: { min: row.humidity_min, max: row.humidity_max },
    },
  }));
}

/** Of these devices, those a user-scoped caller may see (the live feed filters each batch per such socket). */
export async function devicesLinkedToUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('device_users').select('device_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.device_id);
}
