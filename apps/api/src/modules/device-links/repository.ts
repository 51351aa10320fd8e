import type { Db } from '../../db/database';

export interface LinkableDevice {
  id: string;
  mac: string;
  name: string;
  enterprise_id: string | null;
}

/** The named devices, locked until the transaction ends: two link calls on one device queue. */
export async function lockDevices(db: Db, ids: readonly string[]): Promise<LinkableDevice[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('devices').select(['id', 'mac', 'name', 'enterprise_id']).where('id', 'in', [...ids]).orderBy('num').forUpdate().execute();
}

/** An enterprise's devices, locked. */
export async function lockDevicesOfEnterprise(db: Db, enterpriseId: string): Promise<LinkableDevice[]> {
  return db.selectFrom('devices').select(['id', 'mac', 'name', 'enterprise_id']).where('enterprise_id', '=', enterpriseId).orderBy('num').forUpdate().execute();
}

export async function moveDevicesIntoEnterprise(db: Db, ids: readonly string[], enterpriseId: string, now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('devices').set({ enterprise_id: enterpriseId, linked_at: now, updated_at: now }).where('id', 'in', [...ids]).execute();
}

/**
 * Devices leave their enterprise: its places, its users' links and its gateways' links go with it; the device's
 * readings, alarms, events and travels stay (its history is the device's).
 */
export async function releaseDevicesFromEnterprise(db: Db, ids: readonly string[], enterpriseId: string, now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('device_users').where('device_id', 'in', [...ids]).execute();
  await db
    .deleteFrom('gateway_devices')
    .where('device_id', 'in', [...ids])
    .where('gateway_id', 'in', (eb) => eb.selectFrom('gateways').select('id').where('enterprise_id', '=', enterpriseId))
    .execute();
  await db.updateTable('devices').set({ enterprise_id: null, linked_at: null, location_id: null, group_id: null, updated_at: now }).where('id', 'in', [...ids]).execute();
}

/** The devices linked to a user, locked through the user's row (one link call per user at a time). */
export async function devicesOfUserLocked(db: Db, userId: string): Promise<LinkableDevice[]> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  return db
    .selectFrom('device_users as du')
    .innerJoin('devices as d', 'd.id', 'du.device_id')
    .select(['d.id', 'd.mac', 'd.name', 'd.enterprise_id'])
    .where('du.user_id', '=', userId)
    .execute();
}

export async function addUserLinks(db: Db, userId: string, deviceIds: readonly string[], now: Date): Promise<void> {
  if (deviceIds.length === 0) return;
  await db
    .insertInto('device_users')
    .values(deviceIds.map((deviceId) => ({ device_id: deviceId, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.columns(['device_id', 'user_id']).doNothing())
    .execute();
}

export async function removeUserLinks(db: Db, userId: string, deviceIds: readonly string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await db.deleteFrom('device_users').where('user_id', '=', userId).where('device_id', 'in', [...deviceIds]).execute();
}
