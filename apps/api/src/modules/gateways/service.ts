import type { CreatedGateway, CreateGatewayBody, Gateway, RenameGatewayBody } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { forbidden, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { newSecret, sha256 } from '../../lib/tokens';
import type { EventBus } from '../../realtime/event-bus';
import { enterpriseExists } from '../enterprises/repository';
import { findGatewayInScope, insertGateway, listGateways, renameGateway, revokeGateway, type GatewayScope } from './repository';

const GATEWAY_NOT_FOUND = 'Gateway não encontrado.';
const ENTERPRISE_NOT_FOUND = 'Empresa não encontrada.';
/** Keys carry a recognisable prefix, so a leaked one is easy to spot in logs or code. */
const KEY_PREFIX = 'sgw_';

function gatewayScope(scope: TenantScope): GatewayScope {
  if (scope.kind === 'all') return scope;
  if (scope.kind === 'enterprise') return scope;
  throw forbidden();
}

/** Gateway API keys (D5): created by an admin, shown once, stored as a hash, revoked at once. */
export class GatewayService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  list(scope: TenantScope): Promise<Gateway[]> {
    return listGateways(this.db, gatewayScope(scope), this.today());
  }

  async create(scope: TenantScope, body: CreateGatewayBody, createdBy: string): Promise<CreatedGateway> {
    const own = gatewayScope(scope);
    let enterpriseId: string | null;
    if (own.kind === 'enterprise') {
      // An enterprise admin's gateway writes its enterprise's devices, and only those.
      if (body.enterprise_id && body.enterprise_id !== own.enterpriseId) throw notFound(ENTERPRISE_NOT_FOUND);
      enterpriseId = own.enterpriseId;
    } else {
      enterpriseId = body.enterprise_id ?? null;
      if (enterpriseId && !(await enterpriseExists(this.db, enterpriseId))) throw notFound(ENTERPRISE_NOT_FOUND);
    }
    const key = KEY_PREFIX + newSecret(24);
    const id = await insertGateway(this.db, {
      name: body.name,
      enterpriseId,
      keyHash: sha256(key),
      keyPrefix: key.slice(0, KEY_PREFIX.length + 6),
      createdBy,
      at: this.clock.now(),
    });
    const gateway = await findGatewayInScope(this.db, own, id, this.today());
    if (!gateway) throw notFound(GATEWAY_NOT_FOUND);
    return { ...gateway, key };
  }

  /** Renames a gateway of the caller's scope (a revoked one too: its name is how the list tells it apart). */
  async rename(scope: TenantScope, id: string, body: RenameGatewayBody): Promise<Gateway> {
    const own = gatewayScope(scope);
    if (!(await findGatewayInScope(this.db, own, id, this.today()))) throw notFound(GATEWAY_NOT_FOUND);
    await renameGateway(this.db, id, body.name);
    const gateway = await findGatewayInScope(this.db, own, id, this.today());
    if (!gateway) throw notFound(GATEWAY_NOT_FOUND);
    return gateway;
  }

  async revoke(scope: TenantScope, id: string): Promise<void> {
    const own = gatewayScope(scope);
    const gateway = await findGatewayInScope(this.db, own, id, this.today());
    if (!gateway) throw notFound(GATEWAY_NOT_FOUND);
    await revokeGateway(this.db, id, this.clock.now());
    // Connected MQTT gateways using the key are dropped now, not at their next reconnect.
    this.events.emit('gateway.revoked', { gatewayId: id });
  }
}
