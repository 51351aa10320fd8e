import { BILLING_MESSAGES } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { AppError, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';

/**
 * The enterprise a billing or subscription call is about: the caller's own (naming another is a 404, as if it did
 * not exist); the super admin's choice, looked up, or null when they named none (callers that need one refuse it).
 */
export async function billedEnterprise(db: Db, auth: AuthContext, requested: string | undefined): Promise<string | null> {
  if (auth.scope.kind === 'all') {
    if (!requested) return null;
    const found = await db.selectFrom('enterprises').select('id').where('id', '=', requested).executeTakeFirst();
    if (!found) throw notFound(BILLING_MESSAGES.enterpriseNotFound);
    return requested;
  }
  const own = auth.scope.enterpriseId;
  if (!own) throw new AppError('BAD_REQUEST', BILLING_MESSAGES.noEnterprise);
  if (requested && requested !== own) throw notFound(BILLING_MESSAGES.enterpriseNotFound);
  return own;
}
