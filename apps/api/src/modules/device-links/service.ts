import { BEACON_MESSAGES as B, type LinkDevicesResult, type LinkDevicesToClientBody, type LinkDevicesToUserBody } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import type { EventBus } from '../../realtime/event-bus';
import type { ClientMeta } from '../auth/session-service';
import { recordDeviceEvents } from '../device-events/repository';
import { findEnterprise } from '../enterprises/repository';
import type { AuthContext } from '../../plugins/auth';
import { userToActOn } from '../users/target-user';
import {
  addUserLinks,
  devicesOfUserLocked,
  lockDevices,
  lockDevicesOfEnterprise,
  moveDevicesIntoEnterprise,
  releaseDevicesFromEnterprise,
  removeUserLinks,
  type LinkableDevice,
} from './repository';
import { checkDeviceLimit, lockEnterpriseForLinking } from './plan-limit';
import { refuseWhenRestricted } from '../subscriptions/restriction';

interface Actor {
  userId: string;
  scope: TenantScope;
  meta: ClientMeta;
}

const DEVICE_NOT_FOUND = 'Dispositivo não encontrado.';

/**
 * M6: devices into enterprises (super admin) and to users of an enterprise (its admin). `to_update` 0 makes the list
 * the whole new set, 1 only adds (ADR 18). Everything named is checked before anything changes: one device out of
 * reach refuses the whole call. Each change is a device event (D7); sockets are rechecked (`access.changed`).
 */
export class DeviceLinkService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  async linkToClient(body: LinkDevicesToClientBody, by: Actor): Promise<LinkDevicesResult> {
    const enterprise = await findEnterprise(this.db, body.client_id);
    if (!enterprise) throw notFound('Empresa não encontrada.');
    const wanted = new Set(body.devices);
    const at = this.clock.now();
    const result = await this.db.transaction().execute(async (trx) => {
      await lockEnterpriseForLinking(trx, enterprise._id);
      const named = await lockDevices(trx, [...wanted]);
      if (named.length !== wanted.size) throw notFound(DEVICE_NOT_FOUND);
      const elsewhere = named.find((d) => d.enterprise_id !== null && d.enterprise_id !== enterprise._id);
      if (elsewhere) throw conflict(`O dispositivo ${elsewhere.name} (${elsewhere.mac}) pertence a outra empresa. Desvincule-o dela antes.`);
      const added = named.filter((d) => d.enterprise_id === null);
      const removed = body.to_update === 0 ? (await lockDevicesOfEnterprise(trx, enterprise._id)).filter((d) => !wanted.has(d.id)) : [];
      // The plan's device limit (ADR 28), checked before anything changes.
      await checkDeviceLimit(trx, enterprise._id, added.length, removed.length);
      // More devices are a new commitment: refused while the subscription is restricted; removing never is (ADR 32).
      if (added.length > 0) await refuseWhenRestricted(trx, enterprise._id);
      await moveDevicesIntoEnterprise(trx, added.map((d) => d.id), enterprise._id, at);
      await releaseDevicesFromEnterprise(trx, removed.map((d) => d.id), enterprise._id, at);
      await recordDeviceEvents(
        trx,
        [
          ...added.map((d) => ({ deviceId: d.id, type: 'link', message: `Vinculado à empresa ${enterprise.name}` })),
          ...removed.map((d) => ({ deviceId: d.id, type: 'unlink', message: `Desvinculado da empresa ${enterprise.name}` })),
        ],
        { userId: by.userId, meta: by.meta, at },
      );
      return { linked: added.length, unlinked: removed.length };
    });
    if (result.linked + result.unlinked > 0) this.events.emit('access.changed', { enterpriseId: enterprise._id });
    return { success: true, message: B.linked, ...result };
  }

  async linkToUser(body: LinkDevicesToUserBody, by: Actor & { auth: AuthContext }): Promise<LinkDevicesResult> {
    // The owner's links only by the owner or the super admin, another administrator's only by the owner (21.3).
    const user = await userToActOn(this.db, by.auth, body.user_id, 'link-devices');
    const enterpriseId = user.enterprise?._id;
    if (!enterpriseId) throw badRequest('Este usuário não pertence a uma empresa: vincule dispositivos a usuários de uma empresa.');
    const wanted = new Set(body.devices);
    const at = this.clock.now();
    const result = await this.db.transaction().execute(async (trx) => {
      const current = await devicesOfUserLocked(trx, user.id);
      const named = await lockDevices(trx, [...wanted]);
      // Only the user's enterprise's devices: another enterprise's device is as unknown as one that does not exist.
      if (named.length !== wanted.size || named.some((d) => d.enterprise_id !== enterpriseId)) throw notFound(DEVICE_NOT_FOUND);
      const has = new Set(current.map((d) => d.id));
      const added = named.filter((d) => !has.has(d.id));
      const removed: LinkableDevice[] = body.to_update === 0 ? current.filter((d) => !wanted.has(d.id)) : [];
      await addUserLinks(trx, user.id, added.map((d) => d.id), at);
      await removeUserLinks(trx, user.id, removed.map((d) => d.id));
      await recordDeviceEvents(
        trx,
        [
          ...added.map((d) => ({ deviceId: d.id, type: 'link', message: `Vinculado ao usuário ${user.name} (${user.username})` })),
          ...removed.map((d) => ({ deviceId: d.id, type: 'unlink', message: `Desvinculado do usuário ${user.name} (${user.username})` })),
        ],
        { userId: by.userId, meta: by.meta, at },
      );
      return { linked: added.length, unlinked: removed.length };
    });
    if (result.linked + result.unlinked > 0) this.events.emit('access.changed', { userId: user.id });
    return { success: true, message: B.linked, ...result };
  }
}
