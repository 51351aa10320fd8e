import { COMPLIANCE_MESSAGES, type ComplianceBody, type ComplianceSettings } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';

/**
 * GxP mode per enterprise (X11, ADR 0061). Off by default; on, the database asks a reason for the changes that need
 * one (audit triggers) and acknowledgements and approvals are electronic signatures (ADR 0062).
 */
export class ComplianceService {
  constructor(private readonly db: Db) {}

  /** The enterprise a caller's request is about: their own; the super admin's must be named. */
  private async enterpriseOf(scope: TenantScope, enterpriseId: string | undefined): Promise<string> {
    if (scope.kind === 'all') {
      if (!enterpriseId) throw badRequest(COMPLIANCE_MESSAGES.enterpriseRequired);
      const found = await this.db.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).executeTakeFirst();
      if (!found) throw notFound(COMPLIANCE_MESSAGES.enterpriseNotFound);
      return found.id;
    }
    if (!scope.enterpriseId || (enterpriseId !== undefined && enterpriseId !== scope.enterpriseId)) throw notFound(COMPLIANCE_MESSAGES.enterpriseNotFound);
    return scope.enterpriseId;
  }

  async get(scope: TenantScope, enterpriseId: string | undefined): Promise<ComplianceSettings> {
    const id = await this.enterpriseOf(scope, enterpriseId);
    return { enterprise_id: id, gxp: await this.isGxp(id) };
  }

  /** Only the enterprise's administrators (the route's permission) and the super admin change it. */
  async set(scope: TenantScope, enterpriseId: string | undefined, body: ComplianceBody): Promise<ComplianceSettings> {
    const id = await this.enterpriseOf(scope, enterpriseId);
    // Leaving GxP mode is itself a change an inspector asks about: it needs its reason.
    if (!body.gxp && !body.reason && (await this.isGxp(id))) throw badRequest(COMPLIANCE_MESSAGES.reasonToTurnOff);
    await this.db.updateTable('enterprises').set({ gxp: body.gxp }).where('id', '=', id).execute();
    return { enterprise_id: id, gxp: body.gxp };
  }

  /** Whether an enterprise is in GxP mode (false for none: the platform's own records). */
  async isGxp(enterpriseId: string | null): Promise<boolean> {
    if (!enterpriseId) return false;
    const row = await this.db.selectFrom('enterprises').select('gxp').where('id', '=', enterpriseId).executeTakeFirst();
    return row?.gxp ?? false;
  }
}
