import { sql } from 'kysely';
import type { EnterpriseSummary } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { reachesEnterprise, type TenantScope } from '../../lib/tenant-scope';

/** Enterprises with their linked devices and users, as the Empresas screen lists them (M2). */
function enterpriseQuery(db: Db) {
  return db
    .selectFrom('enterprises as e')
    .select([
      'e.id', 'e.name', 'e.email', 'e.disabled', 'e.created_at',
      sql<string[]>`coalesce((select array_agg(d.id::text order by d.created_at) from devices d where d.enterprise_id = e.id), '{}')`.as('device_ids'),
      sql<{ id: string; isOwner: boolean; name: string; username: string }[]>`coalesce((select json_agg(json_build_object('id', u.id, 'isOwner', u.is_owner, 'name', u.name, 'username', u.username) order by u.created_at) from users u where u.enterprise_id = e.id), '[]'::json)`.as('members'),
    ]);
}

type EnterpriseRow = Awaited<ReturnType<ReturnType<typeof enterpriseQuery>['executeTakeFirstOrThrow']>>;

function toEnterpriseSummary(r: EnterpriseRow): EnterpriseSummary {
  const owner = r.members.find((m) => m.isOwner);
  return {
    _id: r.id,
    name: r.name,
    email: r.email,
    disabled: r.disabled,
    created_at: r.created_at.toISOString(),
    available_devices: r.device_ids,
    users: r.members.map((m) => ({ id: m.id, isOwner: m.isOwner })),
    userOwner: owner ? { _id: owner.id, name: owner.name, username: owner.username } : null,
  };
}

export async function listEnterprises(db: Db): Promise<EnterpriseSummary[]> {
  const rows = await enterpriseQuery(db).orderBy('e.created_at', 'desc').orderBy('e.id').execute();
  return rows.map(toEnterpriseSummary);
}

/** One enterprise; the caller checks first that its scope reaches it. */
export async function findEnterprise(db: Db, id: string): Promise<EnterpriseSummary | undefined> {
  const row = await enterpriseQuery(db).where('e.id', '=', id).executeTakeFirst();
  return row && toEnterpriseSummary(row);
}

export async function enterpriseExists(db: Db, id: string): Promise<boolean> {
  return !!(await db.selectFrom('enterprises').select('id').where('id', '=', id).executeTakeFirst());
}

/** True when the enterprise exists and the scope reaches it: anything else is "not found" to the caller. */
export async function isEnterpriseInScope(db: Db, scope: TenantScope, id: string): Promise<boolean> {
  return reachesEnterprise(scope, id) && (await enterpriseExists(db, id));
}

export async function insertEnterprise(db: Db, values: { name: string; email: string | null; now: Date }): Promise<{ id: string; name: string }> {
  return db
    .insertInto('enterprises')
    .values({ name: values.name, email: values.email, created_at: values.now, updated_at: values.now })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function setEnterpriseDisabled(db: Db, id: string, disabled: boolean, now: Date): Promise<boolean> {
  const result = await db.updateTable('enterprises').set({ disabled, updated_at: now }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
