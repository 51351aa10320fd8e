import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** The account a recovery or confirmation is about, by e-mail (any case). */
export async function findAccountByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'verified', 'disabled'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function insertEmailVerification(
  db: Db,
  values: { tokenHash: Buffer; userId: string; expiresAt: Date; newEmail?: string; requestedBy?: string; now: Date },
): Promise<void> {
  await db
    .insertInto('email_verifications')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      expires_at: values.expiresAt,
      used_at: null,
      new_email: values.newEmail ?? null,
      requested_by: values.requestedBy ?? null,
      created_at: values.now,
    })
    .execute();
}

/** A live confirmation token: whose, and the new e-mail it gives the account (null: it confirms the current one). */
export type SpentEmailVerification = { userId: string; newEmail: string | null; requestedBy: string | null };

/**
 * Spends a confirmation token (marks it used), so that two clicks on the link cannot both succeed; a token that
 * confirms the current address marks the user verified in the same transaction. Null when the token is unknown,
 * spent or expired. A change token (ADR 82) is applied by `EmailChangeService.apply`.
 */
export async function spendEmailVerification(db: Db, tokenHash: Buffer, now: Date): Promise<SpentEmailVerification | null> {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('email_verifications')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'new_email', 'requested_by'])
      .executeTakeFirst();
    if (!spent) return null;
    if (spent.new_email === null) await trx.updateTable('users').set({ verified: true, updated_at: now }).where('id', '=', spent.user_id).execute();
    return { userId: spent.user_id, newEmail: spent.new_email, requestedBy: spent.requested_by };
  });
}

/**
 * Earlier links stop working when a new one is sent: only the latest message is the one to follow. The links that
 * confirm the current address and those of a pending change (ADR 82) are two series: a new one ends its own series.
 */
export async function expireEmailVerificationsOf(db: Db, userId: string, now: Date, series: 'current' | 'change'): Promise<void> {
  await db
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('new_email', series === 'current' ? 'is' : 'is not', null)
    .execute();
}

export async function countRecentPasswordResets(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('password_resets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A new code replaces every earlier one of the user. */
export async function insertPasswordReset(db: Db, values: { userId: string; codeHash: string; expiresAt: Date; now: Date }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('password_resets').set({ used_at: values.now }).where('user_id', '=', values.userId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('password_resets')
      .values({ user_id: values.userId, code_hash: values.codeHash, expires_at: values.expiresAt, used_at: null, created_at: values.now })
      .execute();
  });
}

/** The user's live code: not spent, not expired, attempts left. */
export async function findLivePasswordReset(db: Db, userId: string, now: Date, maxAttempts: number) {
  return db
    .selectFrom('password_resets')
    .select(['id', 'code_hash', 'attempts'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** Counts a try before the code is checked, so parallel guesses cannot exceed the limit. False when none was left. */
export async function takePasswordResetAttempt(db: Db, id: string, maxAttempts: number): Promise<boolean> {
  const row = await db
    .updateTable('password_resets')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** Marks the code used; false when another request spent it first. */
export async function spendPasswordReset(db: Db, id: string, now: Date): Promise<boolean> {
  const row = await db.updateTable('password_resets').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).returning('id').executeTakeFirst();
  return !!row;
}

/** A cycle of an offered plan: a retired plan (ADR 28) is not chosen any more. */
export async function findPlanCycle(db: Db, planId: string, cycleId: string) {
  return db
    .selectFrom('plan_cycles as c')
    .innerJoin('plans as p', 'p.id', 'c.plan_id')
    .select(['c.id'])
    .where('c.id', '=', cycleId)
    .where('c.plan_id', '=', planId)
    .where('p.retired_at', 'is', null)
    .executeTakeFirst();
}

/** A "Não fui eu" link of a change (ADR 58): the identity before it and where its notice went. */
export async function insertChangeReport(
  db: Db,
  values: { userId: string; tokenHash: Buffer; kind: 'identity' | 'password'; previousEmail: string; previousUsername: string; notifiedEmail: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('account_change_reports')
    .values({
      user_id: values.userId,
      token_hash: values.tokenHash,
      kind: values.kind,
      previous_email: values.previousEmail,
      previous_username: values.previousUsername,
      notified_email: values.notifiedEmail,
      created_at: values.now,
      expires_at: values.expiresAt,
      used_at: null,
    })
    .execute();
}

/** The user a live report link is about (not spent, not expired). */
export async function findOpenChangeReport(db: Db, tokenHash: Buffer, now: Date) {
  return db
    .selectFrom('account_change_reports')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/**
 * Spends every open report link of the user and answers the oldest open change of identity: what the account was
 * before the first change that is still reportable (undefined when only password changes are open). Run in the
 * transaction that holds the user's row.
 */
export async function spendChangeReportsOf(db: Db, userId: string, now: Date) {
  const open = await db
    .updateTable('account_change_reports')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['kind', 'previous_email', 'previous_username', 'created_at'])
    .execute();
  return open.filter((r) => r.kind === 'identity').sort((a, b) => a.created_at.getTime() - b.created_at.getTime())[0];
}

/** Whether another user already holds this e-mail or username (any case). */
export async function isIdentityTakenByOther(db: Db, userId: string, field: 'email' | 'username', value: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(${sql.ref(field)})`, '=', value.toLowerCase())
    .where('id', '<>', userId)
    .executeTakeFirst();
  return !!row;
}
