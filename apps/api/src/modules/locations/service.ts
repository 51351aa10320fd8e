import { LOCATION_MESSAGES, type DeviceGroup, type Location, type LocationBody, type PlacedDevice, type UpdateLocationBody } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { ClientMeta } from '../auth/session-service';
import { recordDeviceEvent } from '../device-events/repository';
import { enterpriseExists } from '../enterprises/repository';
import {
  deleteGroup,
  deleteLocation,
  devicesAtLocation,
  findGroup,
  findLocation,
  insertGroup,
  insertLocation,
  listGroupsOfLocation,
  listLocations,
  listPlacedDevices,
  renameGroup,
  updateLocation,
} from './repository';

/** Unique indexes of migration 2026-11-26T0400-location-names. */
const LOCATION_NAME_INDEX = 'locations_enterprise_name_key';
const GROUP_NAME_INDEX = 'device_groups_location_name_key';

const ENTERPRISE_NOT_FOUND = 'Empresa não encontrada.';

type By = { userId: string; meta: ClientMeta };

/**
 * Locais (A8): an enterprise's fixed sites and their device groups. Everyone reads their enterprise's locations
 * (device counts follow what each may see); admins create, edit and remove them. Removing a location keeps its
 * devices, unplaced (ADR 0020).
 */
export class LocationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  list(scope: TenantScope): Promise<Location[]> {
    return listLocations(this.db, scope);
  }

  devices(scope: TenantScope): Promise<PlacedDevice[]> {
    return listPlacedDevices(this.db, scope);
  }

  async create(scope: TenantScope, body: LocationBody): Promise<Location> {
    const enterpriseId = await this.enterpriseForNew(scope, body.enterprise_id ?? null);
    const id = await this.uniqueName(LOCATION_NAME_INDEX, LOCATION_MESSAGES.nameTaken, () =>
      insertLocation(this.db, enterpriseId, values(body), this.clock.now()),
    );
    return this.get(scope, id);
  }

  async update(scope: TenantScope, id: string, body: UpdateLocationBody): Promise<Location> {
    await this.get(scope, id);
    await this.uniqueName(LOCATION_NAME_INDEX, LOCATION_MESSAGES.nameTaken, () => updateLocation(this.db, id, values(body)));
    return this.get(scope, id);
  }

  /** Removes the location and its groups; its devices stay, without location or group, each with a device event. */
  async remove(scope: TenantScope, id: string, by: By): Promise<void> {
    const location = await this.get(scope, id);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const devices = await devicesAtLocation(trx, id);
      await deleteLocation(trx, id, now);
      for (const device of devices) {
        await recordDeviceEvent(trx, {
          deviceId: device.id,
          type: 'config',
          message: `Local "${location.name}" removido: dispositivo sem local`,
          userId: by.userId,
          meta: by.meta,
          at: now,
        });
      }
    });
  }

  async groups(scope: TenantScope, locationId: string): Promise<DeviceGroup[]> {
    await this.get(scope, locationId);
    return listGroupsOfLocation(this.db, scope, locationId);
  }

  async createGroup(scope: TenantScope, locationId: string, name: string): Promise<DeviceGroup> {
    await this.get(scope, locationId);
    const id = await this.uniqueName(GROUP_NAME_INDEX, LOCATION_MESSAGES.groupNameTaken, () => insertGroup(this.db, locationId, name));
    return this.getGroup(scope, id);
  }

  async renameGroup(scope: TenantScope, id: string, name: string): Promise<DeviceGroup> {
    await this.getGroup(scope, id);
    await this.uniqueName(GROUP_NAME_INDEX, LOCATION_MESSAGES.groupNameTaken, () => renameGroup(this.db, id, name));
    return this.getGroup(scope, id);
  }

  /** Removes the group; its devices stay at the location, without a group. */
  async removeGroup(scope: TenantScope, id: string): Promise<void> {
    await this.getGroup(scope, id);
    await this.db.transaction().execute((trx) => deleteGroup(trx, id, this.clock.now()));
  }

  private async get(scope: TenantScope, id: string): Promise<Location> {
    const location = await findLocation(this.db, scope, id);
    if (!location) throw notFound(LOCATION_MESSAGES.notFound);
    return location;
  }

  private async getGroup(scope: TenantScope, id: string): Promise<DeviceGroup> {
    const group = await findGroup(this.db, scope, id);
    if (!group) throw notFound(LOCATION_MESSAGES.groupNotFound);
    const { enterpriseId: _enterpriseId, ...rest } = group;
    return rest;
  }

  /** An enterprise admin's locations are its enterprise's; the super admin names the enterprise. */
  private async enterpriseForNew(scope: TenantScope, asked: string | null): Promise<string> {
    if (scope.kind === 'enterprise') {
      if (asked && asked !== scope.enterpriseId) throw notFound(ENTERPRISE_NOT_FOUND);
      return scope.enterpriseId;
    }
    if (scope.kind !== 'all') throw forbidden();
    if (!asked) throw badRequest(LOCATION_MESSAGES.enterpriseRequired);
    if (!(await enterpriseExists(this.db, asked))) throw notFound(ENTERPRISE_NOT_FOUND);
    return asked;
  }

  private async uniqueName<T>(index: string, message: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err, index)) throw conflict(message);
      throw err;
    }
  }
}

const values = (body: UpdateLocationBody) => ({ name: body.name, address: body.address ?? null, latitude: body.latitude, longitude: body.longitude });
