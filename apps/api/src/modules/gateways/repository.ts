import { sql } from 'kysely';
import type { Gateway } from '@sentinela/contract';
import type { Db } from '../../db/database';

/** Which gateways a caller manages: every one (super admin) or its enterprise's. */
export type GatewayScope = { kind: 'all' } | { kind: 'enterprise'; enterpriseId: string };

function gatewayQuery(db: Db, today: string) {
  return db
    .selectFrom('gateways as g')
    .leftJoin('enterprises as e', 'e.id', 'g.enterprise_id')
    .select([
      'g.id', 'g.name', 'g.key_prefix', 'g.enterprise_id', 'e.name as enterprise_name', 'g.created_at', 'g.revoked_at', 'g.last_seen_at',
      sql<number>`coalesce((select sum(r.count) from ingest_rejections r where r.gateway_id = g.id and r.day = ${today}::date), 0)`.as('rejected_today'),
    ]);
}

type GatewayRow = Awaited<ReturnType<ReturnType<typeof gatewayQuery>['executeTakeFirstOrThrow']>>;

function toGateway(row: GatewayRow): Gateway {
  return {
    _id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    enterprise: row.enterprise_id && row.enterprise_name ? { _id: row.enterprise_id, name: row.enterprise_name } : null,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
    last_seen_at: row.last_seen_at ? row.last_seen_at.toISOString() : null,
    rejected_today: Number(row.rejected_today),
  };
}

function inScope<Q extends ReturnType<typeof gatewayQuery>>(query: Q, scope: GatewayScope): Q {
  return scope.kind === 'all' ? query : (query.where('g.enterprise_id', '=', scope.enterpriseId) as Q);
}

export async function listGateways(db: Db, scope: GatewayScope, today: string): Promise<Gateway[]> {
  const rows = await inScope(gatewayQuery(db, today), scope).orderBy('g.created_at', 'desc').orderBy('g.id').execute();
  return rows.map(toGateway);
}

export async function findGatewayInScope(db: Db, scope: GatewayScope, id: string, today: string): Promise<Gateway | undefined> {
  const row = await inScope(gatewayQuery(db, today), scope).where('g.id', '=', id).executeTakeFirst();
  return row && toGateway(row);
}

export async function insertGateway(
  db: Db,
  values: { name: string; enterpriseId: string | null; keyHash: Buffer; keyPrefix: string; createdBy: string; at: Date },
): Promise<string> {
  const row = await db
    .insertInto('gateways')
    .values({ name: values.name, enterprise_id: values.enterpriseId, key_hash: values.keyHash, key_prefix: values.keyPrefix, created_by: values.createdBy, created_at: values.at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function revokeGateway(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('gateways').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

export async function renameGateway(db: Db, id: string, name: string): Promise<void> {
  await db.updateTable('gateways').set({ name }).where('id', '=', id).execute();
}
