import { ADDRESS_MESSAGES, type EnterpriseAddressBody, type EnterpriseAddressResponse, type EnterprisePlanResponse } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';

/** The caller's own enterprise: these screens are about it, never about another one. */
function ownEnterprise(auth: AuthContext): string {
  if (!auth.enterpriseId) throw new AppError('BAD_REQUEST', ADDRESS_MESSAGES.noEnterprise);
  return auth.enterpriseId;
}

/** What a registrant completes about their enterprise (A4: address; A11: plan). */
export class EnterpriseAccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Reads answer "nothing" to a caller without an enterprise (the platform administrator); writes refuse. */
  async address(auth: AuthContext): Promise<EnterpriseAddressResponse> {
    if (!auth.enterpriseId) return null;
    const row = await this.db
      .selectFrom('enterprise_addresses')
      .select(['cep', 'number', 'address', 'neighbourhood', 'city', 'uf', 'ibge'])
      .where('enterprise_id', '=', auth.enterpriseId)
      .executeTakeFirst();
    return row ?? null;
  }

  async saveAddress(auth: AuthContext, body: EnterpriseAddressBody): Promise<void> {
    const enterpriseId = ownEnterprise(auth);
    const values = { ...body, ibge: body.ibge ?? null, updated_by: auth.userId, updated_at: this.clock.now() };
    await this.db
      .insertInto('enterprise_addresses')
      .values({ enterprise_id: enterpriseId, ...values })
      .onConflict((oc) => oc.column('enterprise_id').doUpdateSet(values))
      .execute();
  }

  async plan(auth: AuthContext): Promise<EnterprisePlanResponse> {
    if (!auth.enterpriseId) return { current: null, requested: null };
    const enterpriseId = auth.enterpriseId;
    const current = await this.db
      .selectFrom('subscriptions as s')
      .innerJoin('plan_cycles as c', 'c.id', 's.plan_cycle_id')
      .innerJoin('plans as p', 'p.id', 'c.plan_id')
      .select(['p.id as plan_id', 'c.id as cicle_id', 'p.name as plan_name', 'c.name as cicle_name', 'c.value'])
      .where('s.enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    const requested = await this.db
      .selectFrom('plan_change_requests as r')
      .innerJoin('plan_cycles as c', 'c.id', 'r.plan_cycle_id')
      .innerJoin('plans as p', 'p.id', 'c.plan_id')
      .select(['p.id as plan_id', 'c.id as cicle_id', 'p.name as plan_name', 'c.name as cicle_name', 'r.requested_at'])
      .where('r.enterprise_id', '=', enterpriseId)
      .where('r.status', '=', 'pending')
      .executeTakeFirst();
    return {
      current: current ? { ...current, value: Number(current.value) } : null,
      requested: requested ? { ...requested, requested_at: requested.requested_at.toISOString() } : null,
    };
  }
}

