import { AUDIT_PAGE_SIZE, AUDIT_TRAIL_MESSAGES, type AuditEntry, type AuditTrailPage, type AuditTrailQuery, type AuditVerifyResult } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { listAuditEntries, listChains, PLATFORM_CHAIN, verifyChain, type AuditFilter, type AuditRow, type ChainId } from './repository';

export function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    chain: r.chain,
    seq: Number(r.seq),
    enterprise: r.enterprise_id ? { _id: r.enterprise_id, name: r.enterprise_name ?? '' } : null,
    at: r.at.toISOString(),
    actor: { type: r.actor_type, _id: r.actor_id, name: r.actor_name, username: r.actor_username },
    action: r.action,
    entity: r.entity,
    entity_id: r.entity_id,
    before: r.before,
    after: r.after,
    reason: r.reason,
    client: { address: r.client_address, client: r.client, clientVersion: r.client_version, clientOs: r.client_os, userAgent: r.user_agent },
    prev_hash: r.prev_hash,
    hash: r.hash,
  };
}

/** Reading and verifying the audit trail (X11, ADR 0060); writing it is the database's. */
export class AuditTrailService {
  constructor(private readonly db: Db) {}

  /**
   * The chains a caller may read: an enterprise admin their enterprise's (another one named: 404); the super admin
   * the one named (an enterprise or 'platform') or all (undefined).
   */
  async chainsFor(scope: TenantScope, enterpriseId: string | undefined): Promise<ChainId[] | undefined> {
    if (scope.kind !== 'all') {
      if (!scope.enterpriseId || (enterpriseId !== undefined && enterpriseId !== scope.enterpriseId)) throw notFound(AUDIT_TRAIL_MESSAGES.enterpriseNotFound);
      return [scope.enterpriseId];
    }
    if (enterpriseId === undefined) return undefined;
    if (enterpriseId === PLATFORM_CHAIN) return [PLATFORM_CHAIN];
    const exists = await this.db.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).executeTakeFirst();
    if (!exists) throw notFound(AUDIT_TRAIL_MESSAGES.enterpriseNotFound);
    return [enterpriseId];
  }

  async filterFor(scope: TenantScope, query: Omit<AuditTrailQuery, 'page'>): Promise<AuditFilter> {
    return {
      chains: await this.chainsFor(scope, query.enterprise_id),
      entity: query.entity,
      entityId: query.entity_id,
      actor: query.actor,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    };
  }

  async list(scope: TenantScope, query: AuditTrailQuery): Promise<AuditTrailPage> {
    const filter = await this.filterFor(scope, query);
    const { rows, total } = await listAuditEntries(this.db, filter, { offset: (query.page - 1) * AUDIT_PAGE_SIZE, limit: AUDIT_PAGE_SIZE });
    return { data: rows.map(toAuditEntry), total, page: query.page, limit: AUDIT_PAGE_SIZE };
  }

  /** Recomputes the caller's chain (or, for the super admin without a filter, every chain, stopping at the first bad one). */
  async verify(scope: TenantScope, enterpriseId: string | undefined): Promise<AuditVerifyResult> {
    const chains = (await this.chainsFor(scope, enterpriseId)) ?? (await listChains(this.db));
    let entries = 0;
    for (const chain of chains) {
      const check = await verifyChain(this.db, chain);
      entries += check.entries;
      if (check.firstBadSeq !== null) return { ok: false, entries, first_bad_seq: check.firstBadSeq, chain };
    }
    return { ok: true, entries };
  }
}
