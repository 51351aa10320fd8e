import { sql } from 'kysely';
import { Profile, type ApiToken, type ApiTokenScope, type ApiTokenStatus } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { textArray } from '../../lib/pg-arrays';

/** The SQL of API tokens (ADR 64). Every read takes the enterprise: another enterprise's token does not exist. */

/** A token that may be used now, with who it acts for. */
export interface LiveApiToken {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  enterprise_id: string;
  created_by: string;
}

/**
 * The live token with this hash: not revoked, not expired, its enterprise enabled, and its creator still an active
 * administrator of that enterprise (a token never outlives its creator's rights). One indexed read, no write.
 */
export async function findLiveToken(db: Db, tokenHash: Buffer, now: Date): Promise<LiveApiToken | undefined> {
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.created_by')
    .innerJoin('enterprises as e', 'e.id', 't.enterprise_id')
    .select(['t.id', 't.name', 't.scopes', 't.enterprise_id', 't.created_by'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', now)]))
    .where('e.disabled', '=', false)
    .where('u.disabled', '=', false)
    .where('u.profile_id', '=', Profile.EnterpriseAdmin)
    .whereRef('u.enterprise_id', '=', 't.enterprise_id')
    .executeTakeFirst();
  return row && { ...row, scopes: row.scopes as ApiTokenScope[] };
}

export async function insertToken(
  db: Db,
  values: { enterpriseId: string; createdBy: string; name: string; scopes: readonly string[]; tokenHash: Buffer; tokenPrefix: string; at: Date; expiresAt: Date | null },
): Promise<string> {
  const row = await db
    .insertInto('api_tokens')
    .values({
      enterprise_id: values.enterpriseId,
      created_by: values.createdBy,
      name: values.name,
      scopes: sql<string[]>`${textArray([...values.scopes])}::text[]`,
      token_hash: values.tokenHash,
      token_prefix: values.tokenPrefix,
      created_at: values.at,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function countActiveTokens(db: Db, enterpriseId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('enterprise_id', '=', enterpriseId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function tokenQuery(db: Db) {
  return db
    .selectFrom('api_tokens as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .select([
      't.id', 't.name', 't.scopes', 't.token_prefix', 't.created_at', 't.expires_at', 't.last_used_at', 't.revoked_at', 't.enterprise_id',
      'u.id as user_id', 'u.name as user_name', 'u.disabled as user_disabled', 'u.profile_id as user_profile', 'u.enterprise_id as user_enterprise',
    ]);
}
type TokenRow = Awaited<ReturnType<ReturnType<typeof tokenQuery>['executeTakeFirstOrThrow']>>;

function statusOf(row: TokenRow, now: Date): ApiTokenStatus {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at <= now) return 'expired';
  if (!row.user_id || row.user_disabled || row.user_profile !== Profile.EnterpriseAdmin || row.user_enterprise !== row.enterprise_id) return 'creator_inactive';
  return 'active';
}

function toApiToken(row: TokenRow, now: Date): ApiToken {
  return {
    _id: row.id,
    name: row.name,
    scopes: row.scopes as ApiTokenScope[],
    token_prefix: row.token_prefix,
    status: statusOf(row, now),
    created_by: row.user_id && row.user_name ? { _id: row.user_id, name: row.user_name } : null,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    revoked_at: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}

/** The enterprise's tokens, newest first (revoked ones too: the list is also their history). */
export async function listTokens(db: Db, enterpriseId: string, now: Date): Promise<ApiToken[]> {
  const rows = await tokenQuery(db).where('t.enterprise_id', '=', enterpriseId).orderBy('t.created_at', 'desc').orderBy('t.id').execute();
  return rows.map((row) => toApiToken(row, now));
}

export async function findToken(db: Db, enterpriseId: string, id: string, now: Date): Promise<ApiToken | undefined> {
  const row = await tokenQuery(db).where('t.enterprise_id', '=', enterpriseId).where('t.id', '=', id).executeTakeFirst();
  return row && toApiToken(row, now);
}

/** Revokes a token of the enterprise (once: the first revocation's time stays); false when it is not the enterprise's. */
export async function revokeToken(db: Db, enterpriseId: string, id: string, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('api_tokens')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${at.toISOString()}::timestamptz)` })
    .where('enterprise_id', '=', enterpriseId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** Last uses of several tokens in one statement; never moves a last use back in time. */
export async function recordUses(db: Db, uses: ReadonlyMap<string, Date>): Promise<void> {
  if (uses.size === 0) return;
  const ids = [...uses.keys()];
  const ats = ids.map((id) => uses.get(id)!.toISOString());
  await sql`
    UPDATE api_tokens t SET last_used_at = u.at
    FROM unnest(${textArray(ids)}::uuid[], ${textArray(ats)}::timestamptz[]) AS u(id, at)
    WHERE t.id = u.id AND (t.last_used_at IS NULL OR t.last_used_at < u.at)`.execute(db);
}
