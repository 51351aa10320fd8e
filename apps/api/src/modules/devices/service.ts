import type { Device } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { ClientMeta } from '../auth/session-service';
import { recordDeviceEvent } from '../device-events/repository';
import { countReadingsOfDevice, findDeviceByMacInScope, findDeviceInScope, renameDevice } from './repository';

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
}
