import type { Device, UpdateDeviceBody, z } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { ClientMeta } from '../auth/session-service';
import { formatRange, LOCATION_MESSAGES } from '@sentinela/contract';
import { listDeviceEvents, recordDeviceEvent } from '../device-events/repository';
import { findGroup, findLocation } from '../locations/repository';
import { countReadingsOfDevice, findDeviceByMacInScope, findDeviceInScope, findPlacement, renameDevice, updateDeviceSettings } from './repository';

const DEVICE_NOT_FOUND = 'Dispositivo não encontrado.';

export class DeviceService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async historicCount(scope: TenantScope, mac: string): Promise<number> {
    const found = await findDeviceByMacInScope(this.db, scope, mac);
    if (!found) throw notFound(DEVICE_NOT_FOUND);
    return countReadingsOfDevice(this.db, found.num);
  }

  async rename(scope: TenantScope, mac: string, name: string, by: { userId: string; meta: ClientMeta }): Promise<Device> {
    const found = await findDeviceByMacInScope(this.db, scope, mac);
    if (!found) throw notFound(DEVICE_NOT_FOUND);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await renameDevice(trx, found.device._id, name, now);
      await recordDeviceEvent(trx, {
        deviceId: found.device._id,
        type: 'rename',
        message: `Nome alterado de "${found.device.name}" para "${name}"`,
        userId: by.userId,
        meta: by.meta,
        at: now,
      });
    });
    const device = await findDeviceInScope(this.db, scope, found.device._id);
    if (!device) throw notFound(DEVICE_NOT_FOUND);
    return device;
  }

  async events(scope: TenantScope, mac: string) {
    const found = await findDeviceByMacInScope(this.db, scope, mac);
    if (!found) throw notFound(DEVICE_NOT_FOUND);
    return listDeviceEvents(this.db, found.device._id);
  }

  /** D4: name, place and limits; every change is recorded as a device event. */
  async configure(scope: TenantScope, id: string, input: z.infer<typeof UpdateDeviceBody>, by: { userId: string; meta: ClientMeta }): Promise<Device> {
    const before = await findDeviceInScope(this.db, scope, id);
    if (!before) throw notFound(DEVICE_NOT_FOUND);
    const now = this.clock.now();
    const t = input.config?.temperature;
    const h = input.config?.humidity;
    const placement = await this.placement(scope, id, before.enterprise?._id ?? null, input.location_id, input.group_id);
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(placement.changes),
      ...(t?.min !== undefined && { temperature_min: t.min }),
      ...(t?.max !== undefined && { temperature_max: t.max }),
      ...(h?.min !== undefined && { humidity_min: h.min }),
      ...(h?.max !== undefined && { humidity_max: h.max }),
      ...(input.config?.out_of_range_minutes !== undefined && { out_of_range_minutes: input.config.out_of_range_minutes }),
      ...(input.config?.no_data_minutes !== undefined && { no_data_minutes: input.config.no_data_minutes }),
      ...(input.config?.report_interval_seconds !== undefined && { report_interval_seconds: input.config.report_interval_seconds }),
    };
    const tMin = changes.temperature_min !== undefined ? changes.temperature_min : before.config.temperature.min;
    const tMax = changes.temperature_max !== undefined ? changes.temperature_max : before.config.temperature.max;
    const hMin = changes.humidity_min !== undefined ? changes.humidity_min : before.config.humidity.min;
    const hMax = changes.humidity_max !== undefined ? changes.humidity_max : before.config.humidity.max;
    if (tMin !== null && tMax !== null && tMin >= tMax) throw badRequest('A temperatura mínima deve ser menor que a máxima.');
    if (hMin !== null && hMax !== null && hMin >= hMax) throw badRequest('A umidade mínima deve ser menor que a máxima.');

    const parts: string[] = [];
    if (changes.name !== undefined && changes.name !== before.name) parts.push(`nome "${before.name}" → "${changes.name}"`);
    if (tMin !== before.config.temperature.min || tMax !== before.config.temperature.max) parts.push(`temperatura ${formatRange(tMin, tMax, '°C', { none: 'sem limites' })}`);
    if (hMin !== before.config.humidity.min || hMax !== before.config.humidity.max) parts.push(`umidade ${formatRange(hMin, hMax, '%', { none: 'sem limites' })}`);
    if (changes.out_of_range_minutes !== undefined) parts.push(`alarme após ${changes.out_of_range_minutes} min fora da faixa`);
    if (placement.text) parts.push(placement.text);
    if (changes.report_interval_seconds !== undefined && changes.report_interval_seconds !== (before.config.report_interval_seconds ?? null)) {
      parts.push(changes.report_interval_seconds === null ? 'intervalo entre leituras aprendido das leituras' : `intervalo esperado entre leituras ${changes.report_interval_seconds} s`);
    }
    if (changes.no_data_minutes !== undefined) parts.push(changes.no_data_minutes === null ? 'sem alarme de ausência de dados' : `alarme sem dados após ${changes.no_data_minutes} min`);

    await this.db.transaction().execute(async (trx) => {
      await updateDeviceSettings(trx, id, changes, now);
      await recordDeviceEvent(trx, {
        deviceId: id,
        type: 'config',
        message: parts.length ? `Configuração alterada: ${parts.join('; ')}` : 'Configuração salva sem alterações',
        userId: by.userId,
        meta: by.meta,
        at: now,
      });
    });
    const device = await findDeviceInScope(this.db, scope, id);
    if (!device) throw notFound(DEVICE_NOT_FOUND);
    return device;
  }

  /**
   * Where the device goes (location_id, group_id): a location of the device's own enterprise that the caller reaches,
   * and a group of that location. Another enterprise's location or group is "not found", like an unknown one.
   * A new location without a group leaves the device without one (its old group belonged to the old location).
   */
  private async placement(
    scope: TenantScope,
    deviceId: string,
    deviceEnterpriseId: string | null,
    locationId: string | null | undefined,
    groupId: string | null | undefined,
  ): Promise<{ changes: { location_id?: string | null; group_id?: string | null }; text: string | null }> {
    if (locationId === undefined && groupId === undefined) return { changes: {}, text: null };
    const current = await findPlacement(this.db, deviceId);
    let location: { id: string; name: string } | null = current.location;
    if (locationId !== undefined) {
      if (locationId === null) location = null;
      else {
        const found = await findLocation(this.db, scope, locationId);
        if (!found || found.enterprise._id !== deviceEnterpriseId) throw notFound(LOCATION_MESSAGES.notFound);
        location = { id: found._id, name: found.name };
      }
    }
    let group: { id: string; name: string } | null = location?.id === current.location?.id ? current.group : null;
    if (groupId !== undefined) {
      if (groupId === null) group = null;
      else {
        const found = await findGroup(this.db, scope, groupId);
        if (!found || found.enterpriseId !== deviceEnterpriseId) throw notFound(LOCATION_MESSAGES.groupNotFound);
        if (!location) throw badRequest(LOCATION_MESSAGES.groupWithoutLocation);
        if (found.location_id !== location.id) throw badRequest(LOCATION_MESSAGES.groupOfAnotherLocation);
        group = { id: found._id, name: found.name };
      }
    }
    const changes = { location_id: location?.id ?? null, group_id: group?.id ?? null };
    if (changes.location_id === (current.location?.id ?? null) && changes.group_id === (current.group?.id ?? null)) return { changes, text: null };
    const text = location ? `local "${location.name}"${group ? `, grupo "${group.name}"` : ', sem grupo'}` : 'sem local';
    return { changes, text };
  }
}

