import { sql, type Insertable } from 'kysely';
import type { UserDetail } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';
import type { TenantScope } from '../../lib/tenant-scope';

/** Users with their profile, enterprise and linked devices, as the API shows them. */
function userQuery(db: Db) {
  return db
    .selectFrom('users as u')
    .innerJoin('profiles as p', 'p.id', 'u.profile_id')
    .leftJoin('enterprises as e', 'e.id', 'u.enterprise_id')
    .select([
      'u.id', 'u.name', 'u.username', 'u.email', 'u.phone', 'u.profile_id', 'u.enterprise_id', 'u.is_owner',
      'u.disabled', 'u.verified', 'u.created_at', 'p.name as profile_name', 'e.name as enterprise_name',
      sql<string[]>`coalesce((select array_agg(du.device_id::text order by du.created_at) from device_users du where du.user_id = u.id), '{}')`.as('available_devices'),
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof userQuery>['executeTakeFirstOrThrow']>>;

export function toUserDetail(row: UserRow): UserDetail {
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    phone: row.phone,
    profile: { _id: row.profile_id, name: row.profile_name },
    userType: row.profile_id,
    disabled: row.disabled,
    verified: row.verified,
    isOwner: row.is_owner,
    available_devices: row.available_devices,
    enterprise: row.enterprise_id && row.enterprise_name ? { _id: row.enterprise_id, name: row.enterprise_name } : null,
    created_at: row.created_at.toISOString(),
  };
}

/** Restricts a users query to what the scope may see. */
function inScope<Q extends ReturnType<typeof userQuery>>(query: Q, scope: TenantScope): Q {
  switch (scope.kind) {
    case 'all':
      return query;
    case 'enterprise':
      return query.where('u.enterprise_id', '=', scope.enterpriseId) as Q;
    case 'user':
      return query.where('u.id', '=', scope.userId) as Q;
  }
}

export async function listUsersOfEnterpriseInScope(
  db: Db,
  scope: TenantScope,
  enterpriseId: string,
  disabled: boolean | undefined,
): Promise<UserDetail[]> {
  let query = inScope(userQuery(db), scope).where('u.enterprise_id', '=', enterpriseId);
  if (disabled !== undefined) query = query.where('u.disabled', '=', disabled);
  const rows = await query.orderBy('u.created_at').execute();
  return rows.map(toUserDetail);
}

/** True when some user already has this email (emails are unique without regard to case). */
export async function isEmailTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
  return !!row;
}

/** Usernames (lower case) that begin with `prefix`; `prefix` holds no LIKE wildcards. */
export async function usernamesStartingWith(db: Db, prefix: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select(sql<string>`lower(username)`.as('username'))
    .where(sql<string>`lower(username)`, 'like', `${prefix.toLowerCase()}%`)
    .execute();
  return new Set(rows.map((r) => r.username));
}

export async function insertUser(db: Db, values: Insertable<UsersTable>): Promise<{ id: string; username: string }> {
  return db.insertInto('users').values(values).returning(['id', 'username']).executeTakeFirstOrThrow();
}

export async function setUserPassword(db: Db, id: string, passwordHash: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
}

export async function setUserDisabled(db: Db, id: string, disabled: boolean, now: Date): Promise<void> {
  await db.updateTable('users').set({ disabled, updated_at: now }).where('id', '=', id).execute();
}

/** Name, username and email of a user; the unique indexes (case-insensitive) refuse duplicates. */
export async function updateUserIdentity(db: Db, id: string, values: { name: string; username: string; email: string }, now: Date): Promise<void> {
  // The three columns by name: the request body carries more than columns (a reason for change, say).
  await db.updateTable('users').set({ name: values.name, username: values.username, email: values.email, updated_at: now }).where('id', '=', id).execute();
}

export async function findUserInScope(db: Db, scope: TenantScope, id: string): Promise<UserDetail | undefined> {
  const row = await inScope(userQuery(db), scope).where('u.id', '=', id).executeTakeFirst();
  return row && toUserDetail(row);
}

/** For login only: the password hash never leaves this module's callers in auth. */
export async function findLoginCandidate(db: Db, username: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('enterprises as e', 'e.id', 'u.enterprise_id')
    .select(['u.id', 'u.name', 'u.enterprise_id', 'u.password_hash', 'u.disabled', 'e.disabled as enterprise_disabled'])
    .where(sql<string>`lower(u.username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserDetail | undefined> {
  const row = await userQuery(db).where('u.id', '=', id).executeTakeFirst();
  return row && toUserDetail(row);
}
